/// An API error: one of osrm-routed's codes (or an access-token code) and a message naming the offending value.
/// The OSRM dialect answers it with HTTP 400 (401 for token codes); the other dialects translate it
/// (`MapboxDirectionsAPI.failure`, `NextBillionAPI.failure`).
public struct OSRMError: Error, Sendable {
    /// The `code` field of osrm-routed's error responses.
    public enum Code: String, Sendable, CaseIterable {
        case invalidUrl = "InvalidUrl", invalidService = "InvalidService", invalidVersion = "InvalidVersion"
        case invalidOptions = "InvalidOptions", invalidQuery = "InvalidQuery", invalidValue = "InvalidValue"
        case noSegment = "NoSegment", noRoute = "NoRoute", tooBig = "TooBig"
        /// `--access-tokens` is set and the request carries no `access_token` (or `key`), or one not listed.
        case noToken = "NoToken", invalidToken = "InvalidToken"
        /// A refresh names a route this server no longer (or never) issued.
        case routeNotFound = "RouteNotFound"
        /// `/match`: no stretch of the trace matches a road; `/trip`: the stops cannot all reach each other; an
        /// option combination osrm-routed does not implement either.
        case noMatch = "NoMatch", noTrips = "NoTrips", notImplemented = "NotImplemented"
    }

    public var code: Code
    public var message: String
    /// The query parameter at fault, when one is (sent as the body's `parameter` field).
    public var parameter: String?

    public init(_ code: Code, _ message: String, parameter: String? = nil) {
        self.code = code; self.message = message; self.parameter = parameter
    }

    /// The OSRM code of a library error.
    package init(_ error: NavGraphError) {
        switch error.code {
        case .noSegment: self.init(.noSegment, error.message)
        case .noRoute: self.init(.noRoute, error.message)
        case .tooBig: self.init(.tooBig, error.message)
        default: self.init(.invalidValue, error.message)
        }
    }

    /// Whether the request failed for want of a valid access token (HTTP 401 in every dialect).
    package var isUnauthorized: Bool { code == .noToken || code == .invalidToken }

    /// The OSRM dialect's answer: HTTP 400 (401 without a valid token) with `code`, `message` and `parameter`.
    package var response: HTTPResponse {
        .json(.object([("code", .string(code.rawValue)), ("message", .string(message))] + (parameter.map { [("parameter", .string($0))] } ?? [])),
              status: isUnauthorized ? 401 : (code == .routeNotFound ? 404 : 400))
    }
}
