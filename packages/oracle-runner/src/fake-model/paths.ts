import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"

/** The request's path without its query string. */
export const pathOf = (request: HttpServerRequest.HttpServerRequest): string => request.url.split("?")[0] ?? "/"
