import Foundation

/// Whole files written atomically (see AtomicFileOutput): the CLI's GeoJSON, style, matrix and isochrone outputs.
public enum AtomicFile {
    /// Writes `data` to `path` so that the path holds either its old content or all of `data`. Errors name the path
    /// and the system's reason (permission denied, no space left on device, file too large).
    public static func write(_ data: Data, to path: String) throws {
        var output = try AtomicFileOutput(path: path)
        do {
            try output.write(data)
        } catch {
            output.abandon()
            throw error
        }
        try output.commit()
    }
}
