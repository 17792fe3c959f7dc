"""bench/run.py --scale: the country sizes (synthetic 5M, 10M and 20M nodes).

Per size, in this order (a tight budget cuts the last): Wayfinder's car-only import, OSRM's MLD
pipeline (extract, partition, customize) beside it, then Wayfinder's full import (all profiles,
places, base map; not with --skip-full-import). For each import: wall, CPU and peak memory of the
whole and of every stage (from the import's own report) and the dataset's size; each dataset
served (start-up, 1,000 pairs sequentially, wrk, VmHWM). OSRM runs only where its memory fits
beside what the machine must keep free; its CH contraction is not run (well over an hour from 5M
nodes on).
"""
import shutil

import harness as H
import targets as T

EXTRACTS = ["syn5M", "syn10M", "syn20M"]
THREADS = 2
# Memory kept free for the rest of the machine: a step whose estimated peak would eat into it is
# not started (reported as "skipped: memory").
KEEP_FREE_GB = 4.0
# Peak resident memory per million car nodes, measured at 5M (bench/results/2026-11-29): OSRM
# extract 3,312 MB (partition and customize less), used to decide where OSRM still fits.
OSRM_EXTRACT_MB_PER_MILLION = 670


def run(bench, extract):
    """One country size, the steps in the order the module's docstring gives."""
    res = bench.result
    pre_osrm, pre_wf, http = {}, {}, {}
    res["preprocessing"] = {"osrm": pre_osrm, "wayfinder": pre_wf}
    res["http"] = http
    osrm_reqs = bench.work / "wrk_osrm.tsv"
    H.write_wrk_requests(bench.pairs, H.osrm_path, osrm_reqs)
    wrk_lua = H.BENCH / "wrk_requests.lua"

    def wf_import(key, folder, extra):
        out = bench.work / f"wf_{key}.out"
        r = bench.run_step(f"wf_{key}", "wf_import_full" if key == "import_full" else "wf_import_routing",
                          [bench.wf, "import", extract, "--output", folder] + extra, stdout_path=out)
        r.update(H.parse_import_output(out.read_text(errors="replace")) if out.exists() else {})
        pre_wf[key] = r
        return r["status"] == "ok"

    wf_car, wf_full = bench.work / "wf_car", bench.work / "wf_full"
    if wf_import("import_car_routing_only", wf_car, ["--profiles", "car", "--skip-places", "--skip-basemap"]):
        pre_wf["car_routing_dataset_mb"] = H.dir_mb(wf_car)
        http["wayfinder"] = bench.serve_wayfinder(wf_car, osrm_reqs, wrk_lua, with_traffic=False, traffic=None, tag="car")
    shutil.rmtree(wf_car, ignore_errors=True)
    run_osrm(bench, extract, osrm_reqs, wrk_lua)
    # The full import last: the longest step, so a tight budget cuts it before the car comparison.
    if bench.args.skip_full_import:
        pre_wf["import_full"] = {"status": "skipped", "reason": "--skip-full-import"}
    elif wf_import("import_full", wf_full, []):
        pre_wf["full_dataset_mb"] = H.dir_mb(wf_full)
        http["wayfinder_full"] = bench.serve_wayfinder(wf_full, osrm_reqs, wrk_lua, with_traffic=False, traffic=None, tag="full")
    shutil.rmtree(wf_full, ignore_errors=True)
    return finish(bench)


def run_osrm(bench, extract, osrm_reqs, wrk_lua):
    """OSRM's MLD pipeline and osrm-routed MLD, where osrm-extract's memory fits."""
    pre_osrm, http = bench.result["preprocessing"]["osrm"], bench.result["http"]

    need_gb = OSRM_EXTRACT_MB_PER_MILLION * bench.millions / 1024
    have_gb = H.available_gb() - KEEP_FREE_GB
    pre_osrm["contract"] = {"status": "skipped", "reason": "osrm-contract (CH) needs well over an hour from 5M nodes on "
                                                         "(230 s at 1M, growing about as nodes^1.2); not run in --scale"}
    if need_gb > have_gb:
        pre_osrm["extract"] = {"status": "skipped", "reason": f"memory: osrm-extract would need about {need_gb:.1f} GB "
                                                              f"and {have_gb:.1f} GB can be used (keeping {KEEP_FREE_GB:.0f} GB free)"}
        H.log(f"{bench.name}: OSRM not run ({pre_osrm['extract']['reason']})")
        return
    mld = bench.work / "osrm_mld"
    mld.mkdir()
    (mld / f"{bench.name}.osm.pbf").symlink_to(extract)
    binp, base = bench.osrm / "bin", f"{bench.name}.osrm"
    pre_osrm["extract"] = bench.run_step("osrm_extract", "osrm_extract", [binp / "osrm-extract", "-p", bench.osrm / "share" / "profiles" / "car.lua",
                                                                        "-t", THREADS, mld / f"{bench.name}.osm.pbf"])
    previous = pre_osrm["extract"]
    for step in ("partition", "customize"):
        if previous["status"] != "ok":
            break
        previous = pre_osrm[step] = bench.run_step(f"osrm_{step}", f"osrm_{step}", [binp / f"osrm-{step}", "-t", THREADS, mld / base])
    if pre_osrm.get("customize", {}).get("status") == "ok":
        (mld / f"{bench.name}.osm.pbf").unlink()
        pre_osrm["mld_dataset_mb"] = H.dir_mb(mld)
        steps = [pre_osrm[k] for k in ("extract", "partition", "customize")]
        pre_osrm["mld_total_s"] = round(sum(st["wall_s"] for st in steps), 3)
        pre_osrm["mld_peak_mb"] = max(st["max_rss_mb"] for st in steps)
        http["osrm_mld"] = bench.serve_osrm("mld", mld / base, osrm_reqs, wrk_lua)
        http["osrm_ch"] = {"not_measured": "osrm-contract not run at country sizes; osrm-routed MLD measured instead (osrm_mld)"}
    shutil.rmtree(mld, ignore_errors=True)


def finish(bench):
    res = bench.result
    for v in res["http"].values():
        if isinstance(v, dict):
            v.pop("_answers", None)
    res["targets"] = T.evaluate_scale(bench.name, res)
    return res
