// extern "C" shim over libosmium: reads ways, node locations (and guidance node tags) and restriction relations into flat arrays.
#include "osmium_shim.h"

#include <osmium/io/any_input.hpp>
#include <osmium/osm/node.hpp>
#include <osmium/osm/relation.hpp>
#include <osmium/osm/way.hpp>
#include <osmium/thread/pool.hpp>

#include <zlib.h>

#include <climits>
#include <initializer_list>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Storage {
    std::vector<int64_t> way_ids;
    std::vector<uint64_t> way_node_offsets{0};
    std::vector<int64_t> way_node_refs;
    std::vector<uint64_t> way_tag_offsets{0};
    std::string way_tag_blob;

    std::vector<int64_t> node_ids;
    std::vector<int32_t> node_lat_e7;
    std::vector<int32_t> node_lon_e7;

    std::vector<int64_t> tagged_node_ids;
    std::vector<uint64_t> tagged_node_tag_offsets{0};
    std::string tagged_node_tag_blob;

    std::vector<int64_t> relation_ids;
    std::vector<uint64_t> relation_tag_offsets{0};
    std::string relation_tag_blob;
    std::vector<uint64_t> relation_member_offsets{0};
    std::vector<char> member_types;
    std::vector<int64_t> member_refs;
    std::vector<uint8_t> member_roles;
};

struct DataWithStorage {
    NavOSMData data;
    Storage storage;
};

void append_tags(const osmium::TagList &tags, std::string &blob) {
    for (const osmium::Tag &tag : tags) {
        blob.append(tag.key());
        blob.push_back('\0');
        blob.append(tag.value());
        blob.push_back('\0');
    }
}

bool has_value(const char *value, std::initializer_list<const char *> values) {
    if (value == nullptr) return false;
    for (const char *candidate : values) {
        if (std::strcmp(value, candidate) == 0) return true;
    }
    return false;
}

/// Whether a profile may use the way: any highway=* or route=ferry, and the ways without a highway that bicycle.lua
/// and foot.lua route on: railway or public_transport platforms, parkings, piers, movable bridges, and any way with
/// one of their other way keys (railway, amenity, man_made, public_transport, bridge, platform) that carries an
/// access tag, which may open it (a railway with bicycle=yes is ridden as a train; bicycle=yes on a man_made way).
bool is_routing_way(const osmium::Way &way) {
    const osmium::TagList &tags = way.tags();
    if (tags["highway"] != nullptr) return true;
    if (has_value(tags["route"], {"ferry"})) return true;
    const char *railway = tags["railway"], *public_transport = tags["public_transport"], *amenity = tags["amenity"];
    const char *man_made = tags["man_made"], *bridge = tags["bridge"];
    if (has_value(railway, {"platform"}) || has_value(public_transport, {"platform"}) ||
        has_value(amenity, {"parking", "parking_entrance"}) || has_value(man_made, {"pier"}) || has_value(bridge, {"movable"})) {
        return true;
    }
    if (railway == nullptr && public_transport == nullptr && amenity == nullptr && man_made == nullptr && bridge == nullptr &&
        tags["platform"] == nullptr) {
        return false;
    }
    for (const char *key : {"access", "vehicle", "bicycle", "foot", "escooter"}) {
        if (tags[key] != nullptr) return true;
    }
    return false;
}

/// Whether a node carries a tag guidance or the car profile keeps (traffic controls, barriers, motorway exits).
bool is_guidance_node(const osmium::Node &node) {
    const char *highway = node.tags()["highway"];
    if (highway != nullptr && (std::strcmp(highway, "traffic_signals") == 0 || std::strcmp(highway, "stop") == 0 ||
                               std::strcmp(highway, "give_way") == 0 || std::strcmp(highway, "motorway_junction") == 0)) return true;
    // Any barrier, and access tags on nodes: the car profile's barriers (CarProfile.barrier) and the active
    // profiles' (ActiveNodeBarriers).
    if (node.tags()["barrier"] != nullptr) return true;
    for (const char *key : {"motorcar", "motor_vehicle", "vehicle", "access", "bicycle", "foot", "escooter"}) {
        if (node.tags()[key] != nullptr) return true;
    }
    const char *railway = node.tags()["railway"];
    if (railway != nullptr && std::strcmp(railway, "level_crossing") == 0) return true;
    return node.tags()["junction:ref"] != nullptr;
}

/// Appends only the node tags guidance and the profiles' barriers read.
void append_guidance_tags(const osmium::TagList &tags, std::string &blob) {
    static const char *const keys[] = {"highway", "barrier", "junction:ref", "ref", "direction", "traffic_signals:direction", "railway",
                                       "motorcar", "motor_vehicle", "vehicle", "access", "bicycle", "foot", "escooter", "bollard", "kerb",
                                       "sensory", "maxheight"};
    for (const char *key : keys) {
        const char *value = tags[key];
        if (value == nullptr) continue;
        blob.append(key);
        blob.push_back('\0');
        blob.append(value);
        blob.push_back('\0');
    }
}

bool is_restriction(const osmium::Relation &relation) {
    const char *type = relation.tags()["type"];
    return type != nullptr && std::strcmp(type, "restriction") == 0;
}

uint8_t role_code(const char *role) {
    if (std::strcmp(role, "from") == 0) return NAV_ROLE_FROM;
    if (std::strcmp(role, "via") == 0) return NAV_ROLE_VIA;
    if (std::strcmp(role, "to") == 0) return NAV_ROLE_TO;
    return NAV_ROLE_OTHER;
}

char *copy_error(const std::string &message) {
    char *out = static_cast<char *>(std::malloc(message.size() + 1));
    if (out != nullptr) std::memcpy(out, message.c_str(), message.size() + 1);
    return out;
}

/// PBF blocks are decoded on this many pool threads (libosmium's default pool has one on a 2-core machine, so the
/// main thread, which looks the nodes up, waited for it).
constexpr int decode_threads = 2;

void read_ways_and_relations(const char *path, DataWithStorage &result, osmium::thread::Pool &pool) {
    Storage &s = result.storage;
    osmium::io::Reader reader{osmium::io::File{path},
                              osmium::osm_entity_bits::way | osmium::osm_entity_bits::relation, pool};
    while (osmium::memory::Buffer buffer = reader.read()) {
        for (const auto &item : buffer) {
            if (item.type() == osmium::item_type::way) {
                result.data.total_ways++;
                const auto &way = static_cast<const osmium::Way &>(item);
                if (!is_routing_way(way)) continue;
                s.way_ids.push_back(way.id());
                for (const osmium::NodeRef &ref : way.nodes()) s.way_node_refs.push_back(ref.ref());
                s.way_node_offsets.push_back(s.way_node_refs.size());
                append_tags(way.tags(), s.way_tag_blob);
                s.way_tag_offsets.push_back(s.way_tag_blob.size());
            } else if (item.type() == osmium::item_type::relation) {
                result.data.total_relations++;
                const auto &relation = static_cast<const osmium::Relation &>(item);
                if (!is_restriction(relation)) continue;
                s.relation_ids.push_back(relation.id());
                append_tags(relation.tags(), s.relation_tag_blob);
                s.relation_tag_offsets.push_back(s.relation_tag_blob.size());
                for (const osmium::RelationMember &member : relation.members()) {
                    char type = 'r';
                    if (member.type() == osmium::item_type::node) type = 'n';
                    else if (member.type() == osmium::item_type::way) type = 'w';
                    s.member_types.push_back(type);
                    s.member_refs.push_back(member.ref());
                    s.member_roles.push_back(role_code(member.role()));
                }
                s.relation_member_offsets.push_back(s.member_refs.size());
            }
        }
    }
    reader.close();
}

/// The first element of the sorted `ids` not below `id`, searched from `from` on (galloping: files sorted by id ask
/// for the next few entries), or from the start when `id` lies before `from`.
std::vector<int64_t>::const_iterator find_from(const std::vector<int64_t> &ids, std::vector<int64_t>::const_iterator from, int64_t id) {
    if (from != ids.begin() && *(from - 1) >= id) return std::lower_bound(ids.begin(), from, id);
    size_t step = 1;
    auto low = from;
    while (static_cast<size_t>(ids.end() - low) > step && *(low + static_cast<std::ptrdiff_t>(step)) < id) {
        low += static_cast<std::ptrdiff_t>(step);
        step *= 2;
    }
    const auto high = static_cast<size_t>(ids.end() - low) > step ? low + static_cast<std::ptrdiff_t>(step) + 1 : ids.end();
    return std::lower_bound(low, high, id);
}

void read_node_locations(const char *path, DataWithStorage &result, osmium::thread::Pool &pool) {
    Storage &s = result.storage;
    std::vector<int64_t> needed(s.way_node_refs);
    std::sort(needed.begin(), needed.end());
    needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
    needed.shrink_to_fit();
    std::vector<int32_t> lat(needed.size(), 0), lon(needed.size(), 0);
    std::vector<uint8_t> found(needed.size(), 0);
    std::vector<std::pair<int64_t, std::string>> tagged;

    osmium::io::Reader reader{osmium::io::File{path}, osmium::osm_entity_bits::node, pool};
    std::vector<int64_t>::const_iterator cursor = needed.begin();
    while (osmium::memory::Buffer buffer = reader.read()) {
        for (const auto &node : buffer.select<osmium::Node>()) {
            result.data.total_nodes++;
            auto it = find_from(needed, cursor, node.id());
            cursor = it;
            if (it == needed.end() || *it != node.id()) continue;
            const osmium::Location location = node.location();
            if (!location.valid()) continue;
            const size_t index = static_cast<size_t>(it - needed.begin());
            lat[index] = location.y();
            lon[index] = location.x();
            found[index] = 1;
            if (is_guidance_node(node)) {
                std::string tags;
                append_guidance_tags(node.tags(), tags);
                tagged.emplace_back(node.id(), std::move(tags));
            }
        }
    }
    reader.close();

    // Keep the located nodes in place (no second copy), then return the spare capacity.
    size_t kept = 0;
    for (size_t i = 0; i < needed.size(); ++i) {
        if (!found[i]) continue;
        needed[kept] = needed[i];
        lat[kept] = lat[i];
        lon[kept] = lon[i];
        ++kept;
    }
    const size_t missing = needed.size() - kept;
    std::vector<uint8_t>().swap(found);
    needed.resize(kept);
    lat.resize(kept);
    lon.resize(kept);
    needed.shrink_to_fit();
    lat.shrink_to_fit();
    lon.shrink_to_fit();
    s.node_ids = std::move(needed);
    s.node_lat_e7 = std::move(lat);
    s.node_lon_e7 = std::move(lon);
    result.data.missing_node_refs = missing;
    std::sort(tagged.begin(), tagged.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const auto &[id, tags] : tagged) {
        s.tagged_node_ids.push_back(id);
        s.tagged_node_tag_blob.append(tags);
        s.tagged_node_tag_offsets.push_back(s.tagged_node_tag_blob.size());
    }
}

/// Returns the spare capacity push_back growth left in the way, tag and relation arrays (up to half of each).
void shrink(Storage &s) {
    s.way_ids.shrink_to_fit();
    s.way_node_offsets.shrink_to_fit();
    s.way_node_refs.shrink_to_fit();
    s.way_tag_offsets.shrink_to_fit();
    s.way_tag_blob.shrink_to_fit();
    s.tagged_node_ids.shrink_to_fit();
    s.tagged_node_tag_offsets.shrink_to_fit();
    s.tagged_node_tag_blob.shrink_to_fit();
    s.relation_ids.shrink_to_fit();
    s.relation_tag_offsets.shrink_to_fit();
    s.relation_tag_blob.shrink_to_fit();
    s.relation_member_offsets.shrink_to_fit();
    s.member_types.shrink_to_fit();
    s.member_refs.shrink_to_fit();
    s.member_roles.shrink_to_fit();
}

void publish(DataWithStorage &result) {
    Storage &s = result.storage;
    NavOSMData &d = result.data;
    d.way_count = s.way_ids.size();
    d.way_ids = s.way_ids.data();
    d.way_node_offsets = s.way_node_offsets.data();
    d.way_node_refs = s.way_node_refs.data();
    d.way_tag_offsets = s.way_tag_offsets.data();
    d.way_tag_blob = s.way_tag_blob.data();
    d.node_count = s.node_ids.size();
    d.node_ids = s.node_ids.data();
    d.node_lat_e7 = s.node_lat_e7.data();
    d.node_lon_e7 = s.node_lon_e7.data();
    d.tagged_node_count = s.tagged_node_ids.size();
    d.tagged_node_ids = s.tagged_node_ids.data();
    d.tagged_node_tag_offsets = s.tagged_node_tag_offsets.data();
    d.tagged_node_tag_blob = s.tagged_node_tag_blob.data();
    d.relation_count = s.relation_ids.size();
    d.relation_ids = s.relation_ids.data();
    d.relation_tag_offsets = s.relation_tag_offsets.data();
    d.relation_tag_blob = s.relation_tag_blob.data();
    d.relation_member_offsets = s.relation_member_offsets.data();
    d.member_types = s.member_types.data();
    d.member_refs = s.member_refs.data();
    d.member_roles = s.member_roles.data();
}

/// Descriptors of this process open on the file `target` (same device and inode).
std::vector<int> descriptors_on(const struct stat &target) {
    std::vector<int> found;
    DIR *directory = opendir("/proc/self/fd");
    if (directory == nullptr) return found;
    const int own = dirfd(directory);
    while (const dirent *entry = readdir(directory)) {
        char *end = nullptr;
        const long fd = std::strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end != '\0' || fd == own) continue;
        struct stat info {};
        if (fstat(static_cast<int>(fd), &info) == 0 && info.st_dev == target.st_dev && info.st_ino == target.st_ino) {
            found.push_back(static_cast<int>(fd));
        }
    }
    closedir(directory);
    return found;
}

/// Whether descriptor `fd` is open on the file named `path` (as /proc/self/fd names it; also once it is unlinked).
bool descriptor_names(int fd, const std::string &path) {
    char link[PATH_MAX + 16];
    const std::string proc = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t length = ::readlink(proc.c_str(), link, sizeof link - 1);
    if (length <= 0) return false;
    const std::string name(link, static_cast<size_t>(length));
    return name == path || name == path + " (deleted)";
}

/// libosmium 2.19's Reader never closes the descriptor of a PBF input (it hands it to the parser thread and its
/// dummy decompressor owns nothing), so every read leaked two descriptors: the osm-pbf fuzzer ran out of them
/// after about 13,000 imports. This closes, when the reads are over, the descriptors on the input that appeared
/// while they ran. Reads are serialized (nav_osm_read's lock), so no other reader's descriptor is among them; a
/// descriptor must also still name the input, since another thread's new file (an import's output, say) may
/// reuse the inode number of an input that was replaced and closed meanwhile.
class InputDescriptorSweep {
public:
    explicit InputDescriptorSweep(const char *path) : m_valid(::stat(path, &m_target) == 0) {
        if (!m_valid) return;
        char resolved[PATH_MAX];
        m_path = ::realpath(path, resolved) != nullptr ? std::string(resolved) : std::string(path);
        m_before = descriptors_on(m_target);
    }
    ~InputDescriptorSweep() {
        if (!m_valid) return;
        for (const int fd : descriptors_on(m_target)) {
            if (std::find(m_before.begin(), m_before.end(), fd) == m_before.end() && descriptor_names(fd, m_path)) ::close(fd);
        }
    }
    InputDescriptorSweep(const InputDescriptorSweep &) = delete;
    InputDescriptorSweep &operator=(const InputDescriptorSweep &) = delete;
private:
    struct stat m_target {};
    bool m_valid;
    std::string m_path;
    std::vector<int> m_before;
};

std::mutex read_lock;

} // namespace

extern "C" NavOSMData *nav_osm_read(const char *path, char **error) {
    if (error != nullptr) *error = nullptr;
    DataWithStorage *result = nullptr;
    const std::lock_guard<std::mutex> serialized(read_lock);
    const InputDescriptorSweep sweep(path);
    try {
        result = new DataWithStorage{};
        std::memset(&result->data, 0, sizeof(NavOSMData));
        result->data.owner = result;
        osmium::thread::Pool pool{decode_threads};
        read_ways_and_relations(path, *result, pool);
        shrink(result->storage);
        read_node_locations(path, *result, pool);
        publish(*result);
        return &result->data;
    } catch (const std::exception &e) {
        delete result;
        if (error != nullptr) *error = copy_error(e.what());
    } catch (...) {
        delete result;
        if (error != nullptr) *error = copy_error("unknown error while reading OSM data");
    }
    return nullptr;
}

extern "C" void nav_osm_free(NavOSMData *data) {
    if (data == nullptr) return;
    delete static_cast<DataWithStorage *>(data->owner);
}

extern "C" void nav_free_error(char *error) { std::free(error); }

extern "C" uint32_t nav_crc32(uint32_t crc, const void *bytes, size_t count) {
    const auto *cursor = static_cast<const Bytef *>(bytes);
    uLong value = crc;
    while (count > 0) {
        const uInt chunk = count > (1u << 30) ? (1u << 30) : static_cast<uInt>(count);
        value = crc32(value, cursor, chunk);
        cursor += chunk;
        count -= chunk;
    }
    return static_cast<uint32_t>(value);
}

extern "C" char *nav_read_maybe_gzipped(const char *path, size_t *length, char **error) {
    if (error != nullptr) *error = nullptr;
    *length = 0;
    gzFile file = gzopen(path, "rb");
    if (file == nullptr) {
        if (error != nullptr) *error = copy_error("cannot open file");
        return nullptr;
    }
    std::string content;
    char chunk[1 << 16];
    while (true) {
        const int read = gzread(file, chunk, sizeof chunk);
        if (read < 0) {
            int code = 0;
            const char *message = gzerror(file, &code);
            if (error != nullptr) *error = copy_error(message != nullptr ? message : "read error");
            gzclose(file);
            return nullptr;
        }
        if (read == 0) break;
        content.append(chunk, static_cast<size_t>(read));
    }
    gzclose(file);
    char *out = static_cast<char *>(std::malloc(content.size() + 1));
    if (out == nullptr) {
        if (error != nullptr) *error = copy_error("out of memory");
        return nullptr;
    }
    std::memcpy(out, content.data(), content.size());
    out[content.size()] = '\0';
    *length = content.size();
    return out;
}
