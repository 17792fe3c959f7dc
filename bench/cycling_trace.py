#!/usr/bin/env python3
"""Bicycle (or walking) disagreements of a bench/cycling.py run traced to the OSM ways each engine took.

    python3 bench/cycling_trace.py NAME [--out DIR] [--mode bicycle|pedestrian] [--pairs 9,17,...]
            [--wayfinder .build/release/wayfinder]

Uses what `bench/cycling.py --out DIR` left under DIR/NAME (our dataset, OSRM's MLD files, Valhalla's
tiles, answers.json). Without --pairs it traces the pairs the run flagged: ours over 1.3x the shorter
anchor's length, or outside 5 % of both anchors' lengths. Per pair: the run's answers (and those of
OSRM without its made-up signal turn, when bench/cycling_signals.py kept them); each engine's length,
time, metres pushed (OSRM and ours: steps with mode "pushing bike") and streets; what each anchor's
route costs in our profile (ours made to pass 30 % and 70 % along it: slower than ours means our
profile prefers its own route, far longer means we cannot ride the anchor's) and where our routes
from the origin to points along it stop following it; and the ways one engine took that another did
not, with their tags: ours beside OSRM, ours beside Valhalla, and Valhalla beside OSRM.
Valhalla's ways come from `/trace_attributes` of its own shape. Prints one JSON report; every server
is stopped at the end.
"""
import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import agreement as A  # noqa: E402
import agreement_trace as T  # noqa: E402
import cycling as CY  # noqa: E402
import cycling_report as C  # noqa: E402
import guidance as G  # noqa: E402
import harness as H  # noqa: E402
import run as R  # noqa: E402
from reach import ensure_wheel  # noqa: E402


def flagged(saved, mode):
    """Pair ids over 1.3x the shorter anchor's length or outside 5 % of both anchors' lengths."""
    out = []
    answers = saved["answers"]
    for i, r in enumerate(saved["pairs"]):
        o, a, b = (answers[k][mode][i] for k in ("wayfinder", "osrm", "valhalla"))
        if not (o and a and b) or min(a[0], b[0]) <= 0:
            continue
        far = not (C._near(o[0], a[0], C.LENGTH_TOLERANCE) or C._near(o[0], b[0], C.LENGTH_TOLERANCE))
        if far or o[0] > C.DETOUR * min(a[0], b[0]):
            out.append(r["pair_id"])
    return out


def segments(nodes, pairs):
    """The ways along a node sequence, one entry per stretch: the ids of every way on that stretch's
    segments (more than one where ways share segments, as a sidewalk on an area's outline does)."""
    out = []
    for u, v in zip(nodes, nodes[1:]):
        ws = tuple(sorted(pairs.get((u, v), [])))
        if ws and (not out or out[-1] != ws):
            out.append(ws)
    return out


def only(first, second, tags):
    """Stretches of `first` on none of the ways `second` took, with every candidate way's tags."""
    other = {w for ws in second for w in ws}
    return [{"ways": list(ws), "tags": [tags.get(w) for w in ws]} for ws in first if not other.intersection(ws)]


def saved_answers(saved, straight, mode, i):
    """The run's (metres, seconds, metres pushed) per engine for pair i; OSRM without its made-up
    signal turn too when bench/cycling_signals.py kept its answers; and which are within 5 % of ours."""
    out = {k: saved["answers"][k][mode][i] for k in ("wayfinder", "osrm", "valhalla")}
    if straight and mode == "bicycle":
        out["osrm_straight_signals"] = straight["osrm_bicycle"][i]
    ours = out["wayfinder"]
    out["lengthWithin5pctOfOurs"] = [k for k, x in out.items() if k != "wayfinder" and ours and x and x[0] > 0
                                     and C._near(ours[0], x[0], C.LENGTH_TOLERANCE)]
    return out


def decode(polyline6):
    """(lon, lat) points of an encoded polyline of precision 6 (OSRM's polyline6, Valhalla's shape)."""
    points, i, lat, lon = [], 0, 0, 0
    while i < len(polyline6):
        deltas = []
        for _ in range(2):
            shift = value = 0
            while True:
                c = ord(polyline6[i]) - 63
                i += 1
                value |= (c & 0x1f) << shift
                shift += 5
                if c < 0x20:
                    break
            deltas.append(~(value >> 1) if value & 1 else value >> 1)
        lat, lon = lat + deltas[0], lon + deltas[1]
        points.append((lon / 1e6, lat / 1e6))
    return points


def measured(shape):
    """An anchor's route as (lon, lat) points and the metres along it to each."""
    pts = decode(shape or "")
    acc = [0.0]
    for p, q in zip(pts, pts[1:]):
        acc.append(acc[-1] + G.distance_m(p, q))
    return pts, acc


def ours(client, path, points):
    """Our route through `points` ("lon,lat" strings): (metres, seconds), or None."""
    _, body = client.request("GET", f"/route/v1/{path}/{';'.join(points)}?overview=false")
    j = json.loads(body)
    return (j["routes"][0]["distance"], j["routes"][0]["duration"]) if j.get("code") == "Ok" else None


def along(client, path, a, b, shape):
    """Our route made to pass the points 30 % and 70 % along an anchor's route: what that route costs
    in our profile, roughly (a via point splits an arc, so a few seconds either way)."""
    pts, acc = measured(shape)
    if len(pts) < 2:
        return None
    vias = [pts[next(i for i, x in enumerate(acc) if x >= share * acc[-1])] for share in (0.3, 0.7)]
    r = ours(client, path, [a] + [f"{x:.6f},{y:.6f}" for x, y in vias] + [b])
    return {"lengthM": round(r[0]), "timeS": round(r[1])} if r else None


def departure(client, path, a, shape, samples=40):
    """Where our routes stop following an anchor's: from the origin to points along the anchor's route,
    the first point our route to which is over 5 % + 50 m longer than the anchor's route to it, with
    the last point it was not; None when ours follows to the end."""
    pts, acc = measured(shape)
    if len(pts) < 2:
        return None
    step = max(1, len(pts) // samples)
    last = None
    for i in sorted(set(range(step, len(pts), step)) | {len(pts) - 1}):
        point = f"{pts[i][0]:.6f},{pts[i][1]:.6f}"
        r = ours(client, path, [a, point])
        here = {"point": point, "anchorM": round(acc[i]), "oursM": r and round(r[0])}
        if not r or r[0] > acc[i] * 1.05 + 50:
            return {"lastFollowed": last, "departed": here}
        last = here
    return None


def trace(clients, row, mode, path, pairs, tags):
    a, b = f"{row['src_lon']},{row['src_lat']}", f"{row['dst_lon']},{row['dst_lat']}"
    out = {"pair": row["pair_id"], "from": a, "to": b,
           "wayfinder": T.osrm_shaped(clients["wayfinder"], a, b, path),
           "osrm": T.osrm_shaped(clients["osrm"], a, b),
           "valhalla": T.valhalla(clients["valhalla"], a, b, mode)}
    for anchor, name in (("osrm", "OSRM"), ("valhalla", "Valhalla")):
        shape = out[anchor].pop("shape", None)
        out["oursAlong" + name] = along(clients["wayfinder"], path, a, b, shape)
        out["oursDepartsFrom" + name] = departure(clients["wayfinder"], path, a, shape)
    out["wayfinder"].pop("shape", None)
    for k in ("wayfinder", "osrm"):
        out[k]["ways"] = segments(out[k].pop("nodes"), pairs)
    out["valhalla"]["ways"] = [(w,) for w in out["valhalla"].get("ways", [])]
    w, o, v = (out[k]["ways"] for k in ("wayfinder", "osrm", "valhalla"))
    out["onlyOurs_vsOSRM"], out["onlyOSRM"] = only(w, o, tags), only(o, w, tags)
    out["onlyOurs_vsValhalla"], out["onlyValhalla"] = only(w, v, tags), only(v, w, tags)
    out["onlyValhalla_vsOSRM"] = only(v, o, tags)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("--out", default=str(R.CACHE / "bench" / "cycling"))
    ap.add_argument("--mode", default="bicycle", choices=[m for m, _, _, _ in CY.MODES])
    ap.add_argument("--pairs", help="comma-separated pair ids (default: the flagged pairs)")
    ap.add_argument("--wayfinder", default=str(R.ROOT / ".build" / "release" / "wayfinder"))
    args = ap.parse_args()
    d = Path(args.out) / args.name
    if not (d / "answers.json").exists():
        sys.exit(f"cycling_trace: run bench/cycling.py --extracts {args.name} --out {args.out} first")
    saved = json.loads((d / "answers.json").read_text())
    wanted = args.pairs.split(",") if args.pairs else flagged(saved, args.mode)
    rows = [r for r in saved["pairs"] if r["pair_id"] in wanted]
    _, lua, path, _ = next(m for m in CY.MODES if m[0] == args.mode)
    pbf = G.extracts(argparse.Namespace(extracts=args.name))[0][1]
    osrm_home, _ = R.ensure_osrm()
    home = ensure_wheel(A.VALHALLA_PACKAGE, "valhalla", "valhalla/bin/valhalla_service")
    env = dict(os.environ, LD_LIBRARY_PATH=str(home / "pyvalhalla.libs"))
    ports = {k: H.free_port() for k in ("wayfinder", "osrm", "valhalla")}
    servers = []
    try:
        servers.append(H.Server("wayfinder", [args.wayfinder, "serve", d / "wayfinder", "--host", H.HOST, "--port", ports["wayfinder"],
                                              "--quiet"], ports["wayfinder"], r"wayfinder serving", d / "trace_wayfinder.log"))
        servers.append(H.Server("osrm", [osrm_home / "bin" / "osrm-routed", "--ip", H.HOST, "--port", ports["osrm"], "-a", "MLD", "-t", 1,
                                         CY.osrm_data(osrm_home, pbf, d, lua)], ports["osrm"], r"running and waiting", d / "trace_osrm.log"))
        config = A.valhalla_config(d / "valhalla" / "valhalla.template.json", ports["valhalla"], d / "trace_valhalla.json")
        servers.append(H.Server("valhalla", [home / "valhalla" / "bin" / "valhalla_service", config, 1], ports["valhalla"], r"",
                                d / "trace_valhalla.log", env=env))
        servers[0].wait_ready(120)
        servers[1].wait_ready(60)
        if not A.wait_http(ports["valhalla"], "/status", 60):
            sys.exit("cycling_trace: valhalla_service not ready")
        pairs, tags, _ = T.way_index(pbf, every=True)
        clients = {k: H.Client(p, 60) for k, p in ports.items()}
        straight_file = d / "answers-straight-signals.json"
        straight = json.loads(straight_file.read_text()) if straight_file.exists() else None
        index = {r["pair_id"]: i for i, r in enumerate(saved["pairs"])}
        report = {"name": args.name, "mode": args.mode,
                  "pairs": [dict(trace(clients, r, args.mode, path, pairs, tags), run=saved_answers(saved, straight, args.mode, index[r["pair_id"]]))
                            for r in rows]}
    finally:
        for s in servers:
            s.stop()
    print(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
