#!/usr/bin/env python3
"""Cycling and walking routes beside OSRM's bicycle.lua and foot.lua, on the same pairs, in one run.

  bench/cycling.py                                   every extract of ../shared/data
  bench/cycling.py --extracts monaco-2016,andorra-2021   a subset (file stems or .osm.pbf paths)
  bench/cycling.py --pairs 150 --max-km 8            pairs kept per extract, straight-line limit

Per extract: `wayfinder import --profiles bicycle,pedestrian` and OSRM 26.10 (bicycle.lua and
foot.lua, MLD) on the same file, all served on 127.0.0.1; the same origin/destination pairs (nodes of
car roads, seed 42, straight line under --max-km) asked of both with steps. Per mode, as shares of
the pairs both engines answer:

- length within 5 % of OSRM's, duration within 15 %;
- routes over 1.3x OSRM's length (listed with both lengths);
- median ratios of length and duration (ours / OSRM's);
- metres walked beside the bicycle (steps with mode "pushing bike") on both sides, summed.

Prints one JSON report (also written to OUT/cycling.json). Exit status: 0 when every extract ran,
1 when one failed, 2 on bad usage.
"""
import argparse
import contextlib
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import guidance as G  # noqa: E402
import harness as H  # noqa: E402
import run as R  # noqa: E402
import sample as S  # noqa: E402

MODES = (("bicycle", "bicycle.lua", "cycling"), ("pedestrian", "foot.lua", "walking"))


def osrm_data(osrm_home, pbf, d, lua_name):
    """OSRM's MLD files for one profile (kept between runs: they do not change with our code)."""
    osrm_dir = d / f"osrm-{lua_name.replace('.lua', '')}"
    osrm_file = osrm_dir / "map.osrm"
    if not (osrm_dir / "map.osrm.mldgr").exists():
        shutil.rmtree(osrm_dir, ignore_errors=True)
        osrm_dir.mkdir(parents=True)
        shutil.copy(pbf, osrm_dir / "map.osm.pbf")
        lua = next(osrm_home.rglob(f"profiles/{lua_name}"))
        for cmd in ([osrm_home / "bin" / "osrm-extract", "-p", lua, "-t", "2", osrm_dir / "map.osm.pbf"],
                    [osrm_home / "bin" / "osrm-partition", osrm_file], [osrm_home / "bin" / "osrm-customize", osrm_file]):
            subprocess.run([str(c) for c in cmd], check=True, capture_output=True, cwd=osrm_dir, timeout=1800)
    return osrm_file


def answer(body):
    """(metres, seconds, metres pushed) of the first route, or None."""
    if not body or body.get("code") != "Ok" or not body.get("routes"):
        return None
    r = body["routes"][0]
    pushed = sum(s.get("distance", 0) for leg in r.get("legs", []) for s in leg.get("steps", [])
                 if s.get("mode") == "pushing bike")
    return (r["distance"], r["duration"], pushed)


def fetch(port_number, rows, profile):
    client = H.Client(port_number, timeout=120)
    out = []
    for r in rows:
        path = H.osrm_path(r, "overview=false&alternatives=false&steps=true").replace("/driving/", f"/{profile}/")
        status, body = client.request("GET", path)
        out.append(answer(json.loads(body)) if status == 200 else None)
    client.close()
    return out


def compare(ours, theirs, rows):
    both = [(o, t, r) for o, t, r in zip(ours, theirs, rows) if o and t and t[0] > 0 and t[1] > 0]
    if not both:
        return {"pairs_compared": 0}
    length = [o[0] / t[0] for o, t, _ in both]
    duration = [o[1] / t[1] for o, t, _ in both]
    n = len(both)
    long_ones = [{"pair": r["pair_id"], "ours_m": round(o[0]), "osrm_m": round(t[0]), "ours_pushed_m": round(o[2]),
                  "osrm_pushed_m": round(t[2])} for o, t, r in both if o[0] > 1.3 * t[0]]
    return {
        "pairs_compared": n,
        "only_ours": sum(1 for o, t in zip(ours, theirs) if o and not t),
        "only_osrm": sum(1 for o, t in zip(ours, theirs) if t and not o),
        "length_within_5pct": round(sum(1 for x in length if abs(x - 1) <= 0.05) / n, 3),
        "duration_within_15pct": round(sum(1 for x in duration if abs(x - 1) <= 0.15) / n, 3),
        "over_1_3x_length": len(long_ones),
        "median_length_ratio": round(statistics.median(length), 3),
        "median_duration_ratio": round(statistics.median(duration), 3),
        "pushed_m": {"ours": round(sum(o[2] for o, _, _ in both)), "osrm": round(sum(t[2] for _, t, _ in both))},
        "pairs_with_pushing": {"ours": sum(1 for o, _, _ in both if o[2] > 0), "osrm": sum(1 for _, t, _ in both if t[2] > 0)},
        "over_1_3x": long_ones[:20],
    }


def run_extract(name, pbf, args, wayfinder, osrm_home, work):
    t0 = time.monotonic()
    d = work / name
    d.mkdir(parents=True, exist_ok=True)
    result = {"name": name}
    pairs_csv = d / f"pairs_{args.pairs}_{args.max_km}km_seed{args.seed}.csv"
    if not pairs_csv.exists():
        nodes, _ = S.car_roads(pbf, d, with_segments=False)
        drawn = d / "drawn.csv"
        S.write_pairs(nodes, drawn, n=args.pairs * 20, seed=args.seed)
        kept = [r for r in R.load_pairs(drawn)
                if G.distance_m((float(r["src_lon"]), float(r["src_lat"])), (float(r["dst_lon"]), float(r["dst_lat"]))) < args.max_km * 1000]
        with open(pairs_csv, "w") as f:
            f.write("pair_id,src_node,src_lon,src_lat,dst_node,dst_lon,dst_lat\n")
            for r in kept[:args.pairs]:
                f.write(",".join(r[k] for k in ("pair_id", "src_node", "src_lon", "src_lat", "dst_node", "dst_lon", "dst_lat")) + "\n")
    rows = R.load_pairs(pairs_csv)
    wf_dir = d / "wayfinder"
    shutil.rmtree(wf_dir, ignore_errors=True)
    subprocess.run([str(wayfinder), "import", str(pbf), "--output", str(wf_dir), "--profiles", "bicycle,pedestrian",
                    "--skip-places", "--skip-basemap"], check=True, capture_output=True, timeout=1800)
    p = G.port()
    srv = H.Server("wayfinder", [str(wayfinder), "serve", str(wf_dir), "--host", H.HOST, "--port", str(p), "--quiet"], p,
                   r"wayfinder serving", d / "log_wayfinder.txt")
    ours = {}
    try:
        srv.wait_ready()
        for mode, _, profile in MODES:
            ours[mode] = fetch(p, rows, profile)
    finally:
        srv.stop()
    for mode, lua, _ in MODES:
        osrm_file = osrm_data(osrm_home, pbf, d, lua)
        p = G.port()
        srv = H.Server("osrm", [str(osrm_home / "bin" / "osrm-routed"), "--ip", H.HOST, "--port", str(p), "-a", "MLD", "-t", "2",
                                str(osrm_file)], p, r"running and waiting for requests", d / f"log_osrm_{mode}.txt")
        try:
            srv.wait_ready()
            theirs = fetch(p, rows, "driving")
        finally:
            srv.stop()
        result[mode] = compare(ours[mode], theirs, rows)
    result["pairs_asked"] = len(rows)
    result["seconds"] = round(time.monotonic() - t0, 1)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--extracts", help="comma-separated extract names (stems in ../shared/data) or paths")
    ap.add_argument("--pairs", type=int, default=150)
    ap.add_argument("--max-km", type=float, default=8)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--out", default=str(R.CACHE / "bench" / "cycling"))
    ap.add_argument("--wayfinder", help="a built wayfinder binary (default: build release)")
    ap.add_argument("--build-path", default=str(R.ROOT / ".build"))
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args()
    if args.pairs <= 0 or args.max_km <= 0:
        ap.error("--pairs and --max-km must be positive")
    with contextlib.redirect_stdout(sys.stderr):
        R.ensure_debian_tools()
        osrm_home, version = R.ensure_osrm()
        wayfinder = R.ensure_wayfinder(args)
        work = Path(args.out)
        work.mkdir(parents=True, exist_ok=True)
        report = {"osrm": version, "pairs_per_extract": args.pairs, "max_km": args.max_km, "seed": args.seed, "extracts": []}
        failed = False
        for name, pbf in G.extracts(args):
            G.log(f"cycling: {name}")
            try:
                r = run_extract(name, pbf, args, wayfinder, osrm_home, work)
            except Exception as exc:  # one broken extract is a result, not a reason to lose the run
                r = {"name": name, "error": str(exc)}
                failed = True
            report["extracts"].append(r)
            G.log(f"cycling: {name}: " + json.dumps({m: {k: r.get(m, {}).get(k) for k in
                                                         ("pairs_compared", "length_within_5pct", "duration_within_15pct", "over_1_3x_length")}
                                                     for m, _, _ in MODES}))
    text = json.dumps(report, indent=1)
    (Path(args.out) / "cycling.json").write_text(text)
    print(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
