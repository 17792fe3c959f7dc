#!/usr/bin/env python3
"""Draws how each engine's costs grow with the map: bench/plot.py REPORT.json OUT.png

Reads the "scale" rows of a bench/run.py report. Log-log panels; x = nodes of car roads.
Synthetic networks are joined by lines; real extracts are hollow markers. A step that was
stopped (timeout) or failed has no point. Needs matplotlib (bench/run.py installs it into
.cache/venv).
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PANELS = [
    ("Preprocessing: PBF to ready-to-query (s)", [
        ("osrm_ch_preprocess_s", "OSRM extract+contract (CH)", "#1f4e9c", "s"),
        ("osrm_mld_preprocess_s", "OSRM extract+partition+customize (MLD)", "#6fa8dc", "D"),
        ("wf_routing_import_s", "Wayfinder import, car routing only", "#d9480f", "o"),
        ("wf_full_import_s", "Wayfinder full import (all profiles, places, base map)", "#f59f00", "^"),
    ]),
    ("Preprocessing peak memory (MB)", [
        ("osrm_ch_peak_mb", "OSRM CH pipeline", "#1f4e9c", "s"),
        ("osrm_mld_peak_mb", "OSRM MLD pipeline", "#6fa8dc", "D"),
        ("wf_routing_import_peak_mb", "Wayfinder car routing import", "#d9480f", "o"),
        ("wf_full_import_peak_mb", "Wayfinder full import", "#f59f00", "^"),
    ]),
    ("Dataset size on disk (MB)", [
        ("osrm_ch_mb", "OSRM CH files", "#1f4e9c", "s"),
        ("osrm_mld_mb", "OSRM MLD files", "#6fa8dc", "D"),
        ("wf_routing_mb", "Wayfinder car routing dataset", "#d9480f", "o"),
        ("wf_full_mb", "Wayfinder full dataset", "#f59f00", "^"),
    ]),
    ("Live-traffic update, every segment (ms)", [
        ("osrm_mld_update_all_ms", "OSRM osrm-customize + speed file (wall)", "#6fa8dc", "D"),
        ("wf_update_all_total_ms", "Wayfinder POST /traffic (client wall)", "#f59f00", "^"),
        ("wf_update_all_apply_ms", "Wayfinder apply (server, after parsing)", "#d9480f", "o"),
        ("wf_customize_ms", "Wayfinder CCH customization (in process)", "#a61e4d", "v"),
    ]),
    ("Route query latency p50 (ms)", [
        ("osrm_ch_http_p50_ms", "OSRM CH over HTTP", "#1f4e9c", "s"),
        ("wf_http_p50_ms", "Wayfinder over HTTP (OSRM URL)", "#d9480f", "o"),
        ("wf_inprocess_p50_ms", "Wayfinder in process (distance)", "#a61e4d", "v"),
    ]),
    ("Serving memory after load, VmHWM (MB)", [
        ("osrm_ch_serving_mb", "osrm-routed (CH)", "#1f4e9c", "s"),
        ("osrm_mld_serving_mb", "osrm-routed (MLD)", "#6fa8dc", "D"),
        ("wf_serving_mb", "wayfinder serve, car dataset", "#d9480f", "o"),
        ("wf_full_serving_mb", "wayfinder serve, full dataset", "#f59f00", "^"),
    ]),
    ("Full import: peak memory per stage (MB)", [
        ("wf_full_stage_read_peak_mb", "reading ways and nodes", "#495057", "o"),
        ("wf_full_stage_graphs_peak_mb", "graphs (largest profile)", "#d9480f", "s"),
        ("wf_full_stage_hierarchies_peak_mb", "hierarchies (largest profile)", "#a61e4d", "v"),
        ("wf_full_stage_base_map_peak_mb", "base map", "#2b8a3e", "D"),
        ("wf_full_stage_places_peak_mb", "places", "#f59f00", "^"),
    ]),
    ("Server start-up to first answer (s)", [
        ("osrm_startup_s", "osrm-routed (CH, or MLD where no CH)", "#1f4e9c", "s"),
        ("wf_startup_s", "wayfinder serve, car dataset", "#d9480f", "o"),
        ("wf_full_startup_s", "wayfinder serve, full dataset", "#f59f00", "^"),
    ]),
]


def main():
    report_path, out = sys.argv[1], sys.argv[2]
    report = json.load(open(report_path))
    rows = [r for r in report.get("scale", []) if r.get("nodes")]
    fig, axes = plt.subplots(2, 4, figsize=(24, 10.5))
    xs_all = [r["nodes"] for r in rows]
    for ax, (title, series) in zip(axes.flat, PANELS):
        ys_all = []
        for key, label, color, marker in series:
            ys_all += [r[key] for r in rows if isinstance(r.get(key), (int, float)) and r[key] > 0]
            syn = sorted((r["nodes"], r[key]) for r in rows if r.get("synthetic") and isinstance(r.get(key), (int, float)) and r[key] > 0)
            real = [(r["nodes"], r[key], r["name"]) for r in rows if not r.get("synthetic") and isinstance(r.get(key), (int, float)) and r[key] > 0]
            if syn:
                ax.plot([x for x, _ in syn], [y for _, y in syn], marker=marker, color=color, label=label)
            if real:
                ax.scatter([x for x, _, _ in real], [y for _, y, _ in real], marker=marker, facecolors="none",
                           edgecolors=color, s=60, label=None if syn else label)
                for x, y, name in real:
                    ax.annotate(name, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7, color=color)
        ax.set_xscale("log")
        ax.set_yscale("log")
        if xs_all:
            ax.set_xlim(min(xs_all) / 2, max(xs_all) * 2)
        if ys_all:  # head-room above the data for the legend
            ax.set_ylim(min(ys_all) / 3, max(ys_all) * 30)
        ax.set_title(title, fontsize=11)
        ax.set_xlabel("nodes of car roads")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left", framealpha=0.8)
    mode = report.get("mode", "")
    fig.suptitle(f"Wayfinder vs OSRM {report.get('osrm_version', '')} — {mode} run {report.get('started', '')} "
                 f"on {report.get('machine', {}).get('nproc', '?')} cores (synthetic: lines; real extracts: hollow)", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    fig.savefig(out, dpi=90)
    print(out)


if __name__ == "__main__":
    main()
