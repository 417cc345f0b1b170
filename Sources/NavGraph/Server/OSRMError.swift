/// An OSRM API error: one of osrm-routed's codes and a message naming the offending value; always HTTP 400.
public struct OSRMError: Error, Sendable {
    /// The `code` field of osrm-routed's error responses.
    public enum Code: String, Sendable, CaseIterable {
        case invalidUrl = "InvalidUrl", invalidService = "InvalidService", invalidVersion = "InvalidVersion"
        case invalidOptions = "InvalidOptions", invalidQuery = "InvalidQuery", invalidValue = "InvalidValue"
        case noSegment = "NoSegment", noRoute = "NoRoute", tooBig = "TooBig"
    }

    public var code: Code
    public var message: String
    /// The query parameter at fault, when one is (sent as the body's `parameter` field).
    public var parameter: String?

    public init(_ code: Code, _ message: String, parameter: String? = nil) {
        self.code = code; self.message = message; self.parameter = parameter
    }

    /// The OSRM code of a library error.
    init(_ error: NavGraphError) {
        switch error.code {
        case .noSegment: self.init(.noSegment, error.message)
        case .noRoute: self.init(.noRoute, error.message)
        case .tooBig: self.init(.tooBig, error.message)
        default: self.init(.invalidValue, error.message)
        }
    }

    var response: HTTPResponse {
        .json(.object([("code", .string(code.rawValue)), ("message", .string(message))] + (parameter.map { [("parameter", .string($0))] } ?? [])),
              status: 400)
    }
}
