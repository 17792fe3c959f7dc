#!/usr/bin/env python3
"""Our bicycle routes beside OSRM's with and without the turn osrm-extract makes up at a signal.

  bench/cycling_signals.py --out DIR [--extracts helsinki,...] [--results PREFIX]

osrm-extract prices a traffic signal on a node it would otherwise compress by calling the profile's
turn function on a made-up turn: two roads, no U-turn, angle 180 (ExtractionTurn keeps 180 minus
the angle it is given, and the made-up turn is given 0). bicycle.lua squares the angle, so every
such signal costs 6 / 1.4 x 2^2 = 17.1 s besides its 2 s `traffic_signal_penalty`, in both
directions; at a junction a signal costs the 2 s and the turn. Our profile charges the 2 s only.

This rebuilds OSRM's bicycle data from the same extract with bicycle.lua's turn function reading
that made-up turn as straight on (nothing else changed), asks it the pairs of an earlier
`bench/cycling.py --out DIR` run (DIR/NAME/answers.json), and reports our bicycle answers of that
run beside OSRM as shipped and beside the rebuilt one, with the same shares as bench/cycling.py;
the rebuilt OSRM's answers are kept as DIR/NAME/answers-straight-signals.json (bench/cycling_trace.py
reads them).
A diagnostic of where the disagreement lies, not an anchor: the anchor stays OSRM as shipped.
"""
import argparse
import contextlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cycling as CY  # noqa: E402
import cycling_report as C  # noqa: E402
import guidance as G  # noqa: E402
import harness as H  # noqa: E402
import run as R  # noqa: E402

TURN_LINE = "  local normalized_angle = turn.angle / 90.0\n"
STRAIGHT = (TURN_LINE + "  if turn.number_of_roads == 2 and not turn.is_u_turn and math.abs(turn.angle) == 180 then\n"
            "    normalized_angle = 0\n  end\n")


def straight_signal_profiles(osrm_home, d):
    """A copy of OSRM's profiles whose bicycle.lua reads the made-up signal turn as straight on."""
    src = next(osrm_home.rglob("profiles/bicycle.lua")).parent
    dst = d / "profiles-straight-signals"
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    lua = dst / "bicycle.lua"
    text = lua.read_text()
    if text.count(TURN_LINE) != 1:
        raise RuntimeError("bicycle.lua's turn function is not the one this script patches")
    lua.write_text(text.replace(TURN_LINE, STRAIGHT))
    return lua


def build(osrm_home, pbf, d):
    osrm_dir = d / "osrm-bicycle-straight-signals"
    osrm_file = osrm_dir / "map.osrm"
    if not (osrm_dir / "map.osrm.mldgr").exists():
        lua = straight_signal_profiles(osrm_home, d)
        shutil.rmtree(osrm_dir, ignore_errors=True)
        osrm_dir.mkdir(parents=True)
        shutil.copy(pbf, osrm_dir / "map.osm.pbf")
        for cmd in ([osrm_home / "bin" / "osrm-extract", "-p", lua, "-t", "2", osrm_dir / "map.osm.pbf"],
                    [osrm_home / "bin" / "osrm-partition", osrm_file], [osrm_home / "bin" / "osrm-customize", osrm_file]):
            subprocess.run([str(c) for c in cmd], check=True, capture_output=True, cwd=osrm_dir, timeout=1800)
    return osrm_file


def ask(osrm_home, osrm_file, rows, d):
    p = H.free_port()
    srv = H.Server("osrm", [osrm_home / "bin" / "osrm-routed", "--ip", H.HOST, "--port", str(p), "-a", "MLD", "-t", "2",
                            osrm_file], p, r"running and waiting for requests", d / "log_osrm_straight_signals.txt")
    try:
        srv.wait_ready()
        return CY.fetch(p, rows, "driving")
    finally:
        srv.stop()


def summary(r):
    o, e = r["vs_osrm"], r["either"]
    return {"pairs": e.get("pairs_compared"), "length_osrm": o.get("length_within_5pct"),
            "length_one": e.get("length_within_5pct_of_one"), "time_osrm": o.get("duration_within_15pct"),
            "time_one": e.get("duration_within_15pct_of_one"), "median_time_ratio_osrm": o.get("median_duration_ratio"),
            "over_1_3x": e.get("over_1_3x_shorter_anchor")}


def markdown(report):
    f = C._f
    lines = ["# Bicycle: OSRM as shipped beside OSRM without its made-up signal turn", "",
             f"`{report['command']}` (our answers and OSRM's as shipped: `{report['out']}`)", "",
             "| extract | pairs | length ±5 % OSRM / one: shipped → straight | time ±15 % OSRM / one: shipped → straight "
             "| median time ratio OSRM: shipped → straight | >1.3x: shipped → straight |",
             "|---|---|---|---|---|---|"]
    for x in report["extracts"]:
        if "error" in x:
            lines.append(f"| {x['name']} | {x['error'][:80]} | | | | |")
            continue
        a, b = x["shipped"], x["straight"]
        lines.append(f"| {x['name']} | {a['pairs']} | {f(a['length_osrm'])} / {f(a['length_one'])} → {f(b['length_osrm'])} / "
                     f"{f(b['length_one'])} | {f(a['time_osrm'])} / {f(a['time_one'])} → {f(b['time_osrm'])} / {f(b['time_one'])} "
                     f"| {f(a['median_time_ratio_osrm'])} → {f(b['median_time_ratio_osrm'])} | {a['over_1_3x']} → {b['over_1_3x']} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="the --out folder of a bench/cycling.py run")
    ap.add_argument("--extracts", help="comma-separated extract names (default: every NAME with DIR/NAME/answers.json)")
    ap.add_argument("--results", help="write the report as RESULTS.json and RESULTS.md too")
    args = ap.parse_args()
    work = Path(args.out)
    if not args.extracts:
        args.extracts = ",".join(sorted(p.parent.name for p in work.glob("*/answers.json")))
    if not args.extracts:
        ap.error(f"no answers.json under {work}")
    with contextlib.redirect_stdout(sys.stderr):
        osrm_home, version = R.ensure_osrm()
        report = {"command": "python3 bench/cycling_signals.py " + " ".join(sys.argv[1:]), "out": str(work), "osrm": version,
                  "extracts": []}
        for name, pbf in G.extracts(args):
            d = work / name
            try:
                saved = json.loads((d / "answers.json").read_text())
                rows, answers = saved["pairs"], saved["answers"]
                straight = ask(osrm_home, build(osrm_home, pbf, d), rows, d)
                (d / "answers-straight-signals.json").write_text(json.dumps({"pairs": rows, "osrm_bicycle": straight}))
                ours, valhalla = answers["wayfinder"]["bicycle"], answers["valhalla"]["bicycle"]
                report["extracts"].append({
                    "name": name,
                    "shipped": summary(C.compare(rows, ours, answers["osrm"]["bicycle"], valhalla)),
                    "straight": summary(C.compare(rows, ours, straight, valhalla))})
            except Exception as exc:  # one broken extract is a result, not a reason to lose the run
                report["extracts"].append({"name": name, "error": str(exc)})
            G.log(f"cycling_signals: {json.dumps(report['extracts'][-1])}")
    text = json.dumps(report, indent=1)
    if args.results:
        prefix = Path(args.results)
        prefix.parent.mkdir(parents=True, exist_ok=True)
        prefix.with_name(prefix.name + ".json").write_text(text)
        prefix.with_name(prefix.name + ".md").write_text(markdown(report))
    print(text)
    return 1 if any("error" in x for x in report["extracts"]) else 0


if __name__ == "__main__":
    sys.exit(main())
