#!/usr/bin/env python3
"""Agreement with OSRM with the time-dependent pairs set apart.

    python3 bench/agreement_split.py .cache/bench/agreement/NAME/answers.json [--early sun03] [--late tue17]

Reads the answers bench/agreement.py left for one extract. A pair is time-dependent when Wayfinder's
length or time differs between the two hours (OSRM has no time dependence); prints, per hour, the
share of pairs within 5 % of OSRM's length and 15 % of its time over all pairs both routed and over
the pairs that are not time-dependent, then the time-dependent pairs that disagree at either hour.
"""
import argparse
import json


def within(ours, theirs):
    return abs(ours[1] / theirs[1] - 1) <= 0.05, abs(ours[2] / theirs[2] - 1) <= 0.15


def shares(rows, ours, osrm):
    if not rows:
        return {"pairs": 0}
    checks = [within(ours[i], osrm[i]) for i in rows]
    return {"pairs": len(rows), "lengthWithin5pct": round(sum(c[0] for c in checks) / len(rows), 4),
            "timeWithin15pct": round(sum(c[1] for c in checks) / len(rows), 4)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("answers")
    ap.add_argument("--early", default="sun03")
    ap.add_argument("--late", default="tue17")
    args = ap.parse_args()
    d = json.load(open(args.answers))
    pairs, a = d["pairs"], d["answers"]
    osrm, early, late = a["osrm"], a[f"wayfinder@{args.early}"], a[f"wayfinder@{args.late}"]
    both = [i for i in range(len(pairs)) if osrm[i][0] == "Ok" and early[i][0] == "Ok" and late[i][0] == "Ok"]
    timed = [i for i in both if early[i][1:3] != late[i][1:3]]
    steady = [i for i in both if i not in timed]
    out = {"answers": args.answers, "timeDependentPairs": len(timed)}
    for h, ours in ((args.early, early), (args.late, late)):
        out[h] = {"all": shares(both, ours, osrm), "withoutTimeDependent": shares(steady, ours, osrm)}
    out["timeDependentDisagreeing"] = [
        {"pair": pairs[i]["pair_id"], "from": [pairs[i]["src_lon"], pairs[i]["src_lat"]], "to": [pairs[i]["dst_lon"], pairs[i]["dst_lat"]],
         args.early: early[i][1:3], args.late: late[i][1:3], "osrm": osrm[i][1:3]}
        for i in timed if not all(within(early[i], osrm[i])) or not all(within(late[i], osrm[i]))]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
