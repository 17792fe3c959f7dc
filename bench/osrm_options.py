"""OSRM's per-request options, Wayfinder against osrm-routed side by side on the same extract.

    python3 bench/osrm_options.py --wayfinder-port P --osrm-port Q [--pairs 60] [--seed 7] [--bbox S,W,N,E]

Both servers must already run on 127.0.0.1 over the same extract (osrm-routed with car.lua,
`wayfinder serve` on its import). For seeded random point pairs inside the box, each variant
(no option, `exclude`, `radiuses`, `bearings`, `approaches`, `snapping`) is asked of both; per
variant it prints, as JSON: how often the answer codes agree, how often the snapped waypoints
agree (within 5 m), and the median ratio of route distances (Wayfinder / OSRM) where both
answer Ok. Durations are not compared here (the time models differ; bench/run.py compares
them). Bounded: pairs × variants requests, each with a 10 s timeout.
"""
import argparse
import http.client
import json
import math
import random
import statistics
import sys

HOST = "127.0.0.1"


def get(port, path):
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return json.loads(r.read() or b"{}")
    finally:
        conn.close()


def meters(a, b):
    dx = (a[0] - b[0]) * 111_320 * math.cos(math.radians(a[1]))
    dy = (a[1] - b[1]) * 110_540
    return math.hypot(dx, dy)


def variants(rng):
    b1, b2 = rng.randrange(0, 360), rng.randrange(0, 360)
    return {
        "none": "",
        "exclude=motorway": "exclude=motorway",
        "exclude=toll": "exclude=toll",
        "exclude=ferry": "exclude=ferry",
        "radiuses=15;15": "radiuses=15;15",
        "radiuses=60;unlimited": "radiuses=60;unlimited",
        "bearings=b,45;b,45": f"bearings={b1},45;{b2},45",
        "bearings=b,20;": f"bearings={b1},20;",
        "approaches=curb;curb": "approaches=curb;curb",
        "approaches=opposite;curb": "approaches=opposite;curb",
        "snapping=any": "snapping=any",
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wayfinder-port", type=int, required=True)
    ap.add_argument("--osrm-port", type=int, required=True)
    ap.add_argument("--pairs", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bbox", default="43.727,7.411,43.748,7.436", help="south,west,north,east (default: Monaco)")
    args = ap.parse_args()
    s, w, n, e = map(float, args.bbox.split(","))
    rng = random.Random(args.seed)
    stats = {}
    for _ in range(min(args.pairs, 500)):
        a = (round(rng.uniform(w, e), 5), round(rng.uniform(s, n), 5))
        b = (round(rng.uniform(w, e), 5), round(rng.uniform(s, n), 5))
        for name, query in variants(rng).items():
            path = f"/route/v1/driving/{a[0]},{a[1]};{b[0]},{b[1]}?overview=false" + (f"&{query}" if query else "")
            ours, theirs = get(args.wayfinder_port, path), get(args.osrm_port, path)
            st = stats.setdefault(name, {"n": 0, "same_code": 0, "both_ok": 0, "same_snaps": 0, "ratios": [], "codes": {}})
            st["n"] += 1
            pair = f"{ours.get('code')}/{theirs.get('code')}"
            st["codes"][pair] = st["codes"].get(pair, 0) + 1
            if ours.get("code") == theirs.get("code"):
                st["same_code"] += 1
            if ours.get("code") == "Ok" and theirs.get("code") == "Ok":
                st["both_ok"] += 1
                snaps = zip(ours["waypoints"], theirs["waypoints"])
                if all(meters(x["location"], y["location"]) < 5 for x, y in snaps):
                    st["same_snaps"] += 1
                if theirs["routes"][0]["distance"] > 0:
                    st["ratios"].append(ours["routes"][0]["distance"] / theirs["routes"][0]["distance"])
    out = {"anchor": "osrm-routed (car.lua, MLD)", "pairs": args.pairs, "seed": args.seed, "bbox": args.bbox, "variants": {}}
    for name, st in stats.items():
        ratios = sorted(st["ratios"])
        out["variants"][name] = {
            "requests": st["n"],
            "same_code_share": round(st["same_code"] / st["n"], 3),
            "both_ok": st["both_ok"],
            "same_snapped_waypoints_share": round(st["same_snaps"] / st["both_ok"], 3) if st["both_ok"] else None,
            "distance_ratio_median": round(statistics.median(ratios), 3) if ratios else None,
            "distance_ratio_within_5pct_share": round(sum(0.95 <= r <= 1.05 for r in ratios) / len(ratios), 3) if ratios else None,
            "codes_wayfinder_over_osrm": st["codes"],
        }
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
