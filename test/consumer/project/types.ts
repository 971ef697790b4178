// (d) Every package's public types, as a strict NodeNext consumer with erasableSyntaxOnly sees them.
import { type Emulator, layer, type RunningEmulator, type StorageOpenError, startEmulator } from "@hermetic/emulator"
import { decodeScriptSync, type Script } from "@hermetic/script"
import { type Scenario, decodeScenarioSync } from "@hermetic/diff"
import { type GatewayHandle, startGateway } from "@hermetic/oracle-runner"
import { HermesEmulatorContainer, type StartedHermesEmulatorContainer } from "@hermetic/testcontainers"
import { type ControlClient, controlClient } from "@hermetic/emulator/control-client"
import type { Layer } from "effect"

const script: Script = decodeScriptSync({ turns: [{ replies: [{ text: "typed" }] }] })
const emulatorLayer: Layer.Layer<Emulator, StorageOpenError> = layer({ apiKey: "consumer-key-0123456789abcdef" })
const start: () => Promise<RunningEmulator> = () => startEmulator({ port: 0 })
const gateway: (pin: string) => Promise<GatewayHandle> = (pin) => startGateway({ pin })
const scenario: (u: unknown) => Scenario = decodeScenarioSync
// the container module's builder, as its README shows it
const container: () => Promise<StartedHermesEmulatorContainer> = () =>
  new HermesEmulatorContainer().withApiKey("consumer-key-0123456789abcdef").withHermesVersion("0.19.0").start()
const control: (started: StartedHermesEmulatorContainer) => ControlClient = (started) => started.control({ namespace: "consumer" })
const direct: ControlClient = controlClient("http://127.0.0.1:8642", "consumer-key-0123456789abcdef")

export { container, control, direct, emulatorLayer, gateway, scenario, script, start }
