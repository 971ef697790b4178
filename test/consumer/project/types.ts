// (d) Every package's public types, as a strict NodeNext consumer with erasableSyntaxOnly sees them.
import { type Emulator, layer, type NativeBindingUnavailable, type RunningEmulator, startEmulator } from "@hermetic/emulator"
import { decodeScriptSync, type Script } from "@hermetic/script"
import { type Scenario, decodeScenarioSync } from "@hermetic/diff"
import { type GatewayHandle, startGateway } from "@hermetic/oracle-runner"
import type { Layer } from "effect"

const script: Script = decodeScriptSync({ turns: [{ replies: [{ text: "typed" }] }] })
const emulatorLayer: Layer.Layer<Emulator, NativeBindingUnavailable> = layer({ apiKey: "consumer-key-0123456789abcdef" })
const start: () => Promise<RunningEmulator> = () => startEmulator({ port: 0 })
const gateway: (pin: string) => Promise<GatewayHandle> = (pin) => startGateway({ pin })
const scenario: (u: unknown) => Scenario = decodeScenarioSync

export { emulatorLayer, gateway, scenario, script, start }
