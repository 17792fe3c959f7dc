"""Comparisons and the markdown table of bench/cycling.py: ours beside OSRM and Valhalla, per mode.

An answer is (metres, seconds, metres pushed) or None. Shares are of the pairs the sides compared all answer.
"""
import statistics

LENGTH_TOLERANCE, TIME_TOLERANCE, DETOUR = 0.05, 0.15, 1.3


def _share(flags):
    flags = list(flags)
    return round(sum(flags) / len(flags), 3) if flags else None


def _near(x, y, tolerance):
    return abs(x / y - 1) <= tolerance


def against(ours, theirs, rows):
    """Ours beside one anchor."""
    both = [(o, t, r) for o, t, r in zip(ours, theirs, rows) if o and t and t[0] > 0 and t[1] > 0]
    out = {"pairs_compared": len(both),
           "only_ours": sum(1 for o, t in zip(ours, theirs) if o and not t),
           "only_anchor": sum(1 for o, t in zip(ours, theirs) if t and not o)}
    if not both:
        return out
    out.update({
        "length_within_5pct": _share(_near(o[0], t[0], LENGTH_TOLERANCE) for o, t, _ in both),
        "duration_within_15pct": _share(_near(o[1], t[1], TIME_TOLERANCE) for o, t, _ in both),
        "over_1_3x_length": sum(1 for o, t, _ in both if o[0] > DETOUR * t[0]),
        "median_length_ratio": round(statistics.median(o[0] / t[0] for o, t, _ in both), 3),
        "median_duration_ratio": round(statistics.median(o[1] / t[1] for o, t, _ in both), 3),
    })
    return out


def either(ours, osrm, valhalla, rows):
    """The issue's targets: within tolerance of at least one anchor; over 1.3x the shorter anchor's length."""
    all3 = [(o, a, b, r) for o, a, b, r in zip(ours, osrm, valhalla, rows)
            if o and a and b and min(a[0], b[0], a[1], b[1]) > 0]
    out = {"pairs_compared": len(all3)}
    if not all3:
        return out
    detours = [{"pair": r["pair_id"], "ours_m": round(o[0]), "osrm_m": round(a[0]), "valhalla_m": round(b[0]),
                "ours_pushed_m": round(o[2]), "osrm_pushed_m": round(a[2]),
                "from": [float(r["src_lon"]), float(r["src_lat"])], "to": [float(r["dst_lon"]), float(r["dst_lat"])]}
               for o, a, b, r in all3 if o[0] > DETOUR * min(a[0], b[0])]
    out.update({
        "length_within_5pct_of_one": _share(_near(o[0], a[0], LENGTH_TOLERANCE) or _near(o[0], b[0], LENGTH_TOLERANCE)
                                            for o, a, b, _ in all3),
        "duration_within_15pct_of_one": _share(_near(o[1], a[1], TIME_TOLERANCE) or _near(o[1], b[1], TIME_TOLERANCE)
                                               for o, a, b, _ in all3),
        "over_1_3x_shorter_anchor": len(detours),
        "detours": detours[:20],
        "anchors_length_within_5pct": _share(_near(a[0], b[0], LENGTH_TOLERANCE) for _, a, b, _ in all3),
        "anchors_duration_within_15pct": _share(_near(a[1], b[1], TIME_TOLERANCE) for _, a, b, _ in all3),
    })
    return out


def compare(rows, ours, osrm, valhalla):
    both = [(o, t) for o, t in zip(ours, osrm) if o and t]
    return {
        "vs_osrm": against(ours, osrm, rows),
        "vs_valhalla": against(ours, valhalla, rows),
        "either": either(ours, osrm, valhalla, rows),
        "pushed_m": {"ours": round(sum(o[2] for o, _ in both)), "osrm": round(sum(t[2] for _, t in both))},
        "pairs_with_pushing": {"ours": sum(1 for o, _ in both if o[2] > 0), "osrm": sum(1 for _, t in both if t[2] > 0)},
    }


def _f(x):
    return "–" if x is None else (f"{x:.3f}".rstrip("0").rstrip(".") if isinstance(x, float) else str(x))


def markdown(report, modes):
    lines = [f"# Cycling and walking beside OSRM and Valhalla ({report['date']})", "",
             f"`{report['command']}`" + (f" (Wayfinder: {report['wayfinder']})" if report.get("wayfinder") else ""), "",
             f"Anchors: OSRM {report['osrm']} (bicycle.lua, foot.lua, MLD), Valhalla {report['valhalla']} "
             f"(`bicycle` and `pedestrian` costing, default options). {report['pairs_per_extract']} pairs of car-road nodes "
             f"per extract (seed {report['seed']}, straight line under {report['max_km']} km). Shares are of the pairs "
             "every side answers: length within 5 %, time within 15 % of OSRM, of Valhalla, and of at least one of "
             "the two (the issue's target: 0.9); \">1.3x\" counts our routes over 1.3x the shorter anchor's length; "
             "\"anchors\" is OSRM beside Valhalla, the anchors' own spread.", ""]
    for mode, title in modes:
        lines += [f"## {title}", "",
                  "| extract | pairs | length ±5 % OSRM / Valhalla / one | time ±15 % OSRM / Valhalla / one | >1.3x | "
                  "median time ratio OSRM / Valhalla | anchors length / time | m pushed ours / OSRM |",
                  "|---|---|---|---|---|---|---|---|"]
        for e in report["extracts"]:
            m = e.get(mode)
            if not m:
                lines.append(f"| {e['name']} | {e.get('error', 'not run')[:100]} | | | | | | |")
                continue
            o, v, x = m["vs_osrm"], m["vs_valhalla"], m["either"]
            lines.append(
                f"| {e['name']} | {x['pairs_compared']} | {_f(o.get('length_within_5pct'))} / {_f(v.get('length_within_5pct'))} / "
                f"**{_f(x.get('length_within_5pct_of_one'))}** | {_f(o.get('duration_within_15pct'))} / "
                f"{_f(v.get('duration_within_15pct'))} / **{_f(x.get('duration_within_15pct_of_one'))}** | "
                f"{_f(x.get('over_1_3x_shorter_anchor'))} | {_f(o.get('median_duration_ratio'))} / {_f(v.get('median_duration_ratio'))} | "
                f"{_f(x.get('anchors_length_within_5pct'))} / {_f(x.get('anchors_duration_within_15pct'))} | "
                f"{m['pushed_m']['ours']} / {m['pushed_m']['osrm']} |")
        lines.append("")
        for e in report["extracts"]:
            for d in (e.get(mode) or {}).get("either", {}).get("detours", []):
                lines.append(f"- {e['name']} pair {d['pair']}: ours {d['ours_m']} m, OSRM {d['osrm_m']} m, "
                             f"Valhalla {d['valhalla_m']} m ({d['from'][1]:.5f},{d['from'][0]:.5f} → {d['to'][1]:.5f},{d['to'][0]:.5f})")
        lines.append("")
    return "\n".join(lines)
