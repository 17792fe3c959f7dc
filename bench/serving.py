#!/usr/bin/env python3
"""Serving memory at country size: Wayfinder's car profile beside osrm-routed, same requests.

  bench/serving.py --extract X.osm.pbf --wayfinder BIN --out DIR [--osrm ch|mld|none]
                   [--dataset FOLDER] [--full-dataset FOLDER] [--pairs 1000]

Per extract, in one run: Wayfinder's car-only import (or --dataset as it is), OSRM's car pipeline
(CH: extract + contract; MLD: extract + partition + customize) under /usr/bin/time -v, then each
server in turn on 127.0.0.1: start-up time, the same 1,000 route requests one at a time over one
keep-alive connection, and its memory after them from /proc/PID/status (VmHWM, and VmRSS split
into RssAnon, the process's own allocations, and RssFile, the mapped dataset pages it touched).
--full-dataset serves a full import (all profiles, places, base map) the same way. Prints one
JSON report (and writes it to OUT/serving.json) with Wayfinder's figures as ratios of OSRM's.
"""
import argparse
import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as H  # noqa: E402
import resident_columns as R  # noqa: E402
import sample as S  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OSRM_HOME = ROOT / ".cache" / "anchors" / "osrm" / "osrm"
THREADS = 2
STEP_S = 3600


def run_step(steps, label, cmd, out_dir):
    return steps.run(label, cmd, STEP_S, stdout_path=out_dir / f"{label}.out")


def osrm_pipeline(args, steps, extract, work):
    """OSRM's car profile files; returns (step results, .osrm base path or None)."""
    folder = work / f"osrm_{args.osrm}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    pbf = folder / "map.osm.pbf"
    pbf.symlink_to(extract)
    binp, base = OSRM_HOME / "bin", folder / "map.osrm"
    res = {"extract": run_step(steps, "osrm_extract", [binp / "osrm-extract", "-p", OSRM_HOME / "share" / "profiles" / "car.lua",
                                                         "-t", THREADS, pbf], work)}
    later = ("contract",) if args.osrm == "ch" else ("partition", "customize")
    for step in later:
        if res[list(res)[-1]]["status"] != "ok":
            return res, None
        res[step] = run_step(steps, f"osrm_{step}", [binp / f"osrm-{step}", "-t", THREADS, base], work)
    if res[later[-1]]["status"] != "ok":
        return res, None
    pbf.unlink()
    res["dataset_mb"] = H.dir_mb(folder)
    res["total_wall_s"] = round(sum(r["wall_s"] for r in res.values() if isinstance(r, dict)), 2)
    res["total_cpu_s"] = round(sum(r.get("user_s", 0) + r.get("sys_s", 0) for r in res.values() if isinstance(r, dict)), 2)
    res["peak_mb"] = max(r["max_rss_mb"] for r in res.values() if isinstance(r, dict))
    return res, base


def serve(label, cmd, port, ready, pairs, log_path, mapped=None):
    """`mapped`: a data file the server maps, whose resident pages are counted per column."""
    srv = H.Server(label, cmd, port, ready, log_path)
    out = {}
    try:
        out["startup_s"] = srv.wait_ready(timeout=600)
        out["memory_at_start"] = srv.memory()
        if mapped:
            out["graph_resident_at_start"] = top_columns(R.resident(srv.proc.pid, mapped))
        out["sequential"], _ = H.sequential(port, pairs, H.osrm_path, H.parse_osrm)
        out["memory"] = srv.memory()
        if mapped:
            out["graph_resident"] = top_columns(R.resident(srv.proc.pid, mapped))
        H.log(f"{label}: start-up {out['startup_s']} s, p50 {out['sequential'].get('p50_ms')} ms, "
              f"memory {out['memory']}")
    except Exception as exc:  # a crashed server is a result
        out["error"] = str(exc)
    finally:
        srv.stop()
    return out


def top_columns(resident, n=12):
    if "columns" in resident:
        resident["columns"] = resident["columns"][:n]
    return resident


def serve_wayfinder(wf, dataset, pairs, work, tag):
    port = H.free_port()
    graph = next(Path(dataset).glob("data-*/graph.wfg"), None)
    return serve(f"wayfinder serve {tag}", [wf, "serve", dataset, "--port", port, "--quiet"], port,
                 r"wayfinder serving", pairs, work / f"log_wayfinder_{tag}.txt", mapped=graph)


def serve_osrm(algorithm, base, pairs, work):
    port = H.free_port()
    return serve(f"osrm-routed {algorithm}", [OSRM_HOME / "bin" / "osrm-routed", "--ip", H.HOST, "--port", port,
                                              "-a", algorithm.upper(), "-t", THREADS, base],
                 port, r"running and waiting for requests", pairs, work / f"log_osrm_{algorithm}.txt")


def ratio(a, b):
    return round(a / b, 3) if a and b else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--extract", required=True)
    ap.add_argument("--wayfinder", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--osrm", choices=("ch", "mld", "none"), default="ch")
    ap.add_argument("--dataset", help="serve this car dataset instead of importing one")
    ap.add_argument("--full-dataset", help="also serve this full dataset")
    ap.add_argument("--osrm-files", help="serve these OSRM files (BASE.osrm, made by --osrm's pipeline) instead of making them")
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--keep", action="store_true", help="keep the datasets made here")
    args = ap.parse_args()
    extract, wf = Path(args.extract).resolve(), Path(args.wayfinder).resolve()
    work = Path(args.out).resolve()
    work.mkdir(parents=True, exist_ok=True)
    steps = H.Steps(H.Budget(24 * 60), work)
    report = {"extract": str(extract), "wayfinder": str(wf), "machine_shared": True,
              "loadavg_at_start": open("/proc/loadavg").read().split()[:3],
              "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}

    nodes, _ = S.car_roads(extract, work, with_segments=False)
    S.write_pairs(nodes, work / "pairs.csv", n=args.pairs, seed=42)
    report["car_nodes"] = len(nodes[0])
    del nodes
    pairs = S_load(work / "pairs.csv")

    made = []
    dataset = Path(args.dataset) if args.dataset else None
    if dataset is None:
        dataset = work / "wf_car"
        shutil.rmtree(dataset, ignore_errors=True)
        r = run_step(steps, "wf_import_car", [wf, "import", extract, "--output", dataset, "--profiles", "car",
                                              "--skip-places", "--skip-basemap"], work)
        out = work / "wf_import_car.out"
        r.update(H.parse_import_output(out.read_text(errors="replace")) if out.exists() else {})
        report["wayfinder_import_car"] = r
        made.append(dataset)
    report["wayfinder_car_dataset_mb"] = H.dir_mb(dataset)
    report["wayfinder_car"] = serve_wayfinder(wf, dataset, pairs, work, "car")
    if args.full_dataset:
        report["wayfinder_full_dataset_mb"] = H.dir_mb(Path(args.full_dataset))
        report["wayfinder_full"] = serve_wayfinder(wf, Path(args.full_dataset), pairs, work, "full")

    if args.osrm != "none" and args.osrm_files:
        report["osrm_files"], base = args.osrm_files, Path(args.osrm_files)
        report[f"osrm_routed_{args.osrm}"] = serve_osrm(args.osrm, base, pairs, work)
    elif args.osrm != "none":
        report["osrm_pipeline"], base = osrm_pipeline(args, steps, extract, work)
        made.append(work / f"osrm_{args.osrm}")
        if base is not None:
            report[f"osrm_routed_{args.osrm}"] = serve_osrm(args.osrm, base, pairs, work)
    report["ratios_wayfinder_to_osrm"] = ratios(report, args.osrm)
    if not args.keep:
        for folder in made:
            shutil.rmtree(folder, ignore_errors=True)
    text = json.dumps(report, indent=2)
    (work / "serving.json").write_text(text + "\n")
    print(text)


def ratios(report, algorithm):
    osrm = report.get(f"osrm_routed_{algorithm}", {})
    ours = report.get("wayfinder_car", {})
    mem_o, mem_w = osrm.get("memory", {}), ours.get("memory", {})
    out = {"VmHWM": ratio(mem_w.get("VmHWM_mb"), mem_o.get("VmHWM_mb")),
           "startup": ratio(ours.get("startup_s"), osrm.get("startup_s")),
           "p50": ratio(ours.get("sequential", {}).get("p50_ms"), osrm.get("sequential", {}).get("p50_ms")),
           "dataset": ratio(report.get("wayfinder_car_dataset_mb"), report.get("osrm_pipeline", {}).get("dataset_mb"))}
    full = report.get("wayfinder_full", {}).get("memory", {})
    if full:
        out["full_VmHWM_to_car_VmHWM"] = ratio(full.get("VmHWM_mb"), mem_w.get("VmHWM_mb"))
    return out


def S_load(path):
    import csv
    with open(path) as f:
        return list(csv.DictReader(f))


if __name__ == "__main__":
    main()
