#!/usr/bin/env python3
"""Turn-by-turn guidance beside osrm-routed's steps, on the same routes, in one run.

  bench/guidance.py                        every extract of ../shared/data (and the Helsinki sample)
  bench/guidance.py --extracts monaco-2016,porto_portugal-2015   a subset (file stems or .osm.pbf paths)
  bench/guidance.py --pairs 300            routes drawn per extract (default 200, seed 42)

Per extract: `wayfinder import --profiles car` and OSRM 26.10 (car.lua, MLD) on the same file, both
served on 127.0.0.1, then `/route/v1/driving/…?steps=true` for the same origin/destination pairs on
both. Only routes whose lengths agree within 3 % are compared (the same road taken, more or less).
Printed as one JSON report (also written to OUT/guidance.json, and as a table to OUT/guidance.md):

- steps per route, ours and OSRM's (median, p90), and their ratio at the median;
- the share of "same-name" steps on each side: a `new name`, `continue`, `fork` or `turn` that goes
  straight or slightly left or right onto the name (or, unnamed, the ref) of the step before;
- decisions matched: every OSRM step that is a decision (a turn other than straight, a ramp, a
  fork, the end of a road, a roundabout or its exit) that both routes make (our line passes its
  point and the points 25 m along OSRM's ways into and out of it, within 8 m) has a step of ours within
  30 m; the same over all kept routes, whether or not ours makes that decision, is reported beside.

Exit status: 0 when every extract ran, 1 when one failed, 2 on bad usage.
"""
import argparse
import contextlib
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as H  # noqa: E402
import run as R  # noqa: E402
import sample as S  # noqa: E402

SAME_NAME_TYPES = {"new name", "continue", "fork", "turn"}
GENTLE = {"straight", "slight left", "slight right"}
DECISION_TYPES = {"on ramp", "off ramp", "fork", "end of road", "roundabout", "rotary", "roundabout turn",
                  "exit roundabout", "exit rotary"}
MATCH_METERS = 30.0
AHEAD_METERS = 25.0  # a decision is on our route too when our line passes its point and this far along OSRM's ways in and out
ON_LINE_METERS = 8.0


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def extracts(args):
    if args.extracts:
        names = args.extracts.split(",")
    else:
        names = sorted(p.stem.replace(".osm", "") for p in (R.SHARED / "data").glob("*.osm.pbf"))
    out = []
    for n in names:
        p = Path(n)
        if not p.exists():
            p = R.SHARED / "data" / f"{n}.osm.pbf"
        if not p.exists() and n == "helsinki":
            p = R.CACHE / "samples" / "helsinki.osm.pbf"
        if not p.exists():
            sys.exit(f"guidance: no extract {n}")
        out.append((p.name.replace(".osm.pbf", ""), p))
    return out


def port():
    return random.SystemRandom().randint(20000, 60000)


def distance_m(a, b):
    lat = math.radians((a[1] + b[1]) / 2)
    dx = math.radians(b[0] - a[0]) * math.cos(lat) * 6371008.8
    dy = math.radians(b[1] - a[1]) * 6371008.8
    return math.hypot(dx, dy)


def side(modifier):
    m = modifier or "straight"
    if "left" in m:
        return "left"
    if "right" in m:
        return "right"
    return m  # straight, uturn


def is_decision(step):
    t, m = step["maneuver"]["type"], step["maneuver"].get("modifier")
    if t in DECISION_TYPES:
        return True
    if t == "turn" and m not in (None, "straight"):
        return True
    if t == "continue" and m not in (None, "straight", "slight left", "slight right"):
        return True
    return False


def same_name(step, previous):
    t, m = step["maneuver"]["type"], step["maneuver"].get("modifier")
    if t not in SAME_NAME_TYPES or m not in GENTLE:
        return False
    if step["name"]:
        return step["name"] == previous["name"]
    return bool(step.get("ref")) and step.get("ref") == previous.get("ref")


def route_steps(body):
    """(distance, steps, line) of the first route; steps keep their own geometry's first points."""
    j = json.loads(body)
    if j.get("code") != "Ok" or not j.get("routes"):
        return None
    r = j["routes"][0]
    steps = [s for leg in r["legs"] for s in leg["steps"]]
    previous = None
    for s in steps:
        line = s["geometry"]["coordinates"]
        s["ahead"] = point_along(line, AHEAD_METERS)
        s["behind"] = point_along(previous[::-1], AHEAD_METERS) if previous else line[0]
        previous = line
    for s in steps:
        del s["geometry"], s["intersections"]
    return r["distance"], steps, r["geometry"]["coordinates"]


def point_along(line, meters):
    left = meters
    for a, b in zip(line, line[1:]):
        d = distance_m(a, b)
        if d >= left and d > 0:
            f = left / d
            return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f]
        left -= d
    return line[-1]


def distance_to_line(p, line):
    """Metres from p to a polyline (lon/lat pairs), in a local flat frame."""
    lat = math.radians(p[1])
    kx, ky = math.cos(lat) * 111320.0, 110540.0
    best = float("inf")
    px, py = p[0] * kx, p[1] * ky
    for a, b in zip(line, line[1:]):
        ax, ay, bx, by = a[0] * kx, a[1] * ky, b[0] * kx, b[1] * ky
        dx, dy = bx - ax, by - ay
        L = dx * dx + dy * dy
        t = 0 if L == 0 else max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / L))
        best = min(best, math.hypot(ax + t * dx - px, ay + t * dy - py))
    return best


def analyse(pairs_ours, pairs_osrm):
    kept = []
    for ours, theirs in zip(pairs_ours, pairs_osrm):
        if not ours or not theirs:
            continue
        if theirs[0] <= 0 or abs(ours[0] - theirs[0]) / theirs[0] > 0.03:
            continue
        kept.append((ours[1], theirs[1], ours[2]))
    res = {"routes_compared": len(kept)}
    if not kept:
        return res
    counts_ours = sorted(len(o) for o, _, _ in kept)
    counts_osrm = sorted(len(t) for _, t, _ in kept)
    med_o, med_t = statistics.median(counts_ours), statistics.median(counts_osrm)
    res["steps_per_route"] = {
        "wayfinder": {"median": med_o, "p90": H.pct(counts_ours, 90), "mean": round(statistics.mean(counts_ours), 2)},
        "osrm": {"median": med_t, "p90": H.pct(counts_osrm, 90), "mean": round(statistics.mean(counts_osrm), 2)},
        "ratio_at_median": round(med_o / med_t, 3) if med_t else None,
        "ratio_at_p90": round(H.pct(counts_ours, 90) / H.pct(counts_osrm, 90), 3) if H.pct(counts_osrm, 90) else None,
    }
    share = {}
    for label, idx in (("wayfinder", 0), ("osrm", 1)):
        total = same = 0
        for pair in kept:
            steps = pair[idx]
            total += len(steps)
            same += sum(1 for a, b in zip(steps, steps[1:]) if same_name(b, a))
        share[label] = round(100 * same / max(1, total), 2)
    share["difference_points"] = round(share["wayfinder"] - share["osrm"], 2)
    res["same_name_steps_percent"] = share
    decisions = matched = strict = 0
    shared = shared_matched = 0
    by_kind = {}
    misses = []
    for ours, theirs, line in kept:
        our_points = [(s["maneuver"]["location"], side(s["maneuver"].get("modifier")), s["maneuver"]["type"])
                      for s in ours if s["maneuver"]["type"] not in ("depart", "arrive")]
        for s in theirs:
            if not is_decision(s):
                continue
            kind = s["maneuver"]["type"]
            loc = s["maneuver"]["location"]
            decisions += 1
            near = [p for p in our_points if distance_m(p[0], loc) <= MATCH_METERS]
            # The same decision: our route passes the point and goes the same way out of it.
            on_ours = all(distance_to_line(p, line) <= ON_LINE_METERS for p in (loc, s["ahead"], s["behind"]))
            k = by_kind.setdefault(kind, {"n": 0, "matched": 0, "shared": 0, "shared_matched": 0})
            k["n"] += 1
            if on_ours:
                shared += 1
                k["shared"] += 1
                if near:
                    shared_matched += 1
                    k["shared_matched"] += 1
            if near:
                matched += 1
                k["matched"] += 1
                want = side(s["maneuver"].get("modifier"))
                if kind.startswith("exit ") or kind in ("roundabout", "rotary") or any(p[1] == want for p in near):
                    strict += 1
            elif on_ours and len(misses) < 25:
                misses.append({"type": kind, "modifier": s["maneuver"].get("modifier"), "location": loc, "name": s["name"]})
    res["decisions"] = {
        "osrm_decision_steps": decisions,
        "on_both_routes": shared,
        "matched_within_30m_percent": round(100 * shared_matched / max(1, shared), 2),
        "all_routes_matched_within_30m_percent": round(100 * matched / max(1, decisions), 2),
        "all_routes_matched_same_side_percent": round(100 * strict / max(1, decisions), 2),
        "by_type": {k: dict(v, percent=round(100 * v["shared_matched"] / max(1, v["shared"]), 1)) for k, v in sorted(by_kind.items())},
        "first_misses": misses}
    return res


def fetch(port_number, rows, lang=None):
    client = H.Client(port_number, timeout=120)
    out = []
    extra = f"&language={lang}" if lang else ""
    for r in rows:
        status, body = client.request("GET", H.osrm_path(r, "overview=full&geometries=geojson&alternatives=false&steps=true" + extra))
        out.append(route_steps(body) if status == 200 else None)
    client.close()
    return out


def run_extract(name, pbf, args, wayfinder, osrm_home, work):
    t0 = time.monotonic()
    d = work / name
    d.mkdir(parents=True, exist_ok=True)
    result = {"name": name, "extract": str(pbf)}
    pairs_csv = d / f"pairs_{args.pairs}_seed{args.seed}.csv"
    if not pairs_csv.exists():
        nodes, _ = S.car_roads(pbf, d)
        S.write_pairs(nodes, pairs_csv, n=args.pairs, seed=args.seed)
    rows = R.load_pairs(pairs_csv)
    # OSRM once per extract (its answers do not change with our code).
    osrm_dir = d / "osrm"
    osrm_file = osrm_dir / "map.osrm"
    if not (osrm_dir / "map.osrm.mldgr").exists():
        shutil.rmtree(osrm_dir, ignore_errors=True)
        osrm_dir.mkdir(parents=True)
        shutil.copy(pbf, osrm_dir / "map.osm.pbf")
        lua = osrm_home / "share" / "osrm" / "profiles" / "car.lua"
        if not lua.exists():
            lua = next(osrm_home.rglob("profiles/car.lua"))
        for cmd in ([osrm_home / "bin" / "osrm-extract", "-p", lua, "-t", "2", osrm_dir / "map.osm.pbf"],
                    [osrm_home / "bin" / "osrm-partition", osrm_file], [osrm_home / "bin" / "osrm-customize", osrm_file]):
            subprocess.run([str(c) for c in cmd], check=True, capture_output=True, cwd=osrm_dir, timeout=1800)
    wf_dir = d / "wayfinder"
    if not args.reuse_import or not (wf_dir / "manifest.json").exists():
        shutil.rmtree(wf_dir, ignore_errors=True)
        subprocess.run([str(wayfinder), "import", str(pbf), "--output", str(wf_dir), "--profiles", "car",
                        "--skip-places", "--skip-basemap"], check=True, capture_output=True, timeout=1800)
    answers = {}
    for label, cmd, ready in (("osrm", [osrm_home / "bin" / "osrm-routed", "--ip", H.HOST, "--port", "{p}", "-a", "MLD", "-t", "2", osrm_file],
                               r"running and waiting for requests"),
                              ("wayfinder", [wayfinder, "serve", wf_dir, "--host", H.HOST, "--port", "{p}", "--quiet"], r"wayfinder serving")):
        p = port()
        srv = H.Server(label, [str(c).replace("{p}", str(p)) for c in cmd], p, ready, d / f"log_{label}.txt")
        try:
            srv.wait_ready()
            answers[label] = fetch(p, rows)
        finally:
            srv.stop()
    result.update(analyse(answers["wayfinder"], answers["osrm"]))
    result["routes_asked"] = len(rows)
    result["routes_found"] = {k: sum(1 for a in v if a) for k, v in answers.items()}
    result["seconds"] = round(time.monotonic() - t0, 1)
    if args.dump:
        (d / "answers.json").write_text(json.dumps({"rows": rows, **answers}))
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--extracts", help="comma-separated extract names (stems in ../shared/data) or paths")
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--out", default=str(R.CACHE / "bench" / "guidance"))
    ap.add_argument("--wayfinder", help="a built wayfinder binary (default: build release)")
    ap.add_argument("--build-path", default=str(R.ROOT / ".build"))
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--reuse-import", action="store_true", help="keep an earlier import of the same extract")
    ap.add_argument("--dump", action="store_true", help="keep both engines' answers in OUT/NAME/answers.json")
    args = ap.parse_args()
    with contextlib.redirect_stdout(sys.stderr):  # the helpers log to stdout; keep it for the report
        report, failed = run_all(args)
    text = json.dumps(report, indent=1)
    (Path(args.out) / "guidance.json").write_text(text)
    (Path(args.out) / "guidance.md").write_text(markdown(report))
    print(text)
    return 1 if failed else 0


def markdown(report):
    """The per-extract table: each measure beside OSRM's in the same run, and the issue's targets."""
    lines = [f"Guidance beside osrm-routed {report['osrm']} ({report['pairs_per_extract']} pairs per extract, seed {report['seed']}; "
             "routes whose lengths agree within 3 %). Targets: steps per route at most 1.1x OSRM's at the median; same-name "
             "steps at most OSRM's share plus one point; at least 95 % of OSRM's decisions on both routes matched within 30 m.", "",
             "| extract | routes | steps per route, median (ours / OSRM) | ratio at median | ratio at p90 | same-name % (ours / OSRM) "
             "| difference (points) | OSRM decisions on both routes | matched within 30 m | targets |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for e in report["extracts"]:
        if "error" in e:
            lines.append(f"| {e['name']} | error: {e['error'][:120]} | | | | | | | | |")
            continue
        s, n, d = e["steps_per_route"], e["same_name_steps_percent"], e["decisions"]
        met = [("steps", s["ratio_at_median"] <= 1.1), ("same-name", n["difference_points"] <= 1.0),
               ("decisions", d["matched_within_30m_percent"] >= 95)]
        lines.append(f"| {e['name']} | {e['routes_compared']} | {s['wayfinder']['median']} / {s['osrm']['median']} | "
                     f"{s['ratio_at_median']} | {s['ratio_at_p90']} | {n['wayfinder']} / {n['osrm']} | {n['difference_points']:+} | "
                     f"{d['on_both_routes']} | {d['matched_within_30m_percent']} % | "
                     + ", ".join(f"{k} {'met' if ok else 'MISSED'}" for k, ok in met) + " |")
    return "\n".join(lines) + "\n"


def run_all(args):
    R.ensure_debian_tools()
    osrm_home, version = R.ensure_osrm()
    wayfinder = R.ensure_wayfinder(args)
    work = Path(args.out).resolve()  # the OSRM tools run inside their own folder
    work.mkdir(parents=True, exist_ok=True)
    report = {"osrm": version, "pairs_per_extract": args.pairs, "seed": args.seed, "extracts": []}
    failed = False
    for name, pbf in extracts(args):
        log(f"guidance: {name}")
        try:
            r = run_extract(name, pbf, args, wayfinder, osrm_home, work)
        except Exception as exc:  # one broken extract is a result, not a reason to lose the run
            r = {"name": name, "error": str(exc)}
            failed = True
        report["extracts"].append(r)
        brief = {k: r.get(k) for k in ("routes_compared",)}
        log(f"guidance: {name}: {json.dumps(brief)} "
              f"ratio {r.get('steps_per_route', {}).get('ratio_at_median')} "
              f"same-name {r.get('same_name_steps_percent')} "
              f"decisions {r.get('decisions', {}).get('matched_within_30m_percent')} %")
    return report, failed


if __name__ == "__main__":
    sys.exit(main())
