#!/usr/bin/env python3
"""Which columns of a mapped Wayfinder data file a running process holds resident.

  bench/resident_columns.py PID FILE [--top N]

Reads the file's column directory (64-byte header, then columns, then a text directory), finds
the file's mapping in /proc/PID/maps and reads the present bit of each of its pages from
/proc/PID/pagemap (root only), then adds the resident bytes up per column. Prints JSON: the
mapping's resident MB and, per column, its size and resident MB, largest first. This is where a
server's RssFile goes (the kernel maps pages in 64 KB windows around each touched address, so a
column read at scattered places is resident nearly whole).
"""
import json
import os
import struct
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")
HEADER = 64


def columns(path):
    with open(path, "rb") as f:
        header = f.read(HEADER)
        offset, length = struct.unpack_from("<QQ", header, 16)
        f.seek(HEADER + offset)
        directory = f.read(length).decode()
    out = []
    for line in directory.split("\n"):
        parts = line.split(" ")
        if parts[0] == "column" and len(parts) in (5, 6):
            size, count, start = int(parts[2]), int(parts[3]), int(parts[4])
            out.append((parts[1], HEADER + start, size * count))
    return out


def mapping(pid, path):
    real = os.path.realpath(path)
    for line in open(f"/proc/{pid}/maps"):
        fields = line.split()
        if len(fields) >= 6 and fields[5] == real:
            lo, hi = (int(x, 16) for x in fields[0].split("-"))
            return lo, hi, int(fields[2], 16)
    return None


def resident(pid, path):
    m = mapping(pid, path)
    if m is None:
        return {"error": f"{path} is not mapped by {pid}"}
    lo, hi, file_offset = m
    pages = (hi - lo) // PAGE
    with open(f"/proc/{pid}/pagemap", "rb") as f:
        f.seek(lo // PAGE * 8)
        raw = f.read(pages * 8)
    present = [(struct.unpack_from("<Q", raw, 8 * i)[0] >> 63) & 1 for i in range(pages)]
    per = []
    for name, start, size in columns(path):
        first, last = (start - file_offset) // PAGE, (start - file_offset + max(size, 1) - 1) // PAGE
        n = sum(present[max(0, first):min(pages, last + 1)])
        per.append({"column": name, "mb": round(size / 1048576, 2), "resident_mb": round(n * PAGE / 1048576, 2)})
    per.sort(key=lambda c: -c["resident_mb"])
    return {"file_mb": round((hi - lo) / 1048576, 1), "resident_mb": round(sum(present) * PAGE / 1048576, 1), "columns": per}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 20
    r = resident(int(sys.argv[1]), sys.argv[2])
    if "columns" in r:
        r["columns"] = r["columns"][:top]
    print(json.dumps(r, indent=1))


if __name__ == "__main__":
    main()
