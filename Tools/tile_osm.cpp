// tile_osm.cpp - the same tiling as Tools/tile_osm.py (read its docstring), in C++ on libosmium: the Python tool
// writes about 50,000 objects a second, so a 13x13 milan tile (44M nodes) would take hours; this one takes seconds.
//
// Build: g++ -O2 -std=c++17 -o Benchmarks/work/bin/tile_osm Tools/tile_osm.cpp -lz -lbz2 -lexpat -lpthread
// Usage: tile_osm SRC.osm.pbf K OUT.osm.pbf [--gap-deg 0.01] [--links 3]
// Same node, way and relation ids, locations, tags and stitch motorways as tile_osm.py (object versions, timestamps
// and users are copied too; the stitch ways carry none, as in the Python tool).
#include <osmium/builder/osm_object_builder.hpp>
#include <osmium/io/any_input.hpp>
#include <osmium/io/any_output.hpp>
#include <osmium/osm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

const std::set<std::string> kCar = {"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified",
                                    "residential", "service", "living_street", "motorway_link", "trunk_link",
                                    "primary_link", "secondary_link", "tertiary_link"};
const std::set<std::string> kMajor = {"trunk", "primary", "secondary", "tertiary"};

struct RoadUse {
    int uses = 0;
    int rank = 1;
};

struct Scan {
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    int64_t max_abs = 0;
    bool sorted = true;
    std::unordered_map<int64_t, RoadUse> road_use;
    std::unordered_map<int64_t, std::pair<double, double>> locs;
    std::vector<osmium::memory::Buffer> buffers;  // the whole source, kept for the copies
};

bool tag_is(const osmium::TagList &tags, const char *key, const std::set<std::string> &values) {
    const char *value = tags[key];
    return value != nullptr && values.count(value) > 0;
}

Scan scan(const std::string &src) {
    Scan s;
    osmium::io::Reader reader{src};
    int last_type = -1;
    int64_t last_id = 0;
    while (osmium::memory::Buffer buffer = reader.read()) {
        for (const auto &object : buffer.select<osmium::OSMObject>()) {
            const int type = object.type() == osmium::item_type::node ? 0 : object.type() == osmium::item_type::way ? 1 : 2;
            if (!(type > last_type || (type == last_type && object.id() > last_id))) s.sorted = false;
            last_type = type;
            last_id = object.id();
            s.max_abs = std::max<int64_t>(s.max_abs, std::llabs(object.id()));
            if (type == 0) {
                const auto &node = static_cast<const osmium::Node &>(object);
                if (node.location().valid()) {
                    const double lon = node.location().lon(), lat = node.location().lat();
                    s.x0 = std::min(s.x0, lon); s.x1 = std::max(s.x1, lon);
                    s.y0 = std::min(s.y0, lat); s.y1 = std::max(s.y1, lat);
                    s.locs[node.id()] = {lon, lat};
                }
            } else if (type == 1) {
                const auto &way = static_cast<const osmium::Way &>(object);
                const char *access = way.tags()["access"];
                const char *area = way.tags()["area"];
                if (tag_is(way.tags(), "highway", kCar) &&
                    !(access != nullptr && (std::strcmp(access, "no") == 0 || std::strcmp(access, "private") == 0)) &&
                    !(area != nullptr && std::strcmp(area, "yes") == 0)) {
                    const int rank = tag_is(way.tags(), "highway", kMajor) ? 0 : 1;
                    std::set<int64_t> refs;
                    for (const auto &ref : way.nodes()) refs.insert(ref.ref());
                    for (int64_t ref : refs) {
                        auto found = s.road_use.find(ref);
                        if (found == s.road_use.end()) { s.road_use[ref] = RoadUse{1, rank}; continue; }
                        found->second.uses += 1;
                        found->second.rank = std::min(found->second.rank, rank);
                    }
                }
            }
        }
        s.buffers.push_back(std::move(buffer));
    }
    reader.close();
    return s;
}

/// For each of `links` bands along one bbox side, the outermost road junction node id (as tile_osm.py).
std::vector<int64_t> pick_border_nodes(const Scan &s, const std::string &side, int links) {
    const bool horizontal = side == "east" || side == "west";
    struct Road { int64_t id; RoadUse use; double lon, lat; };
    std::vector<Road> road;
    for (const auto &[id, use] : s.road_use) {
        auto loc = s.locs.find(id);
        if (loc != s.locs.end()) road.push_back({id, use, loc->second.first, loc->second.second});
    }
    if (road.empty()) return {};
    double lo = INFINITY, hi = -INFINITY;
    for (const auto &r : road) { const double along = horizontal ? r.lat : r.lon; lo = std::min(lo, along); hi = std::max(hi, along); }
    struct Best { bool set = false; bool junction = false, major = false; double outward = 0; int64_t negId = 0; int64_t id = 0; };
    std::vector<Best> best(links);
    for (const auto &r : road) {
        const double along = horizontal ? r.lat : r.lon;
        const int band = hi > lo ? std::min(links - 1, static_cast<int>((along - lo) / (hi - lo) * links)) : 0;
        const double outward = side == "east" ? r.lon : side == "west" ? -r.lon : side == "north" ? r.lat : -r.lat;
        Best candidate{true, r.use.uses >= 2, r.use.rank == 0, outward, -r.id, r.id};
        Best &current = best[band];
        const bool better = !current.set ||
            std::tie(candidate.junction, candidate.major, candidate.outward, candidate.negId) >
            std::tie(current.junction, current.major, current.outward, current.negId);
        if (better) current = candidate;
    }
    std::vector<int64_t> result;
    for (const auto &b : best) if (b.set) result.push_back(b.id);
    return result;
}

template <typename T>
void flush_if_full(osmium::memory::Buffer &out, osmium::io::Writer &writer) {
    if (out.committed() > 8 * 1024 * 1024) {
        writer(std::move(out));
        out = osmium::memory::Buffer{16 * 1024 * 1024, osmium::memory::Buffer::auto_grow::yes};
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: tile_osm SRC.osm.pbf K OUT.osm.pbf [--gap-deg 0.01] [--links 3]\n");
        return 2;
    }
    const std::string src = argv[1], out_path = argv[3];
    const int k = std::atoi(argv[2]);
    double gap = 0.01;
    int links = 3;
    for (int i = 4; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--gap-deg") == 0) gap = std::atof(argv[i + 1]);
        else if (std::strcmp(argv[i], "--links") == 0) links = std::atoi(argv[i + 1]);
    }
    if (k < 1 || links < 1) { std::fprintf(stderr, "tile_osm: K and --links must be >= 1\n"); return 2; }
    Scan s = scan(src);
    if (!s.sorted) { std::fprintf(stderr, "tile_osm: SRC is not sorted by type then id; run `osmium sort` first\n"); return 1; }
    const double dx = (s.x1 - s.x0) + gap, dy = (s.y1 - s.y0) + gap;
    const int64_t stride = 2 * static_cast<int64_t>(std::llround(std::pow(10.0, std::to_string(s.max_abs).size())));
    if (static_cast<double>(k) * k + 1 >= 9.2e18 / static_cast<double>(stride)) { std::fprintf(stderr, "tile_osm: ids would overflow int64\n"); return 1; }
    std::fprintf(stderr, "tile_osm: %s bbox (%.7f, %.7f, %.7f, %.7f), %dx%d tiles, id stride %lld, shift %.6f x %.6f deg\n",
                 src.c_str(), s.x0, s.y0, s.x1, s.y1, k, k, static_cast<long long>(stride), dx, dy);

    osmium::io::Header header;
    header.set("generator", "navgraph Tools/tile_osm.cpp");
    header.set("sorting", "Type_then_ID");
    header.add_box(osmium::Box{osmium::Location{s.x0, s.y0}, osmium::Location{s.x1 + (k - 1) * dx, s.y1 + (k - 1) * dy}});
    osmium::io::Writer writer{osmium::io::File{out_path}, header, osmium::io::overwrite::allow};
    osmium::memory::Buffer out{16 * 1024 * 1024, osmium::memory::Buffer::auto_grow::yes};
    long long nodes = 0, ways = 0, relations = 0, stitches = 0;

    for (int t = 0; t < k * k; ++t) {
        const int r = t / k, c = t % k;
        const int64_t off = t * stride;
        const double sx = c * dx, sy = r * dy;
        for (const auto &buffer : s.buffers) {
            for (const auto &node : buffer.select<osmium::Node>()) {
                auto &copy = out.add_item(node);
                out.commit();
                copy.set_id(node.id() + off);
                if (node.location().valid()) copy.set_location(osmium::Location{node.location().lon() + sx, node.location().lat() + sy});
                ++nodes;
                flush_if_full<osmium::Node>(out, writer);
            }
        }
    }
    for (int t = 0; t < k * k; ++t) {
        const int64_t off = t * stride;
        for (const auto &buffer : s.buffers) {
            for (const auto &way : buffer.select<osmium::Way>()) {
                auto &copy = out.add_item(way);
                out.commit();
                copy.set_id(way.id() + off);
                for (auto &ref : copy.nodes()) ref.set_ref(ref.ref() + off);
                ++ways;
                flush_if_full<osmium::Way>(out, writer);
            }
        }
    }
    const auto east = pick_border_nodes(s, "east", links), west = pick_border_nodes(s, "west", links);
    const auto north = pick_border_nodes(s, "north", links), south = pick_border_nodes(s, "south", links);
    int64_t sid = static_cast<int64_t>(k) * k * stride;
    for (int t = 0; t < k * k; ++t) {
        const int r = t / k, c = t % k;
        std::vector<std::pair<int64_t, int64_t>> pairs;
        if (c + 1 < k) for (size_t i = 0; i < std::min(east.size(), west.size()); ++i) pairs.emplace_back(east[i] + t * stride, west[i] + (t + 1) * stride);
        if (r + 1 < k) for (size_t i = 0; i < std::min(north.size(), south.size()); ++i) pairs.emplace_back(north[i] + t * stride, south[i] + (t + k) * stride);
        for (const auto &[a, b] : pairs) {
            ++sid;
            {
                osmium::builder::WayBuilder builder{out};
                builder.set_id(sid);
                {
                    osmium::builder::WayNodeListBuilder refs{builder};
                    refs.add_node_ref(a);
                    refs.add_node_ref(b);
                }
                osmium::builder::TagListBuilder tags{builder};
                const std::string ref = "TILE" + std::to_string(t);
                tags.add_tag("highway", "motorway");
                tags.add_tag("oneway", "no");
                tags.add_tag("ref", ref);
                tags.add_tag("maxspeed", "110");
                tags.add_tag("note", "tile_osm.py stitch");
            }
            out.commit();
            ++stitches;
        }
    }
    for (int t = 0; t < k * k; ++t) {
        const int64_t off = t * stride;
        for (const auto &buffer : s.buffers) {
            for (const auto &relation : buffer.select<osmium::Relation>()) {
                auto &copy = out.add_item(relation);
                out.commit();
                copy.set_id(relation.id() + off);
                for (auto &member : copy.members()) member.set_ref(member.ref() + off);
                ++relations;
                flush_if_full<osmium::Relation>(out, writer);
            }
        }
    }
    writer(std::move(out));
    writer.close();
    std::fprintf(stderr, "tile_osm: wrote %lld nodes, %lld ways (+%lld stitch motorways), %lld relations to %s\n",
                 nodes, ways, stitches, relations, out_path.c_str());
    return 0;
}
