#!/usr/bin/env python3
"""Map matching beside OSRM on the same graded traces, in one run.

`wayfinder bench match` makes the traces (car routes on the extract sampled every 1, 5, 15 and
30 s with 5, 10 and 20 m of noise, outliers and gaps), matches them in process and times 80-fix
traces. This script then sends every trace to osrm-routed's /match (CH, car profile of OSRM
26.10) and to `wayfinder serve`'s /match, with the same timestamps and radiuses (σ of the noise),
and grades both answers the same way (and times the same 80-fix requests to both over HTTP): the share of the true route's length whose directed OSM
segments the answer drives (annotations=nodes), and the share of fixes whose matched location
lies on the edge they were really on (within 1.5 m). Prints one JSON report and writes it to
.cache/bench/match/report.json.

    python3 bench/match.py                      # Helsinki (sample or ../shared/data), 40 drives
    python3 bench/match.py --extract porto --drives 60
"""
import argparse
import json
import math
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as H  # noqa: E402
import run as R  # noqa: E402


def polyline6(points):
    out, last = [], (0, 0)
    for lon, lat in points:
        cur = (round(lat * 1e6), round(lon * 1e6))
        for v in (cur[0] - last[0], cur[1] - last[1]):
            v = ~(v << 1) if v < 0 else v << 1
            while v >= 0x20:
                out.append(chr((0x20 | (v & 0x1F)) + 63))
                v >>= 5
            out.append(chr(v + 63))
        last = cur
    return "".join(out)


def point_segment_m(p, a, b):
    k = math.cos(math.radians(p[1])) * 111_195
    ax, ay, bx, by, px, py = a[0] * k, a[1] * 111_195, b[0] * k, b[1] * 111_195, p[0] * k, p[1] * 111_195
    dx, dy = bx - ax, by - ay
    t = 0 if dx == dy == 0 else max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def grade(trace, answer, shapes):
    """(matched length share, total length, right points, points) of one answer."""
    total = sum(m for _, _, m in trace["segments"])
    matched = set()
    tracepoints = []
    if answer and answer.get("code") == "Ok":
        for matching in answer["matchings"]:
            for leg in matching["legs"]:
                nodes = (leg.get("annotation") or {}).get("nodes") or []
                matched.update(zip(nodes, nodes[1:]))
        tracepoints = answer.get("tracepoints") or []
    hit = sum(m for f, t, m in trace["segments"] if (f, t) in matched)
    right = 0
    for i, edge in enumerate(trace["edges"]):
        tp = tracepoints[i] if i < len(tracepoints) else None
        if tp:
            shape = shapes[str(edge)]
            if min(point_segment_m(tp["location"], a, b) for a, b in zip(shape, shape[1:])) <= 1.5:
                right += 1
    return hit, total, right, len(trace["edges"])


def match_path(pts, radius):
    """A /match request for fixes (lon, lat, time), each with the same radius (σ)."""
    line = urllib.parse.quote(polyline6([(p[0], p[1]) for p in pts]), safe="")
    return (f"/match/v1/driving/polyline6%28{line}%29?overview=false"
            f"&timestamps={';'.join(str(int(p[2])) for p in pts)}&radiuses={';'.join(str(radius) for _ in pts)}")


def match_all(port, traces):
    client = H.Client(port)
    answers = []
    for tr in traces:
        status, body = client.request("GET", match_path(tr["points"], tr["noiseMeters"]) + "&annotations=nodes")
        try:
            answers.append(json.loads(body))
        except ValueError:
            answers.append({"code": f"HTTP {status}"})
    client.close()
    return answers


def latency(port, traces, repeats=3):
    """Milliseconds per 80-fix /match request over HTTP (the first 80 fixes of every 1 s, 10 m
    trace, each sent `repeats` times, best kept): the same requests to both servers."""
    client = H.Client(port)
    times = []
    for tr in traces:
        if tr["intervalSeconds"] != 1 or tr["noiseMeters"] != 10 or len(tr["points"]) < 80:
            continue
        path = match_path(tr["points"][:80], tr["noiseMeters"])
        best = None
        for _ in range(repeats):
            t0 = time.perf_counter()
            client.request("GET", path)
            ms = (time.perf_counter() - t0) * 1000
            best = ms if best is None else min(best, ms)
        times.append(best)
    client.close()
    times.sort()
    pick = lambda q: round(times[min(len(times) - 1, int(q * len(times)))], 3) if times else None  # noqa: E731
    return {"requests": len(times), "p50": pick(0.5), "p95": pick(0.95), "mean": round(sum(times) / len(times), 3) if times else None}


def table(traces, answers, shapes):
    rows = {}
    for tr, ans in zip(traces, answers):
        key = (tr["intervalSeconds"], tr["noiseMeters"])
        r = rows.setdefault(key, [0, 0, 0, 0, 0])
        for k, v in enumerate(grade(tr, ans, shapes)):
            r[k] += v
        r[4] += ans.get("code") != "Ok"
    return {f"{int(k[0])}s/{int(k[1])}m": {"lengthShare": round(r[0] / max(1, r[1]), 3), "pointShare": round(r[2] / max(1, r[3]), 3),
                                           "notOk": r[4]} for k, r in sorted(rows.items())}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--extract", default="helsinki", help="helsinki, milan, porto or an .osm.pbf path")
    ap.add_argument("--drives", type=int, default=40)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--wayfinder", help="use this wayfinder binary instead of building one")
    ap.add_argument("--build-path", default=str(R.ROOT / ".build"))
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args()
    extract = R.resolve_extract(args.extract)
    if not extract:
        sys.exit(f"bench/match: no extract {args.extract}")
    work = R.CACHE / "bench" / "match"
    work.mkdir(parents=True, exist_ok=True)
    wayfinder = R.ensure_wayfinder(args)
    osrm, version = R.ensure_osrm()
    traces_path = work / "traces.json"
    traces_path.unlink(missing_ok=True)
    H.log("wayfinder bench match (in process)")
    r = subprocess.run([wayfinder, "bench", "match", extract, "--queries", str(args.drives), "--seed", str(args.seed),
                        "--output", traces_path], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("bench/match: wayfinder bench match failed:\n" + r.stderr[-2000:])
    report = {"extract": extract.name, "osrm": version, "inProcess": json.loads(r.stdout)}
    data = json.loads(traces_path.read_text())
    traces, shapes = data["traces"], data["edgeShapes"]

    H.log("OSRM: extract and contract")
    ch = work / "osrm"
    ch.mkdir(exist_ok=True)
    pbf = ch / "map.osm.pbf"
    pbf.unlink(missing_ok=True)
    pbf.symlink_to(extract)
    for cmd in (["osrm-extract", "-p", osrm / "share" / "profiles" / "car.lua", "-t", "2", pbf], ["osrm-contract", "-t", "2", ch / "map.osrm"]):
        subprocess.run([osrm / "bin" / cmd[0]] + cmd[1:], check=True, capture_output=True, cwd=ch)
    H.log("wayfinder: import (car)")
    dataset = work / "wayfinder"
    subprocess.run([wayfinder, "import", extract, "--output", dataset, "--profiles", "car", "--skip-places", "--skip-basemap"],
                   check=True, capture_output=True)
    servers = {
        "osrm": ([osrm / "bin" / "osrm-routed", "--ip", H.HOST, "-a", "CH", "-t", "2", "--max-matching-size", "100000"], r"running and waiting"),
        "wayfinder": ([wayfinder, "serve", dataset, "--host", H.HOST, "--max-trace-points", "100000", "--max-url-bytes", "1048576"], r"[Ll]istening|Serving|http://"),
    }
    for name, (cmd, ready) in servers.items():
        port = H.free_port()
        full = cmd + (["--port", port, ch / "map.osrm"] if name == "osrm" else ["--port", port])
        srv = H.Server(name, full, port, ready, work / f"log_{name}.txt")
        try:
            srv.wait_ready()
            H.log(f"{name}: matching {len(traces)} traces over HTTP")
            report[name] = table(traces, match_all(port, traces), shapes)
            H.log(f"{name}: timing 80-fix traces over HTTP")
            report.setdefault("latency80PointsHTTPms", {})[name] = latency(port, traces)
        finally:
            srv.stop()
    text = json.dumps(report, indent=2, sort_keys=True)
    (work / "report.json").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
