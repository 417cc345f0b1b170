/// Interns strings (names and refs) into one UTF-8 blob with offsets; id 0 is the empty string.
public struct StringTable {
    public private(set) var offsets: ContiguousArray<UInt32> = [0, 0]
    public private(set) var bytes: ContiguousArray<UInt8> = []
    private var ids: [String: UInt32] = ["": 0]

    public init() {}

    public mutating func intern(_ string: String) -> UInt32 {
        if let id = ids[string] { return id }
        let id = UInt32(offsets.count - 1)
        bytes.append(contentsOf: string.utf8)
        offsets.append(UInt32(bytes.count))
        ids[string] = id
        return id
    }
}
