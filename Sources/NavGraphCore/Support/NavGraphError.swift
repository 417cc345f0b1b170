/// An error of the library: a machine-readable code and a message naming the problem and the offending value.
public struct NavGraphError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is; servers map it to their status codes, the CLI to its exit status.
    public enum Code: String, Sendable, CaseIterable {
        /// A request or file value is malformed or out of range.
        case invalidInput
        /// A waypoint is too far from any usable road.
        case noSegment
        /// The waypoints are not connected under the request's options.
        case noRoute
        /// A request exceeds a configured limit (coordinates, table size, body size).
        case tooBig
        /// A file is missing, unreadable, damaged, or of another format version.
        case badFile
        /// Writing a result failed (disk full, permissions).
        case ioFailure
    }

    public let code: Code
    public let message: String
    public init(_ message: String, code: Code = .invalidInput) { self.code = code; self.message = message }
    public var description: String { message }
}
