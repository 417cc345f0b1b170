#ifndef NAVGRAPH_OSMIUM_SHIM_H
#define NAVGRAPH_OSMIUM_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Member roles of a turn-restriction relation.
enum { NAV_ROLE_OTHER = 0, NAV_ROLE_FROM = 1, NAV_ROLE_VIA = 2, NAV_ROLE_TO = 3 };

/// Flat arrays of what the importer needs from an OSM file. Owned by the shim; free with nav_osm_free.
typedef struct NavOSMData {
    /* Ways a profile may use: highway=*, route=ferry, and the platforms, parkings, piers and other ways the active
       profiles route on without a highway tag (see is_routing_way). */
    size_t way_count;
    const int64_t *way_ids;
    const uint64_t *way_node_offsets;   /* way_count + 1 entries into way_node_refs */
    const int64_t *way_node_refs;
    const uint64_t *way_tag_offsets;    /* way_count + 1 byte offsets into way_tag_blob */
    const char *way_tag_blob;           /* "key\0value\0key\0value\0..." per way */

    /* Locations of the nodes those ways reference that the file holds, sorted by id. */
    size_t node_count;
    const int64_t *node_ids;
    const int32_t *node_lat_e7;
    const int32_t *node_lon_e7;
    size_t missing_node_refs;           /* distinct referenced node ids absent from the file */

    /* Of those nodes, the ones guidance or a profile's barriers care about (highway=traffic_signals|stop|give_way|
       motorway_junction, railway=level_crossing, a junction:ref, any barrier=*, access tags), sorted by id, with only
       the tags those read. */
    size_t tagged_node_count;
    const int64_t *tagged_node_ids;
    const uint64_t *tagged_node_tag_offsets;   /* tagged_node_count + 1 byte offsets into tagged_node_tag_blob */
    const char *tagged_node_tag_blob;          /* "key\0value\0..." per node */

    /* Relations tagged type=restriction. */
    size_t relation_count;
    const int64_t *relation_ids;
    const uint64_t *relation_tag_offsets;
    const char *relation_tag_blob;
    const uint64_t *relation_member_offsets;
    const char *member_types;           /* 'n', 'w' or 'r' */
    const int64_t *member_refs;
    const uint8_t *member_roles;        /* NAV_ROLE_* */

    /* Totals seen while reading, for reports. */
    uint64_t total_nodes;
    uint64_t total_ways;
    uint64_t total_relations;

    void *owner;                        /* private: the C++ storage behind these arrays */
} NavOSMData;

/// Reads an OSM file (.osm.pbf, .osm, .osm.gz, .osm.bz2) in two passes, so unsorted input is fine.
/// Returns NULL and sets *error (free with nav_free_error) on failure.
NavOSMData *nav_osm_read(const char *path, char **error);

/// Frees what nav_osm_read returned.
void nav_osm_free(NavOSMData *data);

/// Frees an error string.
void nav_free_error(char *error);

/// Reads a whole file, gunzipping it if it is gzip-compressed. Returns NULL and sets *error on failure;
/// free the result with nav_free_error.
char *nav_read_maybe_gzipped(const char *path, size_t *length, char **error);

/// CRC-32 (zlib) of a byte range, continuing from crc.
uint32_t nav_crc32(uint32_t crc, const void *bytes, size_t count);

#ifdef __cplusplus
}
#endif

#endif
