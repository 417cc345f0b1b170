/// The navgraph release, as `navgraph --version` prints it (next to `GraphFileFormat.version`).
public enum NavGraphVersion {
    public static let string = "0.1.0"
}
