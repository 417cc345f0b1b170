import COsmiumShim
import Foundation
import NavGraphCore

/// What libosmium read from an OSM file, viewed in place through the shim's flat arrays.
public final class OSMSource {
    private let data: UnsafeMutablePointer<NavOSMData>
    public let path: String

    /// Reads the file in two passes (ways and relations, then node locations), so unsorted files work.
    public init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw NavGraphError("\(path): no such file")
        }
        var errorPointer: UnsafeMutablePointer<CChar>?
        guard let read = nav_osm_read(path, &errorPointer) else {
            let message = errorPointer.map { String(cString: $0) } ?? "unknown error"
            nav_free_error(errorPointer)
            throw NavGraphError("\(path): not a readable OSM file (\(message))")
        }
        data = read
        self.path = path
    }

    deinit { nav_osm_free(data) }

    public var wayCount: Int { data.pointee.way_count }
    public var nodeCount: Int { data.pointee.node_count }
    public var relationCount: Int { data.pointee.relation_count }
    public var missingNodeRefs: Int { data.pointee.missing_node_refs }
    public var totals: (nodes: UInt64, ways: UInt64, relations: UInt64) {
        (data.pointee.total_nodes, data.pointee.total_ways, data.pointee.total_relations)
    }

    public func wayID(_ way: Int) -> Int64 { data.pointee.way_ids[way] }

    public func wayNodeRefs(_ way: Int) -> UnsafeBufferPointer<Int64> {
        let first = Int(data.pointee.way_node_offsets[way]), end = Int(data.pointee.way_node_offsets[way + 1])
        return UnsafeBufferPointer(start: data.pointee.way_node_refs + first, count: end - first)
    }

    public func wayTags(_ way: Int) -> OSMTags {
        tags(blob: data.pointee.way_tag_blob, from: data.pointee.way_tag_offsets[way], to: data.pointee.way_tag_offsets[way + 1])
    }

    public func relationID(_ relation: Int) -> Int64 { data.pointee.relation_ids[relation] }

    public func relationTags(_ relation: Int) -> OSMTags {
        tags(blob: data.pointee.relation_tag_blob, from: data.pointee.relation_tag_offsets[relation],
                  to: data.pointee.relation_tag_offsets[relation + 1])
    }

    /// Members of a relation as (type 'n'/'w'/'r', ref, role).
    public func relationMembers(_ relation: Int) -> [(type: Character, ref: Int64, role: UInt8)] {
        let first = Int(data.pointee.relation_member_offsets[relation]), end = Int(data.pointee.relation_member_offsets[relation + 1])
        return (first..<end).map { index in
            (Character(UnicodeScalar(UInt8(bitPattern: data.pointee.member_types[index]))),
             data.pointee.member_refs[index], data.pointee.member_roles[index])
        }
    }

    /// Index of an OSM node among the located nodes, or nil if the file lacks it.
    @inline(__always)
    public func nodeIndex(of id: Int64) -> Int? {
        var low = 0, high = data.pointee.node_count
        guard let ids = data.pointee.node_ids else { return nil }
        while low < high {
            let middle = (low + high) >> 1
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < data.pointee.node_count && ids[low] == id ? low : nil
    }

    public func nodeID(_ index: Int) -> Int64 { data.pointee.node_ids[index] }

    /// Way-referenced nodes with guidance tags (signals, stop, give way, toll booth, motorway junction), sorted by id.
    public var taggedNodeCount: Int { data.pointee.tagged_node_count }
    public func taggedNodeID(_ index: Int) -> Int64 { data.pointee.tagged_node_ids[index] }
    public func taggedNodeTags(_ index: Int) -> OSMTags {
        tags(blob: data.pointee.tagged_node_tag_blob, from: data.pointee.tagged_node_tag_offsets[index],
                  to: data.pointee.tagged_node_tag_offsets[index + 1])
    }
    public func nodeLatE7(_ index: Int) -> Int32 { data.pointee.node_lat_e7[index] }
    public func nodeLonE7(_ index: Int) -> Int32 { data.pointee.node_lon_e7[index] }

    private func tags(blob: UnsafePointer<CChar>?, from: UInt64, to: UInt64) -> OSMTags {
        guard let blob else { return [:] }
        return OSMTags(blob: blob, from: Int(from), to: Int(to), owner: self)
    }
}

/// CRC-32 as zlib computes it.
public func crc32(_ buffer: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    nav_crc32(crc, buffer.baseAddress, buffer.count)
}
