#!/usr/bin/env python3
"""One disagreement of bench/agreement.py traced to the OSM ways each engine drove.

    python3 bench/agreement_trace.py EXTRACT_NAME FROM_LON,FROM_LAT TO_LON,TO_LAT [--out .cache/bench/agreement]
            [--wayfinder .build/release/wayfinder]

Uses the OSRM files, Valhalla tiles and Wayfinder car dataset bench/agreement.py left under OUT/NAME:
starts the three servers on 127.0.0.1, asks each for the route (OSRM and Wayfinder `/route/v1` with
`annotations=nodes`, Valhalla `/route` then `/trace_attributes` of its own shape for the way ids),
maps the node sequences to the extract's ways, and prints, per engine, length, time and street names,
and the ways only one of OSRM and Wayfinder drove (with their tags), which is where to look for a
tag, a restriction or a one-way. Every server is stopped at the end.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import agreement as A  # noqa: E402
import harness as H  # noqa: E402


def way_index(extract, every=False):
    """(node pair -> way id, way id -> tags, node -> "lon,lat") over the extract's highway and ferry ways;
    with every=True a node pair maps to the list of every way through it (a sidewalk drawn on a
    pedestrian area's outline shares the area's segments)."""
    p = subprocess.run(f"osmium tags-filter -o - -f opl {extract} w/highway w/route=ferry | grep '^[nw]'", shell=True,
                       capture_output=True, text=True, timeout=300)
    pairs, tags, coords = {}, {}, {}
    for line in p.stdout.splitlines():
        fields = line.split(" ")
        if line[0] == "n":
            xy = {f[0]: f[1:] for f in fields if f[:1] in ("x", "y")}
            if xy.get("x") and xy.get("y"):
                coords[int(fields[0][1:])] = f"{xy['x']},{xy['y']}"
            continue
        wid = int(fields[0][1:])
        t = next((f[1:] for f in fields if f.startswith("T")), "")
        refs = [int(r[1:]) for r in next((f[1:] for f in fields if f.startswith("N")), "").split(",") if r]
        tags[wid] = t
        for u, v in zip(refs, refs[1:]):
            if every:
                for key in ((u, v), (v, u)):
                    if wid not in pairs.setdefault(key, []):
                        pairs[key].append(wid)
            else:
                pairs[(u, v)] = pairs[(v, u)] = wid
    return pairs, tags, coords


def routes(client, a, b):
    status, body = client.request("GET", f"/route/v1/driving/{a};{b}?overview=false")
    return json.loads(body).get("code") == "Ok"


def first_break(client, nodes, coords, origin, destination):
    """Where one engine stops being able to follow the other's route: the last node it can reach from
    the origin and the first from which it can reach the destination (bisection, about 2 log n requests)."""
    points = [coords.get(n) for n in nodes]
    lo, hi = 0, len(nodes) - 1  # reachable from origin: the last index that routes
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if points[mid] and routes(client, origin, points[mid]):
            lo = mid
        else:
            hi = mid - 1
    reach_to = lo
    lo, hi = 0, len(nodes) - 1  # the first index from which the destination routes
    while lo < hi:
        mid = (lo + hi) // 2
        if points[mid] and routes(client, points[mid], destination):
            hi = mid
        else:
            lo = mid + 1
    return {"lastNodeReachedFromOrigin": nodes[reach_to], "index": reach_to, "firstNodeReachingDestination": nodes[lo],
            "indexFrom": lo, "of": len(nodes)}


def osrm_shaped(client, a, b, profile="driving"):
    status, body = client.request("GET", f"/route/v1/{profile}/{a};{b}?steps=true&annotations=nodes&overview=full&geometries=polyline6")
    j = json.loads(body)
    if j.get("code") != "Ok":
        return {"code": j.get("code"), "nodes": []}
    r = j["routes"][0]
    snaps = [{"distanceM": round(w.get("distance", 0), 1), "name": w.get("name"), "location": w.get("location")} for w in j.get("waypoints", [])]
    nodes = [n for leg in r["legs"] for n in leg.get("annotation", {}).get("nodes", [])]
    names = []
    steps = [s for leg in r["legs"] for s in leg["steps"]]
    for s in steps:
        if s.get("name") and (not names or names[-1] != s["name"]):
            names.append(s["name"])
    pushed = sum(s.get("distance", 0) for s in steps if s.get("mode") == "pushing bike")
    return {"code": "Ok", "lengthM": r["distance"], "timeS": r["duration"], "pushedM": round(pushed), "snaps": snaps,
            "streets": names, "nodes": nodes, "shape": r["geometry"]}


def valhalla(client, a, b, costing="auto"):
    (alon, alat), (blon, blat) = [map(float, p.split(",")) for p in (a, b)]
    body = {"locations": [{"lat": alat, "lon": alon}, {"lat": blat, "lon": blon}], "costing": costing, "units": "kilometers"}
    if costing == "auto":  # the car's anchor answers at a quiet hour, as bench/agreement.py asks it
        body["date_time"] = {"type": 1, "value": A.hours(A.dt.date.today())["sun03"][:16]}
    _, raw = client.request("GET", "/route?json=" + json.dumps(body, separators=(",", ":")))
    j = json.loads(raw)
    if "trip" not in j:
        return {"code": j.get("error"), "ways": []}
    leg = j["trip"]["legs"][0]
    names = []
    for m in leg["maneuvers"]:
        for n in m.get("street_names", []):
            if not names or names[-1] != n:
                names.append(n)
    tb = {"encoded_polyline": leg["shape"], "costing": costing, "shape_match": "edge_walk", "filters": {"attributes": ["edge.way_id"], "action": "include"}}
    _, traw = client.request("GET", "/trace_attributes?json=" + json.dumps(tb, separators=(",", ":")))
    ways = []
    for e in json.loads(traw).get("edges", []):
        if not ways or ways[-1] != e.get("way_id"):
            ways.append(e.get("way_id"))
    s = j["trip"]["summary"]
    return {"code": "Ok", "lengthM": s["length"] * 1000, "timeS": s["time"], "streets": names, "ways": ways, "shape": leg["shape"]}


def ways_of(nodes, pairs):
    out = []
    for u, v in zip(nodes, nodes[1:]):
        w = pairs.get((u, v))
        if w and (not out or out[-1] != w):
            out.append(w)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("name")
    ap.add_argument("origin")
    ap.add_argument("destination")
    ap.add_argument("--out", default=str(A.ROOT / ".cache" / "bench" / "agreement"))
    ap.add_argument("--wayfinder", default=str(A.ROOT / ".build" / "release" / "wayfinder"))
    args = ap.parse_args()
    work = Path(args.out) / args.name
    extract = next((work / "osrm").glob("*.osm.pbf"), None)
    if extract is None or not (work / "dataset" / "manifest.json").exists():
        sys.exit(f"agreement_trace: run bench/agreement.py --extracts {args.name} first")
    osrm = A.ROOT / ".cache" / "anchors" / "osrm" / "osrm"
    valhalla_home = A.ROOT / ".cache" / "anchors" / "valhalla"
    env = dict(A.os.environ, LD_LIBRARY_PATH=str(valhalla_home / "pyvalhalla.libs"))
    oport, vport, wport = H.free_port(), H.free_port(), H.free_port()
    servers = []
    try:
        servers.append(H.Server("osrm", [osrm / "bin" / "osrm-routed", "-i", "127.0.0.1", "-p", oport, "-t", 1, extract.with_name(extract.name.split(".")[0] + ".osrm")],
                                oport, r"running and waiting", work / "trace_osrm.log"))
        vjson = A.valhalla_config(work / "valhalla" / "valhalla.template.json", vport, work / "trace_valhalla.json")
        servers.append(H.Server("valhalla", [valhalla_home / "valhalla" / "bin" / "valhalla_service", vjson, 1], vport, r"", work / "trace_valhalla.log", env=env))
        servers.append(H.Server("wayfinder", [args.wayfinder, "serve", work / "dataset", "--port", wport, "--quiet"], wport, r"serving", work / "trace_wayfinder.log"))
        servers[0].wait_ready(60)
        servers[2].wait_ready(120)
        if not A.wait_http(vport, "/status", 60):
            sys.exit("agreement_trace: valhalla_service not ready")
        pairs, tags, coords = way_index(extract)
        wc = H.Client(wport, 30)
        report = {"osrm": osrm_shaped(H.Client(oport, 30), args.origin, args.destination),
                  "wayfinder": osrm_shaped(wc, args.origin, args.destination),
                  "valhalla": valhalla(H.Client(vport, 30), args.origin, args.destination)}
        oc = H.Client(oport, 30)
        for broken, client, follows in (("wayfinder", wc, "osrm"), ("osrm", oc, "wayfinder")):
            if report[broken]["code"] != "Ok" and report[follows]["code"] == "Ok":
                nodes = report[follows]["nodes"]
                cut = first_break(client, nodes, coords, args.origin, args.destination)
                for key, i in (("wayAfterLastReached", cut["index"]), ("wayBeforeFirstReaching", cut["indexFrom"] - 1)):
                    if 0 <= i < len(nodes) - 1:
                        w = pairs.get((nodes[i], nodes[i + 1]))
                        cut[key] = {"way": w, "tags": tags.get(w), "nodes": [nodes[i], nodes[i + 1]]}
                report[f"{broken}Break"] = dict(cut, alongRouteOf=follows)
    finally:
        for s in servers:
            s.stop()
    for k in ("osrm", "wayfinder", "valhalla"):
        report[k].pop("shape", None)
    for k in ("osrm", "wayfinder"):
        report[k]["ways"] = ways_of(report[k].pop("nodes"), pairs)
    o, w, v = (set(report[k]["ways"]) for k in ("osrm", "wayfinder", "valhalla"))
    report["waysOnlyOSRM"] = [{"way": x, "tags": tags.get(x), "valhallaToo": x in v} for x in report["osrm"]["ways"] if x not in w]
    report["waysOnlyWayfinder"] = [{"way": x, "tags": tags.get(x), "valhallaToo": x in v} for x in report["wayfinder"]["ways"] if x not in o]
    report["valhallaRestrictedWays"] = [{"way": x, "tags": tags.get(x)} for x in report["valhalla"].get("ways", []) if any(k in (tags.get(x) or "") for k in ("access=", "motor_vehicle=", "motorcar=", "vehicle=", "highway=track", "highway=construction", "route=ferry", "highway=service", "highway=unclassified"))]
    report["valhallaFirstWays"] = [{"way": x, "tags": tags.get(x)} for x in report["valhalla"].get("ways", [])[:6]]
    report["valhallaLastWays"] = [{"way": x, "tags": tags.get(x)} for x in report["valhalla"].get("ways", [])[-6:]]
    print(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
