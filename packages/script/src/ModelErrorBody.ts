/**
 * The JSON body the scripted model answers a Script error reply with (an OpenAI error object).
 * Here, not in the oracle runner's fake model, because the emulator, standing in for that model,
 * needs it where Hermes shows the body itself (the iteration-limit summary's error text).
 */
export const modelErrorBody = (message: string, type: string | undefined, status: number) => ({
  error: { message, type: type ?? (status >= 500 ? "server_error" : "invalid_request_error"), param: null, code: null }
})
