#!/usr/bin/env python3
"""Agreement with OSRM with the pairs whose route takes a time-limited turn restriction set apart.

    python3 bench/agreement_turns.py EXTRACT_NAME [--out .cache/bench/agreement] [--wayfinder .build/release/wayfinder]
                                     [--osrm-answers FILE.json]

Reads the answers bench/agreement.py left under OUT/NAME/answers.json, finds the extract's turn
restrictions limited in time (`day_on`/`hour_on`, `time`, `restriction:conditional`), asks
`wayfinder serve` for each pair's route shape at each hour of the run, and marks a pair as taking a
timed turn when its shape runs from the restriction's from way through the via node onto its to way.
OSRM applies such a relation at every hour; Wayfinder only inside its window, so at an hour outside
it the two disagree where the turn is legal. Prints, per hour, length within 5 % and time within 15 %
of OSRM for all pairs both routed, for those taking a timed turn and for the rest, and the failing
pairs of each. --osrm-answers takes OSRM's answers from another run's JSON ({"osrm": [...]}, in the
order of the pairs), to compare against an OSRM built with other options.
"""
import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import agreement as A  # noqa: E402
import harness as H  # noqa: E402

TIMED = ("day_on=", "hour_on=", "time=", "restriction:conditional=")


def timed_turns(extract):
    """(relation id, via node, from way, to way) of each time-limited restriction with a via node."""
    p = subprocess.run(f"osmium tags-filter -o - -f opl {extract} r/type=restriction | grep '^r'", shell=True,
                       capture_output=True, text=True, timeout=120)
    out = []
    for line in p.stdout.splitlines():
        fields = line.split(" ")
        tags = next((f[1:] for f in fields if f.startswith("T")), "")
        if not any(t in tags for t in TIMED):
            continue
        members = dict(reversed(m.split("@")) for m in next(f[1:] for f in fields if f.startswith("M")).split(",") if "@" in m)
        if members.get("via", "n")[0] == "n" and "from" in members and "to" in members:
            out.append((fields[0], int(members["via"][1:]), int(members["from"][1:]), int(members["to"][1:])))
    return out


def way_points(extract, ways):
    """way id -> [(lon, lat)] of its nodes, and node id -> (lon, lat)."""
    ids = " ".join(f"w{w}" for w in ways)
    p = subprocess.run(f"osmium getid -r -f opl {extract} {ids}", shell=True, capture_output=True, text=True, timeout=120)
    nodes, refs = {}, {}
    for line in p.stdout.splitlines():
        fields = line.split(" ")
        if line[0] == "n":
            xy = {f[0]: float(f[1:]) for f in fields if f[:1] in ("x", "y") and len(f) > 1}
            nodes[int(fields[0][1:])] = (xy["x"], xy["y"])
        elif line[0] == "w":
            refs[int(fields[0][1:])] = [int(r[1:]) for r in next(f[1:] for f in fields if f.startswith("N")).split(",")]
    return {w: [nodes[n] for n in r if n in nodes] for w, r in refs.items()}, nodes


def near(a, b, metres=1.5):
    return math.hypot((a[0] - b[0]) * math.cos(math.radians(a[1])) * 111320, (a[1] - b[1]) * 111320) < metres


def takes(points, via, before, after):
    """The shape passes via coming from a point of the from way and leaving to a point of the to way."""
    return any(near(points[i], via) and any(near(points[i - 1], q) for q in before) and any(near(points[i + 1], q) for q in after)
               for i in range(1, len(points) - 1))


def rates(rows):
    n = len(rows) or 1
    failing = [p["pair_id"] for p, o, w in rows if abs(w[1] / o[1] - 1) > 0.05 or abs(w[2] / o[2] - 1) > 0.15]
    return {"pairs": len(rows), "lengthWithin5pct": round(sum(abs(w[1] / o[1] - 1) <= 0.05 for _, o, w in rows) / n, 4),
            "timeWithin15pct": round(sum(abs(w[2] / o[2] - 1) <= 0.15 for _, o, w in rows) / n, 4), "failing": failing}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("name")
    ap.add_argument("--out", default=str(A.ROOT / ".cache" / "bench" / "agreement"))
    ap.add_argument("--wayfinder", default=str(A.ROOT / ".build" / "release" / "wayfinder"))
    ap.add_argument("--osrm-answers")
    args = ap.parse_args()
    work = Path(args.out) / args.name
    extract = next((work / "osrm").glob("*.osm.pbf"), None)
    if extract is None or not (work / "answers.json").exists():
        sys.exit(f"agreement_turns: run bench/agreement.py --extracts {args.name} first")
    run = json.loads((work / "answers.json").read_text())
    pairs, answers = run["pairs"], run["answers"]
    osrm = json.loads(Path(args.osrm_answers).read_text())["osrm"] if args.osrm_answers else answers["osrm"]
    turns = timed_turns(extract)
    shapes, nodes = way_points(extract, {w for _, _, f, t in turns for w in (f, t)})
    when = A.hours(A.dt.date.today())
    port = H.free_port()
    server = H.Server("wayfinder", [args.wayfinder, "serve", work / "dataset", "--port", port, "--quiet"], port, r"serving",
                      work / "turns_wayfinder.log")
    taken = {}
    try:
        server.wait_ready(120)
        client = H.Client(port, 30)
        for p in pairs:
            for hour, depart in when.items():
                path = H.tomtom_path(p, f"&travelMode=car&departAt={depart}").replace("routeRepresentation=summaryOnly", "routeRepresentation=polyline")
                body = json.loads(client.request("GET", path)[1])
                points = [(q["longitude"], q["latitude"]) for leg in body.get("routes", [{"legs": []}])[0]["legs"] for q in leg["points"]]
                taken[(p["pair_id"], hour)] = [r for r, via, f, t in turns if via in nodes and takes(points, nodes[via], shapes.get(f, []), shapes.get(t, []))]
    finally:
        server.stop()
    report = {"extract": args.name, "timedTurns": [{"relation": r, "via": v, "from": f, "to": t} for r, v, f, t in turns], "hours": {}}
    for hour in when:
        both = [(p, o, w) for p, o, w in zip(pairs, osrm, answers[f"wayfinder@{hour}"]) if o[0] == "Ok" and w[0] == "Ok"]
        report["hours"][hour] = {"all": rates(both), "takingATimedTurn": rates([x for x in both if taken[(x[0]["pair_id"], hour)]]),
                                 "other": rates([x for x in both if not taken[(x[0]["pair_id"], hour)]]),
                                 "turnsTaken": {p["pair_id"]: taken[(p["pair_id"], hour)] for p, _, _ in both if taken[(p["pair_id"], hour)]}}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
