"""Alternative routes, Wayfinder against osrm-routed on the same extract and point pairs.

    python3 bench/alternatives_osrm.py --wayfinder-port P --osrm-port Q --bbox S,W,N,E [--pairs 200] [--seed 7]

Both servers must already run on 127.0.0.1 over the same extract (osrm-routed with car.lua, CH;
`wayfinder serve` on its import). For seeded random point pairs inside the box, both are asked
`/route/v1/driving/A;B?alternatives=3&overview=false`; per engine it prints, as JSON, how many
pairs were answered Ok, how many alternatives came back (in all, per pair, pairs with none) and
their stretch (duration / the main route's duration - 1), over the pairs both answered Ok.
Bounded: 2 x pairs requests, each with a 10 s timeout.
"""
import argparse
import http.client
import json
import random
import statistics

HOST = "127.0.0.1"


def get(port, path):
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", path)
        return json.loads(conn.getresponse().read() or b"{}")
    except (OSError, ValueError):
        return {}
    finally:
        conn.close()


def percentiles(values):
    if not values:
        return {}
    s = sorted(values)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]
    return {"mean": round(statistics.fmean(s), 3), "p50": round(pick(0.5), 3), "p95": round(pick(0.95), 3), "max": round(s[-1], 3)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wayfinder-port", type=int, required=True)
    ap.add_argument("--osrm-port", type=int, required=True)
    ap.add_argument("--bbox", required=True, help="S,W,N,E")
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    south, west, north, east = map(float, a.bbox.split(","))
    rng = random.Random(a.seed)
    point = lambda: (rng.uniform(west, east), rng.uniform(south, north))
    answers = {"wayfinder": [], "osrm": []}
    for _ in range(a.pairs):
        (x1, y1), (x2, y2) = point(), point()
        path = f"/route/v1/driving/{x1:.6f},{y1:.6f};{x2:.6f},{y2:.6f}?alternatives=3&overview=false"
        answers["wayfinder"].append(get(a.wayfinder_port, path))
        answers["osrm"].append(get(a.osrm_port, path))
    both = [i for i in range(a.pairs) if all(answers[e][i].get("code") == "Ok" for e in answers)]
    report = {"pairs": a.pairs, "seed": a.seed, "bbox": a.bbox, "bothOk": len(both),
              "request": "/route/v1/driving/A;B?alternatives=3&overview=false"}
    for engine, rows in answers.items():
        counts, stretch = [], []
        for i in both:
            routes = rows[i].get("routes", [])
            counts.append(max(0, len(routes) - 1))
            main_s = max(1e-9, routes[0]["duration"])
            stretch += [r["duration"] / main_s - 1 for r in routes[1:]]
        report[engine] = {"ok": sum(1 for r in rows if r.get("code") == "Ok"), "found": sum(counts),
                          "perPairMean": round(sum(counts) / max(1, len(counts)), 3),
                          "pairsWithNone": sum(1 for c in counts if c == 0), "stretch": percentiles(stretch)}
    print(json.dumps(report, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
