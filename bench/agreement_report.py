"""Comparisons and the markdown table for bench/agreement.py (Python 3 standard library only).

An answer is (status, length m, time s) with status "Ok", "NoRoute", "NoSegment" or another error code.
"""
import harness as H

LENGTH_TOLERANCE, TIME_TOLERANCE, SLOW_FACTOR = 0.05, 0.15, 1.5
MOVED_M = 50  # an endpoint moved further than this by OSRM's snapping: not the same trip
LISTED = 40  # at most this many pairs listed per class


def _share(count, n):
    return round(count / n, 4) if n else None


def _summary(answer):
    status, length, seconds = answer[:3]
    out = {"status": status, "lengthM": round(length, 1) if length is not None else None,
           "timeS": round(seconds, 1) if seconds is not None else None}
    if len(answer) > 3:
        out["snapM"] = answer[3]
    return out


def compare(pairs, ours, theirs):
    """Agreement of `ours` with `theirs` over the same pairs: shares within tolerance, ratio
    percentiles, pairs over 1.5x their time, and NoRoute answered by one side only."""
    both, slow, fast, ours_no, theirs_no, other = [], [], [], [], [], []
    length_ok = time_ok = moved = 0
    for row, a, b in zip(pairs, ours, theirs):
        moved += max((b[3] if len(b) > 3 else []) or [0]) > MOVED_M
        entry = {"pair": row["pair_id"], "from": [float(row["src_lon"]), float(row["src_lat"])],
                 "to": [float(row["dst_lon"]), float(row["dst_lat"])], "ours": _summary(a), "theirs": _summary(b)}
        if a[0] == "Ok" and b[0] == "Ok":
            lr = a[1] / b[1] if b[1] else (1.0 if not a[1] else float("inf"))
            tr = a[2] / b[2] if b[2] else (1.0 if not a[2] else float("inf"))
            both.append((lr, tr))
            length_ok += abs(lr - 1) <= LENGTH_TOLERANCE
            time_ok += abs(tr - 1) <= TIME_TOLERANCE
            entry["timeRatio"], entry["lengthRatio"] = round(tr, 3), round(lr, 3)
            if tr > SLOW_FACTOR:
                slow.append(entry)
            elif tr < 1 / SLOW_FACTOR:
                fast.append(entry)
        elif a[0] == "NoRoute" and b[0] == "Ok":
            ours_no.append(entry)
        elif b[0] == "NoRoute" and a[0] == "Ok":
            theirs_no.append(entry)
        elif a[0] != "NoRoute" or b[0] != "NoRoute":
            other.append(entry)
    n = len(both)
    times = sorted(t for _, t in both)
    lengths = sorted(l for l, _ in both)
    slow.sort(key=lambda e: -e["timeRatio"])
    fast.sort(key=lambda e: e["timeRatio"])
    return {
        "pairs": len(pairs), "bothRouted": n,
        "lengthWithin5pct": _share(length_ok, n), "timeWithin15pct": _share(time_ok, n),
        "timeRatio": {"p5": _r(H.pct(times, 5)), "p50": _r(H.pct(times, 50)), "p95": _r(H.pct(times, 95))},
        "lengthRatio": {"p5": _r(H.pct(lengths, 5)), "p50": _r(H.pct(lengths, 50)), "p95": _r(H.pct(lengths, 95))},
        "over1_5x": len(slow), "under1_5x": len(fast),
        "noRouteOursOnly": len(ours_no), "noRouteTheirsOnly": len(theirs_no), "otherMismatch": len(other),
        "theirSnapMovedOver50m": moved,
        "listed": {"over1_5x": slow[:LISTED], "under1_5x": fast[:LISTED // 2], "noRouteOursOnly": ours_no[:LISTED],
                   "noRouteTheirsOnly": theirs_no[:LISTED], "otherMismatch": other[:LISTED // 2]},
    }


def _r(x):
    return round(x, 3) if x is not None else None


def _pct(x):
    return "–" if x is None else f"{100 * x:.1f} %"


def markdown(report):
    lines = [f"# Route agreement, {report['date']}", "",
             "Wayfinder (`wayfinder serve`, TomTom `calculateRoute`, car, `departAt` local time) beside osrm-routed "
             f"({report['anchors']['osrm']}, car.lua, CH) and valhalla_service ({report['anchors']['valhalla']}, auto) "
             "on the same car-road node pairs (seed 42). OSRM has no time dependence; Valhalla is asked with the same "
             "`date_time` (depart at) as Wayfinder.", "",
             f"Command: `{report['command']}`", "",
             "| extract | hour | pairs both routed | vs OSRM: len ±5 % | time ±15 % | median time ratio | >1.5× | NoRoute ours / OSRM's | OSRM moved an end >50 m "
             "| vs Valhalla: len ±5 % | time ±15 % | median time ratio | >1.5× | NoRoute ours / Valhalla's | OSRM vs Valhalla: len ±5 % | time ±15 % |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for e in report["extracts"]:
        if e.get("status") != "ok":
            lines.append(f"| {e['name']} | – | – | {e.get('status')} |" + " |" * 12)
            continue
        base = e["osrmVsValhalla"]
        for hour, h in e["hours"].items():
            o, v = h["vsOSRM"], h["vsValhalla"]
            lines.append(
                f"| {e['name']} | {hour} | {o['bothRouted']} of {o['pairs']} | {_pct(o['lengthWithin5pct'])} | {_pct(o['timeWithin15pct'])} | "
                f"{o['timeRatio']['p50']} | {o['over1_5x']} | {o['noRouteOursOnly']} / {o['noRouteTheirsOnly']} | {o['theirSnapMovedOver50m']} | "
                f"{_pct(v['lengthWithin5pct'])} | {_pct(v['timeWithin15pct'])} | {v['timeRatio']['p50']} | {v['over1_5x']} | "
                f"{v['noRouteOursOnly']} / {v['noRouteTheirsOnly']} | {_pct(base['lengthWithin5pct'])} | {_pct(base['timeWithin15pct'])} |")
    lines += ["", "NoRoute ours / theirs: pairs where only Wayfinder / only the other engine said NoRoute. "
              ">1.5×: Wayfinder's time over 1.5× the other engine's. OSRM vs Valhalla: the two anchors against each other "
              "(OSRM as ours), Sunday 03:00.", ""]
    for e in report["extracts"]:
        if e.get("status") != "ok":
            continue
        for hour, h in e["hours"].items():
            for anchor in ("vsOSRM", "vsValhalla"):
                listed = h[anchor]["listed"]
                rows = [(k, x) for k in ("over1_5x", "noRouteOursOnly", "noRouteTheirsOnly") for x in listed[k]]
                if not rows:
                    continue
                lines += [f"### {e['name']}, {hour}, {anchor[2:]}", "",
                          "| class | pair | from (lon,lat) | to (lon,lat) | ours m / s | theirs m / s | OSRM's snap of from / to, m |", "|---|---|---|---|---|---|---|"]
                for k, x in rows:
                    lines.append(f"| {k} | {x['pair']} | {x['from'][0]:.6f},{x['from'][1]:.6f} | {x['to'][0]:.6f},{x['to'][1]:.6f} | "
                                 f"{_ms(x['ours'])} | {_ms(x['theirs'])} | {_snap(x)} |")
                lines.append("")
    return "\n".join(lines) + "\n"


def _snap(x):
    snaps = x["theirs"].get("snapM") or x["ours"].get("snapM")
    return " / ".join(f"{s:.0f}" for s in snaps) if snaps else "–"


def _ms(s):
    if s["status"] != "Ok":
        return s["status"]
    return f"{s['lengthM']:.0f} / {s['timeS']:.0f}"
