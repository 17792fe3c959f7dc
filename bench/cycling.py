#!/usr/bin/env python3
"""Cycling and walking routes beside OSRM's and Valhalla's, on the same pairs, in one run.

  bench/cycling.py                                   every extract of ../shared/data
  bench/cycling.py --extracts monaco-2016,andorra-2021   a subset (file stems or .osm.pbf paths)
  bench/cycling.py --pairs 150 --max-km 8            pairs kept per extract, straight-line limit

Per extract: `wayfinder import --profiles bicycle,pedestrian`, OSRM 26.10 (bicycle.lua and foot.lua,
MLD) and Valhalla 3.9.1 (`bicycle` and `pedestrian` costing, default options, tiles of the same file),
each served in turn on 127.0.0.1; the same origin/destination pairs (nodes of car roads, seed 42,
straight line under --max-km) asked of all three. Per mode, as shares of the pairs the sides answer
(bench/cycling_report.py): length within 5 % and duration within 15 % of OSRM's, of Valhalla's and
of at least one of the two; our routes over 1.3x the shorter anchor's length (listed); median ratios;
OSRM beside Valhalla; metres walked beside the bicycle (steps with mode "pushing bike"), ours and OSRM's.

Prints one JSON report; writes OUT/cycling.json, every answer to OUT/NAME/answers.json, and with
--results PREFIX also PREFIX.json and PREFIX.md. Exit status: 0 when every extract ran, 1 when one
failed, 2 on bad usage.
"""
import argparse
import contextlib
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import agreement as A  # noqa: E402
import cycling_report as C  # noqa: E402
import guidance as G  # noqa: E402
import harness as H  # noqa: E402
import run as R  # noqa: E402
import sample as S  # noqa: E402
from reach import ensure_wheel  # noqa: E402

# (our profile and Valhalla costing, OSRM profile, path segment of our OSRM-shaped API, report title)
MODES = (("bicycle", "bicycle.lua", "cycling", "Bicycle"), ("pedestrian", "foot.lua", "walking", "Walking"))


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


def fetch_valhalla(port_number, rows, costing):
    """(metres, seconds, 0) per pair from valhalla_service's /route, or None (it has no pushing mode to count)."""
    client = H.Client(port_number, timeout=120)
    out = []
    for r in rows:
        body = {"locations": [{"lat": float(r["src_lat"]), "lon": float(r["src_lon"])},
                              {"lat": float(r["dst_lat"]), "lon": float(r["dst_lon"])}],
                "costing": costing, "directions_type": "none", "units": "kilometers"}
        status, raw = client.request("GET", "/route?json=" + json.dumps(body, separators=(",", ":")))
        try:
            s = json.loads(raw)["trip"]["summary"] if status == 200 else None
        except (ValueError, KeyError):
            s = None
        out.append((s["length"] * 1000, s["time"], 0) if s else None)
    client.close()
    return out


def pairs_for(name, pbf, args, d):
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
    return R.load_pairs(pairs_csv)


def ask_wayfinder(wayfinder, pbf, rows, d):
    wf_dir = d / "wayfinder"
    shutil.rmtree(wf_dir, ignore_errors=True)
    subprocess.run([str(wayfinder), "import", str(pbf), "--output", str(wf_dir), "--profiles", "bicycle,pedestrian",
                    "--skip-places", "--skip-basemap"], check=True, capture_output=True, timeout=1800)
    p = H.free_port()
    srv = H.Server("wayfinder", [str(wayfinder), "serve", str(wf_dir), "--host", H.HOST, "--port", str(p), "--quiet"], p,
                   r"wayfinder serving", d / "log_wayfinder.txt")
    try:
        srv.wait_ready()
        return {mode: fetch(p, rows, path) for mode, _, path, _ in MODES}
    finally:
        srv.stop()


def ask_osrm(osrm_home, pbf, rows, d):
    out = {}
    for mode, lua, _, _ in MODES:
        osrm_file = osrm_data(osrm_home, pbf, d, lua)
        p = H.free_port()
        srv = H.Server("osrm", [str(osrm_home / "bin" / "osrm-routed"), "--ip", H.HOST, "--port", str(p), "-a", "MLD", "-t", "2",
                                str(osrm_file)], p, r"running and waiting for requests", d / f"log_osrm_{mode}.txt")
        try:
            srv.wait_ready()
            out[mode] = fetch(p, rows, "driving")
        finally:
            srv.stop()
    return out


def ask_valhalla(anchor, pbf, rows, d, steps):
    """Valhalla's tiles (built once: they hold every mode) and its answers for each costing."""
    if A.prepare_valhalla(anchor["home"], pbf, d / "valhalla", steps, d.name, anchor["env"]) is None:
        raise RuntimeError("valhalla_build_tiles failed (see its log under OUT/logs)")
    p = H.free_port()
    config = A.valhalla_config(d / "valhalla" / "valhalla.template.json", p, d / "valhalla_service.json")
    srv = H.Server("valhalla", [anchor["home"] / "valhalla" / "bin" / "valhalla_service", config, 2], p, r"",
                   d / "log_valhalla.txt", env=anchor["env"])
    try:
        if not A.wait_http(p, "/status"):
            raise RuntimeError("valhalla_service not ready")
        return {mode: fetch_valhalla(p, rows, mode) for mode, _, _, _ in MODES}
    finally:
        srv.stop()


def run_extract(name, pbf, args, wayfinder, osrm_home, valhalla, steps, work):
    t0 = time.monotonic()
    d = work / name
    d.mkdir(parents=True, exist_ok=True)
    rows = pairs_for(name, pbf, args, d)
    answers = {"wayfinder": ask_wayfinder(wayfinder, pbf, rows, d), "osrm": ask_osrm(osrm_home, pbf, rows, d),
               "valhalla": ask_valhalla(valhalla, pbf, rows, d, steps)}
    (d / "answers.json").write_text(json.dumps({"pairs": rows, "answers": answers}))
    result = {"name": name, "pairs_asked": len(rows)}
    for mode, _, _, _ in MODES:
        result[mode] = C.compare(rows, answers["wayfinder"][mode], answers["osrm"][mode], answers["valhalla"][mode])
    result["seconds"] = round(time.monotonic() - t0, 1)
    return result


def write_results(prefix, report):
    prefix = Path(prefix)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    for suffix, text in ((".json", json.dumps(report, indent=1)), (".md", C.markdown(report, [(m, t) for m, _, _, t in MODES]))):
        tmp = prefix.with_name(prefix.name + suffix + ".tmp")
        tmp.write_text(text)
        tmp.replace(prefix.with_name(prefix.name + suffix))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--extracts", help="comma-separated extract names (stems in ../shared/data) or paths")
    ap.add_argument("--pairs", type=int, default=150)
    ap.add_argument("--max-km", type=float, default=8)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--out", default=str(R.CACHE / "bench" / "cycling"))
    ap.add_argument("--results", help="write the report as RESULTS.json and RESULTS.md too")
    ap.add_argument("--wayfinder", help="a built wayfinder binary (default: build release)")
    ap.add_argument("--build-path", default=str(R.ROOT / ".build"))
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args()
    if args.pairs <= 0 or args.max_km <= 0:
        ap.error("--pairs and --max-km must be positive")
    with contextlib.redirect_stdout(sys.stderr):
        R.ensure_debian_tools()
        osrm_home, version = R.ensure_osrm()
        home = ensure_wheel(A.VALHALLA_PACKAGE, "valhalla", "valhalla/bin/valhalla_service")
        valhalla = {"home": home, "env": dict(os.environ, LD_LIBRARY_PATH=str(home / "pyvalhalla.libs"))}
        wayfinder = R.ensure_wayfinder(args)
        work = Path(args.out)
        work.mkdir(parents=True, exist_ok=True)
        steps = H.Steps(H.Budget(600, reserve_s=0), work / "logs")
        report = {"date": dt.date.today().isoformat(), "command": "python3 bench/cycling.py " + " ".join(sys.argv[1:]),
                  "osrm": version, "valhalla": A.VALHALLA_PACKAGE.split("==")[1],
                  "pairs_per_extract": args.pairs, "max_km": args.max_km, "seed": args.seed, "extracts": []}
        failed = False
        for name, pbf in G.extracts(args):
            G.log(f"cycling: {name}")
            try:
                r = run_extract(name, pbf, args, wayfinder, osrm_home, valhalla, steps, work)
            except Exception as exc:  # one broken extract is a result, not a reason to lose the run
                r = {"name": name, "error": str(exc)}
                failed = True
            report["extracts"].append(r)
            G.log(f"cycling: {name}: " + json.dumps({m: {k: r.get(m, {}).get("either", {}).get(k) for k in
                                                         ("pairs_compared", "length_within_5pct_of_one",
                                                          "duration_within_15pct_of_one", "over_1_3x_shorter_anchor")}
                                                     for m, _, _, _ in MODES}))
    text = json.dumps(report, indent=1)
    (Path(args.out) / "cycling.json").write_text(text)
    if args.results:
        write_results(args.results, report)
    print(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
