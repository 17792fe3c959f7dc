#!/usr/bin/env python3
"""Length misses of bench/agreement.py, each engine's route timed by the other: is it a tie?

    python3 bench/agreement_cross.py ANSWERS.json OSRM_PORT WAYFINDER_PORT [--hour sun03] [--tolerance 0.05]

ANSWERS.json is the answers.json bench/agreement.py leaves under OUT/NAME; the two servers are
osrm-routed and `wayfinder serve` on that extract's files (as bench/agreement_trace.py starts them).
For every pair both routed whose length is outside the tolerance of OSRM's, OSRM is asked for the
time of Wayfinder's path (Wayfinder's route geometry as via points that do not split the route,
each held to Wayfinder's heading there), and Wayfinder for the time of OSRM's path the same way
(its via points split the route into legs: a rougher figure).
Where OSRM follows our path (its length within 2 % of ours) in a time within a few percent of its
own route's, OSRM's own costs find the two roads equally quick: the miss is a tie, not a rule one
engine lacks. Prints JSON lines.
"""
import argparse
import json
import math
import urllib.request


def route(port, points, bearings=None, vias=False):
    query = "overview=full&geometries=geojson&annotations=true"
    if bearings:
        query += "&bearings=" + ";".join(bearings)
    if vias:
        query += f"&waypoints=0;{len(points) - 1}"
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/route/v1/driving/" + ";".join(points) + "?" + query, timeout=30) as r:
        body = json.load(r)
    return body["routes"][0] if body.get("code") == "Ok" else None


def bearing(p, q):
    y = math.sin(math.radians(q[0] - p[0])) * math.cos(math.radians(q[1]))
    x = (math.cos(math.radians(p[1])) * math.sin(math.radians(q[1]))
         - math.sin(math.radians(p[1])) * math.cos(math.radians(q[1])) * math.cos(math.radians(q[0] - p[0])))
    return int((math.degrees(math.atan2(y, x)) + 360) % 360)


def along(port, path, a, b, pieces=8, vias=True):
    """The engine on `port` asked to drive `path` (a route's geometry) from a to b; with vias=False
    (Wayfinder, which has no `waypoints`) the via points split the route into legs."""
    coords = path["geometry"]["coordinates"]
    step = max(2, len(coords) // pieces)
    idx = [k for k in range(step, len(coords) - 1, step) if coords[k] != coords[k + 1]]
    points = [a] + [f"{(coords[k][0] + coords[k + 1][0]) / 2},{(coords[k][1] + coords[k + 1][1]) / 2}" for k in idx] + [b]
    bearings = [""] + [f"{bearing(coords[k], coords[k + 1])},20" for k in idx] + [""]
    return route(port, points, bearings, vias=vias)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("answers")
    ap.add_argument("osrm_port")
    ap.add_argument("wayfinder_port")
    ap.add_argument("--hour", default="sun03")
    ap.add_argument("--tolerance", type=float, default=0.05)
    args = ap.parse_args()
    d = json.load(open(args.answers))
    for i, p in enumerate(d["pairs"]):
        o, w = d["answers"]["osrm"][i], d["answers"][f"wayfinder@{args.hour}"][i]
        if o[0] != "Ok" or w[0] != "Ok" or abs(w[1] / o[1] - 1) <= args.tolerance:
            continue
        a, b = f"{p['src_lon']},{p['src_lat']}", f"{p['dst_lon']},{p['dst_lat']}"
        row = {"pair": p["pair_id"], "lengthRatio": round(w[1] / o[1], 3), "timeRatio": round(w[2] / o[2], 3)}
        try:
            osrm, ours = route(args.osrm_port, [a, b]), route(args.wayfinder_port, [a, b])
            theirs_on_ours, ours_on_theirs = along(args.osrm_port, ours, a, b), along(args.wayfinder_port, osrm, a, b, vias=False)
            row.update(osrm=[round(osrm["distance"]), round(osrm["duration"], 1)], ours=[round(ours["distance"]), round(ours["duration"], 1)],
                       osrmOnOurPath=theirs_on_ours and [round(theirs_on_ours["distance"]), round(theirs_on_ours["duration"], 1)],
                       oursOnOSRMPath=ours_on_theirs and [round(ours_on_theirs["distance"]), round(ours_on_theirs["duration"], 1)])
            if theirs_on_ours:
                # OSRM may refuse part of our path (a turn it bans) and drive round: then it is no tie.
                row["osrmFollowedOurPath"] = abs(theirs_on_ours["distance"] / ours["distance"] - 1) < 0.02
                row["osrmRatesOurPath"] = round(theirs_on_ours["duration"] / osrm["duration"], 3)
            if ours_on_theirs:
                row["weRateOSRMPath"] = round(ours_on_theirs["duration"] / ours["duration"], 3)
        except (OSError, ValueError, KeyError, TypeError) as e:
            row["error"] = str(e)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
