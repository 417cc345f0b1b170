#!/usr/bin/env python3
"""graph_sections_diff.py A.navgraph B.navgraph - compares two graph files section by section (name, order, length,
CRC-32 from the section tables). The `meta` sections (JSON with timings and creation time) are listed but not
counted. Exit status 0 when every other section is equal and in the same order, 1 otherwise."""
import struct
import sys

HEADER, ENTRY, NAME = 24, 48, 24


def sections(path):
    with open(path, "rb") as f:
        header = f.read(HEADER)
        if header[:8] != b"NAVGRAPH":
            sys.exit(f"{path}: not a navgraph file")
        version, count = struct.unpack_from("<II", header, 8)
        table = f.read(count * ENTRY)
    out = []
    for i in range(count):
        entry = table[i * ENTRY:(i + 1) * ENTRY]
        name = entry[:NAME].split(b"\0", 1)[0].decode()
        offset, length, crc, element = struct.unpack_from("<QQII", entry, NAME)
        out.append((name, length, crc, element))
    return version, out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    (va, a), (vb, b) = sections(sys.argv[1]), sections(sys.argv[2])
    differ = 0
    if va != vb:
        print(f"format version {va} vs {vb}")
        differ += 1
    if [s[0] for s in a] != [s[0] for s in b]:
        print("section names or order differ")
        differ += 1
    byname_b = {s[0]: s for s in b}
    compared = 0
    for name, length, crc, element in a:
        other = byname_b.get(name)
        if other is None:
            print(f"{name}: only in {sys.argv[1]}")
            differ += 1
            continue
        if name == "meta" or name.endswith(".meta"):
            print(f"{name}: {length} vs {other[1]} bytes (not compared: timings)")
            continue
        compared += 1
        if (length, crc, element) != other[1:]:
            print(f"{name}: {length} B crc {crc:08x} vs {other[1]} B crc {other[2]:08x}")
            differ += 1
    print(f"{compared} sections compared, {differ} differences")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
