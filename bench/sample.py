"""Deterministic inputs drawn from an extract's car roads (the ideas of ../shared/bench/scripts/
osm_sample.py, in one pass so that 5M-node extracts stay quick): origin/destination pairs from the
nodes of car ways, and OSRM segment-speed files for a share of the directed car segments.

Same selection rules and seeds as osm_sample.py, so a 10 % file with seed 7 equals the shared
speeds.csv, and pairs with seed 42 equal the shared pairs.csv.
"""
import os
import random
import subprocess
import tempfile
from array import array

CAR_HIGHWAYS = ("motorway,trunk,primary,secondary,tertiary,unclassified,residential,"
                "living_street,motorway_link,trunk_link,primary_link,secondary_link,tertiary_link")


def car_roads(extract, work_dir, with_segments=True):
    """(node ids, lons, lats) ascending by id, and the sorted undirected segments (u, v) packed as u << 36 | v
    (an empty list without `with_segments`: the set of them takes gigabytes at 20M nodes)."""
    fd, roads = tempfile.mkstemp(prefix="roads_", suffix=".osm.pbf", dir=work_dir)
    os.close(fd)
    subprocess.run(["osmium", "tags-filter", "-O", "-o", roads, str(extract), "w/highway=" + CAR_HIGHWAYS],
                   check=True, capture_output=True)
    ids, lons, lats = array("q"), array("d"), array("d")
    segments = set()
    p = subprocess.Popen(["osmium", "cat", roads, "-f", "opl,add_metadata=false"], stdout=subprocess.PIPE, text=True,
                         bufsize=1 << 20)
    for line in p.stdout:
        c = line[0]
        if c == "n":
            parts = line.split(" ")
            x = y = None
            for f in parts[1:]:
                if f[0] == "x":
                    x = float(f[1:])
                elif f[0] == "y":
                    y = float(f[1:])
            if x is not None and y is not None:
                ids.append(int(parts[0][1:]))
                lons.append(x)
                lats.append(y)
        elif c == "w" and with_segments:
            nl = line.rstrip("\n").rsplit(" N", 1)
            if len(nl) != 2 or not nl[1]:
                continue
            refs = [int(r[1:]) for r in nl[1].split(",") if r.startswith("n")]
            for u, v in zip(refs, refs[1:]):
                if u != v:
                    segments.add((min(u, v) << 36) | max(u, v))
    p.wait()
    os.remove(roads)
    if any(ids[i] > ids[i + 1] for i in range(len(ids) - 1)):  # osmium keeps the input's order; be safe
        order = sorted(range(len(ids)), key=ids.__getitem__)
        ids, lons, lats = array("q", (ids[i] for i in order)), array("d", (lons[i] for i in order)), array("d", (lats[i] for i in order))
    return (ids, lons, lats), sorted(segments)


def write_pairs(nodes, out, n=1000, seed=42):
    ids, lons, lats = nodes
    rng = random.Random(seed)
    population = range(len(ids))  # random.sample picks the same indices for a range as for a list
    with open(out, "w") as f:
        f.write("pair_id,src_node,src_lon,src_lat,dst_node,dst_lon,dst_lat\n")
        for i in range(n):
            s, d = rng.sample(population, 2)
            f.write(f"{i},{ids[s]},{lons[s]:.7f},{lats[s]:.7f},{ids[d]},{lons[d]:.7f},{lats[d]:.7f}\n")


def write_speeds(segments, out, fraction, seed=7, kmh=15):
    """Both directions of `fraction` of the undirected segments at `kmh`; returns the line count."""
    mask = (1 << 36) - 1
    if fraction >= 1:
        chosen = segments
    else:
        rng = random.Random(seed)
        chosen = sorted(rng.sample(segments, int(len(segments) * fraction)))
    with open(out, "w") as f:
        buf = []
        for s in chosen:
            u, v = s >> 36, s & mask
            buf.append(f"{u},{v},{kmh}\n{v},{u},{kmh}\n")
            if len(buf) >= 100_000:
                f.write("".join(buf))
                buf = []
        f.write("".join(buf))
    return 2 * len(chosen)
