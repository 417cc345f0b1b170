#!/usr/bin/env python3
"""profile_phases.py - groups `perf record -g` samples of `navgraph serve` (or navgraph-bench) into request phases.

Usage: perf script -F comm,tid,ip,sym,dso -i perf.data | swift demangle --simplified | profile_phases.py [--top N]

A sample whose leaf is an allocator or reference-counting symbol counts as "malloc/retain/release" (kernel page
faults too) in the share column, and to its caller's phase in the last column; any other sample goes to the phase of its innermost frame that names one (the first pattern list
below that matches, walking from the leaf towards the root). Prints a Markdown table of phase shares and the top
self-time symbols.
"""
import collections
import re
import sys

ALLOC = re.compile(r"^(malloc|free|cfree|realloc|calloc|_int_malloc|_int_free|_int_realloc|malloc_consolidate|unlink_chunk|"
                   r"tcache_\w+|__libc_(malloc|free|calloc|realloc)|swift_(retain|release|allocObject|bridgeObjectRetain|"
                   r"bridgeObjectRelease|deallocClassInstance|isUniquelyReferenced\w*|arrayDestroy|arrayInitWithCopy|slowAlloc|"
                   r"slowDealloc|unknownObjectRetain|unknownObjectRelease|retain_n|release_n|deallocObject)|_swift_release_dealloc|"
                   r"swift::RefCounts.*|tuple_destroy.*|.*__deallocating_deinit|_ContiguousArrayStorage.*deinit|"
                   r"outlined (copy|destroy|retain|release).*)$")
PHASES = [
    ("instruction/voice/banner text", r"PhrasebookNarrator|SSML\.|SpokenDistance|TextPieces|TextArena|CompiledTemplate|RouteText|Narrator|"
                                      r"voiceInstructions|bannerInstructions|Phrasebook"),
    ("JSON bytes (JSONStream: quoting, numbers, polyline, buffer)", r"JSONStream\.|JSON\.(write|data|bytes|quote|format)|Double\.write|"
                                                                   r"_Float64ToASCII|Double\.description|Polyline\.write|WrittenBytes"),
    ("body reshaping (update/keepOnly/remove)", r"JSON\.(update|keepOnly|remove|member)"),
    ("Directions writer (DirectionsResponse, shape, tree builder)", r"DirectionsResponse\.|RouteEndpoint\.(body|bytes)|Polyline|"
                                                                     r"CongestionRuns|MapboxDirectionsAPI\.(body|shape|response|json)|"
                                                                     r"JSON\.(number|position|measure)|JSONTreeBuilder|"
                                                                     r"(VoiceInstruction|BannerInstruction|BannerContent|BannerComponent)\.write"),
    ("guidance steps", r"StepBuilder|Router\.addSteps|Guidance|Maneuver|Junction|Lane|Roundabout|TurnAngle"),
    ("leg building", r"Router\.buildLeg|LegBuilder|Router\.leg\(|annotations"),
    ("CCH search + unpacking", r"CCHSearch|ShortestPathSearch|Router\.legPath|CCHMetric|Hierarchy"),
    ("snapping", r"Snapper|snapCandidates|Router\.snap|SpatialGrid|RTree"),
    ("request parsing", r"HTTPRequest\.init|MapboxDirectionsAPI\.parse|OSRMURL|DirectionsRequest|percent|AccessTokens|"
                        r"RouteEndpoint\.parse|Parameters\.init|\.parse\("),
    ("HTTP/libmicrohttpd + copies", r"httpHandler|^answer$|^ngh_|MHD_|libmicrohttpd|sendmsg|recvfrom|epoll|tcp_|__libc_send|"
                                    r"__libc_recv|sock_|inet_"),
]
PHASES = [(name, re.compile(pattern)) for name, pattern in PHASES]


def samples(lines):
    frames = []
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            if frames:
                yield frames
            frames = []
        elif line.startswith(("\t", " ")):
            m = re.match(r"\s*[0-9a-f]+ (.*) \((.*)\)$", line)
            if m:
                frames.append((m.group(1).strip(), m.group(2)))
    if frames:
        yield frames


def classify(frames, allocations_apart=True):
    leaf = frames[0][0]
    if allocations_apart and (ALLOC.match(leaf) or any("page_fault" in sym for sym, _ in frames)):
        return "malloc/retain/release (and page faults)"
    for sym, dso in frames:
        for name, pattern in PHASES:
            if pattern.search(sym) or (name.startswith("HTTP") and "libmicrohttpd" in dso) \
                    or (name.startswith("HTTP") and dso.startswith("[kernel")):
                return name
    return "other (pool, dispatch, unattributed)"


def main():
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 25
    phases, inclusive, leaves, total = collections.Counter(), collections.Counter(), collections.Counter(), 0
    for frames in samples(sys.stdin):
        total += 1
        phases[classify(frames)] += 1
        inclusive[classify(frames, allocations_apart=False)] += 1
        leaves[frames[0][0][:90]] += 1
    print(f"{total} samples\n\n| phase | share | with its own malloc/retain/release |\n|---|---|---|")
    for name, count in phases.most_common():
        print(f"| {name} | {100 * count / total:.1f} % | {100 * inclusive[name] / total:.1f} % |" if name in inclusive
              else f"| {name} | {100 * count / total:.1f} % | - |")
    print(f"\n| top self symbols | share |\n|---|---|")
    for sym, count in leaves.most_common(top):
        print(f"| `{sym}` | {100 * count / total:.1f} % |")


if __name__ == "__main__":
    main()
