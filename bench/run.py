#!/usr/bin/env python3
"""Wayfinder against OSRM, side by side in one run (issue 5 §2–§4).

  bench/run.py --quick                 Helsinki only, about a minute; what the test suite runs
  bench/run.py                         full: Milan, Porto (../shared/data) and synthetic 100k, 1M, 5M
  bench/run.py --extracts syn100k,milan   any subset: helsinki, milan, porto, synN (syn20k, syn100k,
                                          syn1M, syn5M: `wayfinder generate`, seed 1), .osm.pbf paths
  bench/run.py --scale                 country sizes: synthetic 5M, 10M and 20M (own budget, 150 min):
                                          Wayfinder's car and full imports (time and peak memory of every
                                          stage), dataset sizes and serving memory and start-up; OSRM's
                                          MLD pipeline and osrm-routed MLD where they fit in memory
  bench/run.py --plan                  print the steps and their time budgets, run nothing

Per extract and engine: (a) preprocessing under /usr/bin/time -v — OSRM extract+contract (CH) and
extract+partition+customize (MLD) against `wayfinder import --profiles car --skip-places
--skip-basemap`, with the literal `--profiles car --skip-places` and the full import beside;
(b) live-traffic updates of 1 %, 10 % and 100 % of the car segments (OSRM: osrm-customize with
--segment-speed-file; Wayfinder: POST /traffic/1/speeds to the running server); (c) in-process
query latency (`wayfinder bench routing` / `bench directions`; OSRM has no in-process number
here); (d) HTTP: 1,000 fixed pairs sequentially over one keep-alive connection and `wrk -t2 -c8`
for both servers; (e) server memory after the load (VmHWM) and dataset sizes. Prints one JSON
report, writes it to OUT/report.json and draws OUT/scale.png.

Everything runs on 127.0.0.1. OSRM 26.10 comes from the PyPI wheel osrm-bindings (its binaries
need no Python) into .cache/anchors; matplotlib goes into .cache/venv. Each step has a timeout
from its own budget and the run's overall one (--budget-minutes, default 60 for the full run):
a step that would take longer is stopped and reported with status "timeout", and steps after the
overall budget is used up are reported as "skipped". While an extract runs, the time the extracts
still to come need (apart from their slowest steps) is kept free. Steps run in order of
importance: both engines' comparable preprocessing, traffic updates and serving first, then
`bench directions`, the other imports, and OSRM's CH contraction (by far the slowest step on big
maps) last, followed by osrm-routed CH — or osrm-routed MLD when the CH did not finish.

Exit status: 0 when every step that ran finished (timeouts are reported, not failures), 1 when a
step failed or crashed, 2 on bad usage.
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as H  # noqa: E402
import sample as S  # noqa: E402
import scale  # noqa: E402
import targets as T  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
CACHE = Path(os.environ.get("WAYFINDER_CACHE", ROOT / ".cache"))
ANCHORS = CACHE / "anchors"
VENV = CACHE / "venv"
SHARED = Path(os.environ.get("WAYFINDER_SHARED", ROOT.parent / "shared"))
OSRM_PACKAGE = "osrm-bindings==26.10.0"
MATPLOTLIB = "matplotlib==3.10.*"
THREADS = 2

def synthetic_nodes(name):
    """"syn100k" -> 100000, "syn5M" -> 5000000, "syn20k" -> 20000; None for other names."""
    import re
    m = re.fullmatch(r"syn(\d+(?:\.\d+)?)([kKmM]?)", name)
    if not m:
        return None
    return int(float(m.group(1)) * {"": 1, "k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6}[m.group(2)])


REAL = {"helsinki": ["data/helsinki.osm.pbf"], "milan": ["data/milan_italy_small.osm.pbf"],
        "porto": ["data/porto_portugal-2015.osm.pbf"]}
QUICK = ["helsinki"]
FULL = ["milan", "porto", "syn100k", "syn1M", "syn5M"]
SCALE = scale.EXTRACTS

# Per-step budgets in seconds: base + per million car nodes (the overall deadline caps them too).
STEP_BUDGET = {
    "generate": (60, 30), "wf_import_routing": (120, 120), "osrm_extract": (120, 120),
    "osrm_partition": (120, 60), "osrm_customize": (120, 30), "osrm_update": (120, 30), "wf_bench_routing": (120, 150),
    "osrm_contract": (180, 900), "wf_bench_directions": (120, 120), "wf_import_car": (120, 150),
    "wf_import_full": (180, 300),
}
# Rough sizes (millions of car nodes) used only for budgets before the extract is sampled.
SIZE_GUESS = {"helsinki": 0.01, "milan": 0.15, "porto": 0.3}


def size_guess(name):
    return synthetic_nodes(name) / 1e6 if synthetic_nodes(name) else SIZE_GUESS.get(name, 0.5)


def essential_seconds(millions):
    """What an extract needs for everything but the CH contraction, bench directions and the full
    import: kept free for the extracts still to come while a slow step of this one runs."""
    return 60 + 130 * millions


BUDGET_SCALE = 1.0  # --step-budget-scale


def budget_for(step, millions):
    base, per = STEP_BUDGET[step]
    return (base + per * millions) * BUDGET_SCALE


# ----------------------------------------------------------------------------------- set-up
def ensure_debian_tools():
    missing = [pkg for tool, pkg in (("osmium", "osmium-tool"), ("wrk", "wrk")) if not shutil.which(tool)]
    if not os.path.exists("/usr/bin/time"):
        missing.append("time")
    if not missing:
        return
    if os.geteuid() != 0:
        sys.exit(f"bench: missing Debian packages {missing}; install them with apt-get")
    H.log(f"installing Debian packages: {' '.join(missing)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    r = subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing, env=env, capture_output=True)
    if r.returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing, env=env, check=True)


def ensure_osrm():
    """OSRM binaries from the osrm-bindings wheel (they need no Python) under .cache/anchors/osrm."""
    home = ANCHORS / "osrm" / "osrm"
    routed = home / "bin" / "osrm-routed"
    if not routed.exists():
        wheels = ANCHORS / "wheels"
        wheels.mkdir(parents=True, exist_ok=True)
        H.log(f"fetching OSRM from PyPI ({OSRM_PACKAGE})")
        pip = [sys.executable, "-m", "pip"] if subprocess.run([sys.executable, "-m", "pip", "--version"],
                                                               capture_output=True).returncode == 0 else ["pip3"]
        subprocess.run(pip + ["download", "-q", "--no-deps", "--only-binary=:all:", "--python-version", "3.12",
                              "--platform", "manylinux_2_28_x86_64", "-d", str(wheels), OSRM_PACKAGE], check=True)
        wheel = sorted(wheels.glob("osrm_bindings-26.10.0-*.whl"))[-1]
        target = ANCHORS / "osrm"
        shutil.rmtree(target, ignore_errors=True)
        with zipfile.ZipFile(wheel) as z:
            z.extractall(target)
    for b in (home / "bin").iterdir():
        b.chmod(b.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    version = subprocess.run([str(routed), "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    return home, (version[-1] if version else "?")


def ensure_matplotlib():
    py = VENV / "bin" / "python"
    if not py.exists():
        H.log("creating .cache/venv")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if subprocess.run([str(py), "-c", "import matplotlib"], capture_output=True).returncode != 0:
        H.log(f"installing {MATPLOTLIB} into .cache/venv")
        subprocess.run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", MATPLOTLIB], check=True)
    return py


def ensure_wayfinder(args):
    if args.wayfinder:
        return Path(args.wayfinder).resolve()
    build_path = Path(args.build_path).resolve()
    if not args.no_build:
        H.log(f"building wayfinder (release, {build_path})")
        r = subprocess.run(["swift", "build", "-c", "release", "--product", "wayfinder", "--build-path", str(build_path)],
                           cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("bench: swift build failed:\n" + (r.stdout + r.stderr)[-3000:])
    binary = build_path / "release" / "wayfinder"
    if not binary.exists():
        sys.exit(f"bench: no wayfinder binary at {binary}")
    return binary


def machine_info():
    info = {"nproc": os.cpu_count(), "kernel": platform.release(), "python": platform.python_version()}
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                info["mem_total_gib"] = round(int(line.split()[1]) / 1048576, 1)
        info["loadavg_at_start"] = open("/proc/loadavg").read().split()[:3]
    except OSError:
        pass
    return info


# ----------------------------------------------------------------------------------- one extract
def resolve_extract(name):
    if synthetic_nodes(name):
        return None
    if name in REAL:
        for rel in REAL[name]:
            if (SHARED / rel).exists():
                return SHARED / rel
        if name == "helsinki" and (CACHE / "samples" / "helsinki.osm.pbf").exists():
            return CACHE / "samples" / "helsinki.osm.pbf"
        return None
    p = Path(name)
    return p.resolve() if p.exists() else None


def read_json(path):
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None


def load_pairs(path):
    import csv
    with open(path) as f:
        return list(csv.DictReader(f))


class ExtractBench:
    def __init__(self, name, args, wayfinder, osrm_home, steps, budget, out_dir, reserve_later_s=0):
        self.name, self.args, self.wf, self.osrm = name, args, wayfinder, osrm_home
        self.reserve_later_s = reserve_later_s
        self.steps, self.budget = steps, budget
        self.work = out_dir / "work" / name
        self.result = {"name": name}
        self.millions = size_guess(name)

    def run_step(self, label, step_kind, cmd, **kw):
        return self.steps.run(f"{self.name}_{label}", cmd, budget_for(step_kind, self.millions),
                              reserve_s=self.reserve_later_s, **kw)

    # ------------------------------------------------------------------ inputs
    def prepare_inputs(self):
        shutil.rmtree(self.work, ignore_errors=True)
        self.work.mkdir(parents=True)
        res = self.result
        if synthetic_nodes(self.name):
            nodes = synthetic_nodes(self.name)
            extract = self.work.parent.parent / "data" / f"{self.name}-seed{self.args.seed}.osm.pbf"
            extract.parent.mkdir(parents=True, exist_ok=True)
            gen_json = self.work / "generate.json"
            r = self.run_step("generate", "generate", [self.wf, "generate", "--nodes", nodes, "--output", extract,
                                                        "--seed", self.args.seed], stdout_path=gen_json)
            res["generate"] = {"step": r, "summary": read_json(gen_json)}
            if r["status"] != "ok":
                return None
        else:
            extract = resolve_extract(self.name)
            if extract is None:
                res["status"] = "missing extract"
                H.log(f"{self.name}: extract not found, skipped")
                return None
        res["extract"] = str(extract)
        res["extract_mb"] = round(extract.stat().st_size / 1048576, 2)
        res["synthetic"] = bool(synthetic_nodes(self.name))

        # Car nodes, pairs and speed files in one pass over the car roads (no speed files at
        # country sizes: --scale measures imports and serving, not traffic updates).
        t0 = time.monotonic()
        H.log(f"{self.name}: sampling car roads (pairs{'' if self.args.scale else ', speed files'})")
        nodes, segments = S.car_roads(extract, self.work, with_segments=not self.args.scale)
        self.millions = max(0.01, len(nodes[0]) / 1e6)
        res["car_nodes"], res["car_segments"] = len(nodes[0]), len(segments)
        shared_pairs = SHARED / "bench" / self.name / "pairs.csv"
        pairs = self.work / "pairs.csv"
        if shared_pairs.exists() and self.name in REAL:
            shutil.copy(shared_pairs, pairs)
            res["pairs_source"] = str(shared_pairs)
        else:
            S.write_pairs(nodes, pairs, n=self.args.pairs, seed=42)
            res["pairs_source"] = "drawn from the extract's car-road nodes, seed 42"
        self.speeds = {}
        lines = {}
        for pct in () if self.args.scale else (1, 10, 100):
            path = self.work / f"speeds_{pct}pct.csv"
            lines[f"{pct}%"] = S.write_speeds(segments, path, pct / 100, seed=7, kmh=15)
            self.speeds[pct] = path
        del nodes, segments
        res["speed_files"] = {"lines": lines, "kmh": 15, "seed": 7,
                              "note": "both directions of a random share of the undirected car-road segments (osm_sample.py rules)"}
        res["sampling_s"] = round(time.monotonic() - t0, 2)
        self.pairs = load_pairs(pairs)[: self.args.pairs]
        res["pairs"] = len(self.pairs)
        return extract

    # ------------------------------------------------------------------ engines
    def run(self):
        """Steps in order of importance, so a tight budget cuts the least useful ones: both engines'
        comparable preprocessing, traffic updates and serving first; OSRM's CH contraction (the
        slowest step of all by far on big maps) last, its server after it."""
        extract = self.prepare_inputs()
        if extract is None:
            return self.result
        if self.args.scale:
            return scale.run(self, extract)
        res = self.result
        pre_osrm, pre_wf = {}, {}
        res["preprocessing"] = {"osrm": pre_osrm, "wayfinder": pre_wf}
        traffic = {"osrm_mld_customize_with_speed_file": {}, "wayfinder_http": {},
                   "osrm_ch": "a CH has no customization: a traffic update is a full osrm-contract with "
                              "--segment-speed-file, as long as the contract step (not rerun here)"}
        res["traffic_update"] = traffic
        http = {}
        res["http"] = http
        res["in_process"] = {"osrm": "not measured: OSRM has no in-process query timing in this harness (libosrm "
                                     "through the Node/Python bindings is not used); see the HTTP numbers"}
        if self.args.directions_queries:
            self.directions_queries = self.args.directions_queries
        else:
            self.directions_queries = 200 if self.args.quick else (300 if self.millions < 1 else 100)
        res["directions_queries"] = self.directions_queries

        # 1. Wayfinder's routing-only import (the pipeline comparable to OSRM's car pipelines).
        wf_car = self.work / "wf_car"
        out = self.work / "wf_import_routing.out"
        r = self.run_step("wf_import_routing", "wf_import_routing",
                          [self.wf, "import", extract, "--output", wf_car, "--profiles", "car", "--skip-places", "--skip-basemap"],
                          stdout_path=out)
        r.update(H.parse_import_output(out.read_text(errors="replace")) if out.exists() else {})
        pre_wf["import_car_routing_only"] = r
        if r["status"] == "ok":
            pre_wf["car_routing_dataset_mb"] = H.dir_mb(wf_car)

        # 2. OSRM extract, MLD (partition + customize) and its traffic updates.
        ch, mld = self.work / "osrm_ch", self.work / "osrm_mld"
        ch.mkdir()
        mld.mkdir()
        (ch / f"{self.name}.osm.pbf").symlink_to(extract)
        prof = self.osrm / "share" / "profiles" / "car.lua"
        binp = self.osrm / "bin"
        base = f"{self.name}.osrm"
        r = self.run_step("osrm_extract", "osrm_extract", [binp / "osrm-extract", "-p", prof, "-t", THREADS, ch / f"{self.name}.osm.pbf"])
        pre_osrm["extract"] = r
        osrm_ok = r["status"] == "ok"
        mld_ok = False
        if osrm_ok:
            for f in ch.iterdir():
                if f.name.startswith(base):
                    shutil.copy(f, mld / f.name)
            pre_osrm["partition"] = self.run_step("osrm_partition", "osrm_partition", [binp / "osrm-partition", "-t", THREADS, mld / base])
            if pre_osrm["partition"]["status"] == "ok":
                pre_osrm["customize"] = self.run_step("osrm_customize", "osrm_customize", [binp / "osrm-customize", "-t", THREADS, mld / base])
            mld_ok = pre_osrm.get("customize", {}).get("status") == "ok"
            if mld_ok:
                pre_osrm["mld_dataset_mb"] = H.dir_mb(mld)
                for pct in (1, 10, 100):
                    tmp = self.work / "osrm_mld_traffic"
                    shutil.rmtree(tmp, ignore_errors=True)
                    shutil.copytree(mld, tmp)
                    traffic["osrm_mld_customize_with_speed_file"][f"{pct}%"] = self.run_step(
                        f"osrm_customize_traffic_{pct}pct", "osrm_update",
                        [binp / "osrm-customize", "-t", THREADS, "--segment-speed-file", self.speeds[pct], tmp / base])
                    shutil.rmtree(tmp, ignore_errors=True)

        # 3. Wayfinder in process: the CCH alone (customization, distance and path queries).
        bench_json = self.work / "wf_bench_routing.json"
        cmd = [self.wf, "bench", "routing", extract, "--queries", 1000]
        if (SHARED / "bench" / self.name / "osrm_ch_answers.csv").exists() and self.name in REAL:
            cmd += ["--osrm", SHARED / "bench" / self.name]
        r = self.run_step("wf_bench_routing", "wf_bench_routing", cmd, stdout_path=bench_json)
        res["in_process"]["wayfinder_bench_routing"] = {"step": r, "report": read_json(bench_json)}

        # 4. wayfinder serve (car dataset): latency, load, memory, depart/arrive-at, live traffic.
        wrk_lua = BENCH / "wrk_requests.lua"
        osrm_reqs = self.work / "wrk_osrm.tsv"
        H.write_wrk_requests(self.pairs, H.osrm_path, osrm_reqs)
        if pre_wf["import_car_routing_only"]["status"] == "ok":
            http["wayfinder"] = self.serve_wayfinder(wf_car, osrm_reqs, wrk_lua, with_traffic=True, traffic=traffic)

        # 5. Directions in process (depart-at, arrive-at, alternatives; it imports on its own).
        dir_json = self.work / "wf_bench_directions.json"
        r = self.run_step("wf_bench_directions", "wf_bench_directions",
                          [self.wf, "bench", "directions", extract, "--queries", self.directions_queries], stdout_path=dir_json)
        res["in_process"]["wayfinder_bench_directions"] = {"step": r, "report": read_json(dir_json)}

        # 6. The literal car import (base map included) and the full import beside it.
        out = self.work / "wf_import_car.out"
        r = self.run_step("wf_import_car", "wf_import_car",
                          [self.wf, "import", extract, "--output", self.work / "wf_car_basemap", "--profiles", "car", "--skip-places"],
                          stdout_path=out)
        r.update(H.parse_import_output(out.read_text(errors="replace")) if out.exists() else {})
        pre_wf["import_car_with_basemap"] = r
        if r["status"] == "ok":
            pre_wf["car_basemap_dataset_mb"] = H.dir_mb(self.work / "wf_car_basemap")
        shutil.rmtree(self.work / "wf_car_basemap", ignore_errors=True)
        if not self.args.skip_full_import:
            wf_full = self.work / "wf_full"
            out = self.work / "wf_import_full.out"
            r = self.run_step("wf_import_full", "wf_import_full", [self.wf, "import", extract, "--output", wf_full], stdout_path=out)
            r.update(H.parse_import_output(out.read_text(errors="replace")) if out.exists() else {})
            pre_wf["import_full"] = r
            if r["status"] == "ok":
                pre_wf["full_dataset_mb"] = H.dir_mb(wf_full)
                http["wayfinder_full"] = self.serve_wayfinder(wf_full, osrm_reqs, wrk_lua, with_traffic=False, traffic=None)
            shutil.rmtree(wf_full, ignore_errors=True)

        # 7. OSRM's CH last: its contraction grows fastest with the map. Then osrm-routed CH (or,
        # when the CH did not finish in its budget, osrm-routed MLD so HTTP is still compared).
        r = {"status": "skipped", "reason": "osrm-extract did not finish"}
        if osrm_ok:
            r = self.run_step("osrm_contract", "osrm_contract", [binp / "osrm-contract", "-t", THREADS, ch / base])
        pre_osrm["contract"] = r
        if r["status"] == "ok":
            pre_osrm["ch_dataset_mb"] = H.dir_mb(ch)
            http["osrm_ch"] = self.serve_osrm("ch", ch / base, osrm_reqs, wrk_lua)
        elif mld_ok:
            http["osrm_mld"] = self.serve_osrm("mld", mld / base, osrm_reqs, wrk_lua)
            http["osrm_ch"] = {"not_measured": f"osrm-contract {r['status']}; osrm-routed MLD measured instead (osrm_mld)"}

        # Totals, agreement, targets.
        def ok(step):
            return step and step.get("status") == "ok"
        e, c, p, cu = (pre_osrm.get(k) for k in ("extract", "contract", "partition", "customize"))
        if ok(e) and ok(c):
            pre_osrm["ch_total_s"] = round(e["wall_s"] + c["wall_s"], 3)
            pre_osrm["ch_peak_mb"] = max(e["max_rss_mb"], c["max_rss_mb"])
        if ok(e) and ok(p) and ok(cu):
            pre_osrm["mld_total_s"] = round(e["wall_s"] + p["wall_s"] + cu["wall_s"], 3)
            pre_osrm["mld_peak_mb"] = max(e["max_rss_mb"], p["max_rss_mb"], cu["max_rss_mb"])
        osrm_server = "osrm_ch" if "_answers" in http.get("osrm_ch", {}) else "osrm_mld"
        if "_answers" in http.get("wayfinder", {}) and "_answers" in http.get(osrm_server, {}):
            http[f"agreement_wayfinder_vs_{osrm_server}"] = H.compare_answers(http["wayfinder"]["_answers"],
                                                                              http[osrm_server]["_answers"])
        for v in http.values():
            if isinstance(v, dict):
                v.pop("_answers", None)
        res["targets"] = T.evaluate(self.name, res)
        if not self.args.keep:
            for d in ("osrm_ch", "osrm_mld", "wf_car"):
                shutil.rmtree(self.work / d, ignore_errors=True)
        return res

    def serve_osrm(self, algorithm, dataset, reqs, lua):
        port = H.free_port()
        srv = H.Server(f"osrm-routed {algorithm}", [self.osrm / "bin" / "osrm-routed", "--ip", H.HOST, "--port", port,
                                                    "-a", algorithm.upper(), "-t", THREADS, dataset],
                       port, r"running and waiting for requests", self.work / f"log_osrm_routed_{algorithm}.txt")
        out = {"algorithm": algorithm, "threads": THREADS}
        try:
            out["startup_s"] = srv.wait_ready()
            out["sequential"], answers = H.sequential(port, self.pairs, H.osrm_path, H.parse_osrm)
            out["_answers"] = answers
            out["memory_after_sequential"] = srv.memory()
            out["wrk"] = H.run_wrk(port, reqs, self.args.wrk_seconds, lua)
            out["memory_after_load"] = srv.memory()
            H.log(f"{self.name} osrm-routed {algorithm}: p50 {out['sequential'].get('p50_ms')} ms, p99 "
                  f"{out['sequential'].get('p99_ms')} ms, {out['wrk'].get('rps')} req/s, VmHWM {out['memory_after_load'].get('VmHWM_mb')} MB")
        except Exception as exc:  # a crashed server is a result, not a reason to lose the run
            out["error"] = str(exc)
            self.steps.results.append({"label": f"{self.name}_osrm_routed_{algorithm}", "status": "failed", "error": str(exc)})
        finally:
            srv.stop()
        return out

    def serve_wayfinder(self, dataset, reqs, lua, with_traffic, traffic, tag=None):
        port = H.free_port()
        tag = tag or ("car" if with_traffic else "full")
        srv = H.Server(f"wayfinder serve {tag}", [self.wf, "serve", dataset, "--port", port, "--quiet",
                                                  "--max-body-bytes", 1 << 30],
                       port, r"wayfinder serving", self.work / f"log_wayfinder_serve_{tag}.txt")
        out = {"dataset": tag}
        try:
            out["startup_s"] = srv.wait_ready()
            out["sequential"], answers = H.sequential(port, self.pairs, H.osrm_path, H.parse_osrm)
            out["_answers"] = answers
            if with_traffic:
                out["sequential_tomtom_url"], _ = H.sequential(port, self.pairs, H.tomtom_path, H.parse_tomtom)
            out["memory_after_sequential"] = srv.memory()
            out["wrk"] = H.run_wrk(port, reqs, self.args.wrk_seconds if with_traffic or tag == "car" else max(2, self.args.wrk_seconds // 2), lua)
            out["memory_after_load"] = srv.memory()
            H.log(f"{self.name} wayfinder serve {tag}: p50 {out['sequential'].get('p50_ms')} ms, p99 "
                  f"{out['sequential'].get('p99_ms')} ms, {out['wrk'].get('rps')} req/s, VmHWM {out['memory_after_load'].get('VmHWM_mb')} MB")
            if with_traffic:
                n = min(len(self.pairs), self.directions_queries)
                out["depart_at_http"], _ = H.sequential(port, self.pairs[:n], lambda r: H.tomtom_path(r, "&departAt=08:00"),
                                                        H.parse_tomtom, warmup=10)
                out["arrive_at_http"], _ = H.sequential(port, self.pairs[:n], lambda r: H.tomtom_path(r, "&arriveAt=09:00"),
                                                        H.parse_tomtom, warmup=10)
                traffic["wayfinder_http"] = self.wayfinder_traffic(port, dataset, answers)
                out["memory_after_traffic"] = srv.memory()
        except Exception as exc:
            out["error"] = str(exc)
            self.steps.results.append({"label": f"{self.name}_wayfinder_serve_{tag}", "status": "failed", "error": str(exc)})
        finally:
            srv.stop()
        return out

    def wayfinder_traffic(self, port, dataset, before):
        """POST each speed file 3 times (clearing live traffic between), then check routes changed."""
        result = {"endpoint": "POST /traffic/1/speeds (OSRM speed CSV)", "repeats": 3}
        for pct in (1, 10, 100):
            body = Path(self.speeds[pct]).read_bytes()
            runs = []
            for _ in range(3):
                if self.budget.remaining() < 10:
                    break
                subprocess.run([self.wf, "traffic", dataset, "clear"], capture_output=True, timeout=120 + 60 * self.millions)
                cl = H.Client(port, timeout=600)
                t0 = time.perf_counter()
                status, resp = cl.request("POST", "/traffic/1/speeds?expiresIn=3600", body=body,
                                          headers={"Content-Type": "text/csv"})
                ms = (time.perf_counter() - t0) * 1000
                cl.close()
                try:
                    j = json.loads(resp)
                except ValueError:
                    j = {}
                runs.append({"status": status, "client_ms": round(ms, 2), "parse_ms": j.get("parseMilliseconds"),
                             "apply_ms": j.get("applyMilliseconds"), "matched": j.get("matchedSegments"),
                             "unmatched": j.get("unmatchedSegments"), "entries": j.get("entries")})
            result[f"{pct}%"] = {"bytes": len(body), "runs": runs, "median_client_ms": median_of(runs, "client_ms"),
                                 "median_parse_ms": median_of(runs, "parse_ms"), "median_apply_ms": median_of(runs, "apply_ms"),
                                 "ok": all(r["status"] in (200, 201) for r in runs) and bool(runs)}
            H.log(f"{self.name} wayfinder traffic {pct}%: client {result[f'{pct}%']['median_client_ms']} ms, "
                  f"parse {result[f'{pct}%']['median_parse_ms']} ms, apply {result[f'{pct}%']['median_apply_ms']} ms")
        # The 100 % update (every segment at 15 km/h) is in force now: durations must change.
        sample = self.pairs[:200]
        _, after = H.sequential(port, sample, H.osrm_path, H.parse_osrm, warmup=0)
        changed = sum(1 for p in sample if before.get(p["pair_id"], ("", 0, 0))[0] == "Ok" and after[p["pair_id"]][0] == "Ok"
                      and after[p["pair_id"]][2] != before[p["pair_id"]][2])
        result["check_pairs_with_changed_duration_under_100pct"] = f"{changed}/{len(sample)}"
        subprocess.run([self.wf, "traffic", dataset, "clear"], capture_output=True, timeout=600)
        return result


def median_of(runs, key):
    values = sorted(r[key] for r in runs if isinstance(r.get(key), (int, float)))
    return round(values[len(values) // 2], 3) if values and len(values) == len(runs) else None


# ----------------------------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="Helsinki only, short wrk runs (what the test suite runs)")
    ap.add_argument("--scale", action="store_true", help="country sizes: synthetic 5M, 10M, 20M (budget 150 min; see above)")
    ap.add_argument("--extracts", help="comma-separated: helsinki, milan, porto, synN (syn100k, syn1M, syn5M, syn20k, ...) or .osm.pbf paths")
    ap.add_argument("--budget-minutes", type=float, help="overall time budget (default 60; 10 with --quick)")
    ap.add_argument("--out", help="output folder (default .cache/bench/quick or .cache/bench/full)")
    ap.add_argument("--wayfinder", help="use this wayfinder binary instead of building one")
    ap.add_argument("--build-path", default=str(ROOT / ".build"), help="swift build folder (default .build)")
    ap.add_argument("--no-build", action="store_true", help="use BUILD_PATH/release/wayfinder as it is")
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--wrk-seconds", type=int, help="wrk duration per server (default 10; 2 with --quick)")
    ap.add_argument("--directions-queries", type=int, help="queries for depart-at/arrive-at (default 300 below 1M car nodes, 100 above; 200 with --quick)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the synthetic networks")
    ap.add_argument("--skip-full-import", action="store_true", help="no full (all profiles + places) import")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the datasets in the work folder")
    ap.add_argument("--step-budget-scale", type=float, default=1.0,
                    help="multiply every step's budget (a slower machine; 0.01 tests the timeout path)")
    ap.add_argument("--plan", action="store_true", help="print the extracts, steps and budgets; run nothing")
    args = ap.parse_args()

    global BUDGET_SCALE
    BUDGET_SCALE = args.step_budget_scale
    if args.scale and args.quick:
        ap.error("--scale and --quick do not go together")
    mode = "quick" if args.quick else "scale" if args.scale else "full"
    names = args.extracts.split(",") if args.extracts else {"quick": QUICK, "scale": SCALE, "full": FULL}[mode]
    args.wrk_seconds = args.wrk_seconds or (2 if args.quick else 10)
    minutes = args.budget_minutes or {"quick": 10, "scale": 150, "full": 60}[mode]
    out_dir = Path(args.out or CACHE / "bench" / mode).resolve()

    if args.plan:
        plan = {"extracts": names, "budget_minutes": minutes, "wrk_seconds": args.wrk_seconds, "out": str(out_dir),
                "step_budgets_s": {n: {k: round(budget_for(k, size_guess(n))) for k in STEP_BUDGET} for n in names}}
        print(json.dumps(plan, indent=1))
        return 0

    budget = H.Budget(minutes)
    started = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    out_dir.mkdir(parents=True, exist_ok=True)
    ensure_debian_tools()
    osrm_home, osrm_version = ensure_osrm()
    wayfinder = ensure_wayfinder(args)
    wf_version = subprocess.run([str(wayfinder), "--version"], capture_output=True, text=True).stdout.strip()
    steps = H.Steps(budget, out_dir / "logs")
    report = {"mode": mode if not args.extracts else f"custom ({mode})", "started": started,
              "machine": machine_info(), "osrm_version": osrm_version, "wayfinder_version": wf_version,
              "wayfinder_binary": str(wayfinder), "threads": THREADS, "budget_minutes": minutes,
              "settings": {"pairs": args.pairs, "wrk": f"wrk -t2 -c8 -d{args.wrk_seconds}s", "seed": args.seed},
              "extracts": []}
    H.log(f"bench {report['mode']}: {', '.join(names)}; OSRM {osrm_version}; {wf_version}; budget {minutes:.0f} min; out {out_dir}")
    crashed = []
    for name in names:
        if budget.remaining() < 30:
            report["extracts"].append({"name": name, "status": "skipped: overall time budget used up"})
            continue
        H.log(f"==== {name} ====")
        t0 = time.monotonic()
        try:
            later = names[names.index(name) + 1:]
            reserve = sum(essential_seconds(size_guess(n)) for n in later)
            r = ExtractBench(name, args, wayfinder, osrm_home, steps, budget, out_dir, reserve_later_s=reserve).run()
        except Exception as exc:  # keep the other extracts' results
            import traceback
            traceback.print_exc()
            r = {"name": name, "status": f"crashed: {exc}"}
            crashed.append(name)
        r["elapsed_s"] = round(time.monotonic() - t0, 1)
        report["extracts"].append(r)

    report["scale"] = [T.scale_row(e) for e in report["extracts"] if e.get("car_nodes")]
    report["memory_limit_extrapolation"] = T.memory_limits(report["scale"], report["machine"].get("mem_total_gib", 23.5))
    report["targets_summary"] = T.summary(report["extracts"])
    report["steps_not_finished"] = [{"label": s["label"], "status": s["status"], **({"budget_s": s["budget_s"]} if "budget_s" in s else {})}
                                    for s in steps.results if s.get("status") != "ok"]
    report["finished"] = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    report["duration_s"] = round(budget.elapsed(), 1)
    report_path = out_dir / "report.json"
    report_path.write_text(json.dumps(report, indent=1))
    if not args.no_plot and report["scale"]:
        try:
            py = ensure_matplotlib()
            r = subprocess.run([str(py), str(BENCH / "plot.py"), str(report_path), str(out_dir / "scale.png")],
                               capture_output=True, text=True, timeout=300)
            report["plot"] = str(out_dir / "scale.png") if r.returncode == 0 else f"plot failed: {r.stderr[-500:]}"
        except Exception as exc:
            report["plot"] = f"plot failed: {exc}"
        report_path.write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))
    failed = [s for s in steps.results if s.get("status") == "failed"]
    if args.quick:
        # The quick run is a test: the routes must be there and agree with OSRM's.
        short = [p for e in report["extracts"] for p in H.agreement_problems(e.get("name", "?"), e.get("http") or {})]
        for p in short:
            H.log(f"FAIL agreement {p}")
        failed += [{"label": "agreement", "status": "failed", "error": p} for p in short]
    H.log(f"report: {report_path}; plot: {report.get('plot', 'none')}; {len(steps.results)} steps, "
          f"{len(failed)} failed, {sum(1 for s in steps.results if s.get('status') == 'timeout')} stopped at their budget, "
          f"{round(budget.elapsed())} s")
    return 1 if failed or crashed else 0


if __name__ == "__main__":
    sys.exit(main())
