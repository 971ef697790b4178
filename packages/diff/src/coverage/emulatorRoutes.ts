/** The emulator's route table for a pin: which operations it implements. */
import { features, PINS, type Pin, routesFor } from "@hermetic/emulator"

export const isPinName = (pin: string): pin is Pin => (PINS as ReadonlyArray<string>).includes(pin)

export { features, PINS, routesFor }
