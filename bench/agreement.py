#!/usr/bin/env python3
"""Route agreement with OSRM and Valhalla, side by side, on the same car pairs, at a quiet and a busy hour.

    python3 bench/agreement.py [--extracts monaco-2016,helsinki,...,syn20k] [--pairs 300] [--budget-minutes 60]
                               [--wayfinder .build/release/wayfinder] [--out .cache/bench/agreement]
                               [--results bench/results/agreement-DATE]

Per extract (a name under ../shared/data, a path, or synN for `wayfinder generate --nodes N --seed 1`):
N pairs of car-road nodes (bench/sample.py, seed 42); osrm-routed (osrm-bindings 26.10 wheel, car.lua,
CH) and valhalla_service (pyvalhalla 3.9.1 wheel, auto) on tiles built from the same extract, and
`wayfinder serve` on a car dataset, all on 127.0.0.1. Each pair is asked of Wayfinder
(`/routing/1/calculateRoute`, `departAt` in local time) and of Valhalla (`date_time` depart-at, same
local time) at Sunday 03:00 and at a weekday (Tuesday) 17:00, and of OSRM once (it has no time).
Reports, per extract and hour, the share of pairs with length within 5 % and time within 15 % of
OSRM's and of Valhalla's, the pairs over 1.5x their time and the NoRoute answered by one side only
(listed with coordinates and both summaries), and OSRM against Valhalla as the anchors' own spread.

Every step has a timeout, the query loop stops at the extract's share of the budget, and every
server is stopped at the end. Prints the JSON report; writes RESULTS.json and RESULTS.md.
"""
import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import agreement_report as R  # noqa: E402
import harness as H  # noqa: E402
import sample as S  # noqa: E402
from reach import ensure_wheel  # noqa: E402
from run import load_pairs, synthetic_nodes  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
EXTRACTS = ["monaco-2016", "helsinki", "liechtenstein", "andorra", "porto", "copenhagen", "heidelberg", "milan", "rnv", "syn20k"]
OSRM_PACKAGE, VALHALLA_PACKAGE = "osrm-bindings==26.10.0", "pyvalhalla==3.9.1"
REQUEST_TIMEOUT_S = 30


def hours(today):
    """Local times to ask at: the next Sunday 03:00 and the next Tuesday 17:00 (both after `today`)."""
    def next_weekday(weekday):  # Monday = 0
        return today + dt.timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)
    return {"sun03": next_weekday(6).isoformat() + "T03:00:00", "tue17": next_weekday(1).isoformat() + "T17:00:00"}


def resolve(name, work, wf, steps):
    """The extract's path (generated for synN)."""
    if synthetic_nodes(name):
        path = work / f"{name}-seed1.osm.pbf"
        if not path.exists():
            r = steps.run(f"{name}_generate", [wf, "generate", "--nodes", synthetic_nodes(name), "--output", path, "--seed", 1], 300)
            if r["status"] != "ok":
                return None
        return path
    if Path(name).exists():
        return Path(name).resolve()
    found = sorted(DATA.glob(f"{name}*.osm.pbf"))
    return found[0] if found else None


def prepare_osrm(osrm, extract, work, steps, tag):
    base = work / (extract.name.split(".")[0] + ".osrm")
    if (work / "contract.done").exists():
        return base
    work.mkdir(parents=True, exist_ok=True)
    shutil.copy(extract, work / extract.name)
    for label, cmd in ((f"{tag}_osrm_extract", [osrm / "bin" / "osrm-extract", "-p", osrm / "share" / "profiles" / "car.lua", "-t", 2, work / extract.name]),
                       (f"{tag}_osrm_contract", [osrm / "bin" / "osrm-contract", "-t", 2, base])):
        if steps.run(label, cmd, 900)["status"] != "ok":
            return None
    (work / "contract.done").write_text("ok")
    return base


def prepare_valhalla(valhalla, extract, work, steps, tag, env):
    work.mkdir(parents=True, exist_ok=True)
    if (work / "tiles.done").exists():
        return work / "valhalla.json"
    config = subprocess.run([sys.executable, valhalla / "valhalla" / "valhalla_build_config.py",
                             "--mjolnir-tile-dir", work / "tiles", "--mjolnir-tile-extract", work / "tiles.tar",
                             "--mjolnir-traffic-extract", work / "traffic.tar", "--mjolnir-admin", work / "admins.sqlite",
                             "--mjolnir-timezone", work / "timezones.sqlite", "--mjolnir-concurrency", "2",
                             "--httpd-service-listen", "tcp://127.0.0.1:0",
                             "--httpd-service-loopback", f"ipc://{work}/loopback", "--httpd-service-interrupt", f"ipc://{work}/interrupt"],
                            capture_output=True, text=True, check=True, timeout=60).stdout
    (work / "valhalla.template.json").write_text(config)
    (work / "valhalla.json").write_text(config)
    if steps.run(f"{tag}_valhalla_build_tiles", [valhalla / "valhalla" / "bin" / "valhalla_build_tiles", "-c", work / "valhalla.json", extract],
                 900, env=env)["status"] != "ok":
        return None
    (work / "tiles.done").write_text("ok")
    return work / "valhalla.json"


def valhalla_config(template, port, out):
    text = template.read_text().replace("tcp://127.0.0.1:0", f"tcp://127.0.0.1:{port}")
    out.write_text(text)
    return out


def prepare_wayfinder(wf, extract, work, steps, tag):
    """The car dataset, imported again whenever the binary differs from the one that built it
    (an import rule that changed would otherwise be measured with the old dataset)."""
    st = wf.stat()
    built_by = f"{wf} {st.st_size} {st.st_mtime_ns}"
    stamp = work / "built-by.txt"
    if (work / "manifest.json").exists() and stamp.exists() and stamp.read_text() == built_by:
        return work
    shutil.rmtree(work, ignore_errors=True)
    r = steps.run(f"{tag}_wayfinder_import", [wf, "import", extract, "--output", work, "--profiles", "car", "--skip-places", "--skip-basemap"], 900)
    if r["status"] != "ok":
        return None
    stamp.write_text(built_by)
    return work


def ask_osrm(client, row):
    """(status, length, time, metres the origin and the destination were moved to the nearest road OSRM snaps to)."""
    status, body = client.request("GET", H.osrm_path(row))
    answer = H.parse_osrm(status, body)
    try:
        snaps = [round(w.get("distance", 0), 1) for w in json.loads(body).get("waypoints", [])]
    except ValueError:
        snaps = []
    return (*answer, snaps)


def ask_wayfinder(client, row, depart):
    status, body = client.request("GET", H.tomtom_path(row, f"&travelMode=car&departAt={depart}"))
    answer = H.parse_tomtom(status, body)
    if answer[0] != "Ok":
        text = body.decode(errors="replace")
        code = "NoRoute" if "NO_ROUTE_FOUND" in text else ("NoSegment" if "MAP_MATCHING_FAILURE" in text else answer[0])
        return code, None, None
    return answer


def ask_valhalla(client, row, depart):
    body = {"locations": [{"lat": float(row["src_lat"]), "lon": float(row["src_lon"])}, {"lat": float(row["dst_lat"]), "lon": float(row["dst_lon"])}],
            "costing": "auto", "directions_type": "none", "units": "kilometers", "date_time": {"type": 1, "value": depart[:16]}}
    status, raw = client.request("GET", "/route?json=" + json.dumps(body, separators=(",", ":")))
    try:
        j = json.loads(raw)
    except ValueError:
        return str(status), None, None
    if status == 200 and "trip" in j:
        s = j["trip"]["summary"]
        return "Ok", s["length"] * 1000, s["time"]
    code = j.get("error_code")
    return ("NoRoute" if code == 442 else "NoSegment" if code == 171 else f"E{code}"), None, None


def wait_http(port, path, timeout=120):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            c = H.Client(port, timeout=5)
            status, _ = c.request("GET", path)
            c.close()
            if status == 200:
                return True
        except OSError:
            pass
        time.sleep(0.2)
    return False


def bench_extract(name, args, anchors, budget, share_s, steps):
    t0 = time.monotonic()
    out = Path(args.out) / name
    out.mkdir(parents=True, exist_ok=True)
    res = {"name": name, "status": "ok"}
    extract = resolve(name, Path(args.out), args.wayfinder, steps)
    if extract is None:
        return dict(res, status="missing extract")
    res["extract"] = str(extract)
    pairs_file = out / f"pairs-{args.pairs}.csv"
    if not pairs_file.exists():
        nodes, _ = S.car_roads(extract, out, with_segments=False)
        res["carNodes"] = len(nodes[0])
        S.write_pairs(nodes, pairs_file, n=args.pairs, seed=42)
    pairs = load_pairs(pairs_file)[: args.pairs]
    osrm_base = prepare_osrm(anchors["osrm"], extract, out / "osrm", steps, name)
    vconfig = prepare_valhalla(anchors["valhalla"], extract, out / "valhalla", steps, name, anchors["env"])
    dataset = prepare_wayfinder(args.wayfinder, extract, out / "dataset", steps, name)
    if not (osrm_base and vconfig and dataset):
        return dict(res, status="preparation failed", steps=[s for s in steps.results if s["label"].startswith(name)])
    oport, vport, wport = H.free_port(), H.free_port(), H.free_port()
    servers = []
    try:
        servers.append(H.Server("osrm", [anchors["osrm"] / "bin" / "osrm-routed", "-i", "127.0.0.1", "-p", oport, "-t", 2, osrm_base],
                                oport, r"running and waiting", out / "osrm_routed.log"))
        vjson = valhalla_config(out / "valhalla" / "valhalla.template.json", vport, out / "valhalla_service.json")
        servers.append(H.Server("valhalla", [anchors["valhalla"] / "valhalla" / "bin" / "valhalla_service", vjson, 2], vport, r"",
                                out / "valhalla_service.log", env=anchors["env"]))
        servers.append(H.Server("wayfinder", [args.wayfinder, "serve", dataset, "--port", wport, "--quiet"], wport, r"serving",
                                out / "wayfinder_serve.log"))
        servers[0].wait_ready(120)
        servers[2].wait_ready(300)
        if not wait_http(vport, "/status"):
            return dict(res, status="valhalla_service not ready")
        oc, vc, wc = (H.Client(p, timeout=REQUEST_TIMEOUT_S) for p in (oport, vport, wport))
        when = hours(dt.date.today())
        answers = {"osrm": [], **{f"valhalla@{h}": [] for h in when}, **{f"wayfinder@{h}": [] for h in when}}
        deadline = t0 + share_s
        for row in pairs:
            if time.monotonic() > deadline or budget.remaining() < 30:
                res["stoppedEarly"] = f"time budget reached after {len(answers['osrm'])} pairs"
                break
            answers["osrm"].append(ask_osrm(oc, row))
            for h, depart in when.items():
                answers[f"valhalla@{h}"].append(ask_valhalla(vc, row, depart))
                answers[f"wayfinder@{h}"].append(ask_wayfinder(wc, row, depart))
        for c in (oc, vc, wc):
            c.close()
    finally:
        for s in servers:
            s.stop()
    asked = pairs[: len(answers["osrm"])]
    res["pairsAsked"] = len(asked)
    res["departAt"] = when
    res["hours"] = {h: {"vsOSRM": R.compare(asked, answers[f"wayfinder@{h}"], answers["osrm"]),
                        "vsValhalla": R.compare(asked, answers[f"wayfinder@{h}"], answers[f"valhalla@{h}"])} for h in when}
    res["osrmVsValhalla"] = R.compare(asked, answers["osrm"], answers["valhalla@sun03"])
    res["wallS"] = round(time.monotonic() - t0, 1)
    (out / "answers.json").write_text(json.dumps({"pairs": asked, "answers": answers}))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--extracts", default=",".join(EXTRACTS))
    ap.add_argument("--pairs", type=int, default=300)
    ap.add_argument("--budget-minutes", type=float, default=60)
    ap.add_argument("--wayfinder", default=str(ROOT / ".build" / "release" / "wayfinder"))
    ap.add_argument("--out", default=str(ROOT / ".cache" / "bench" / "agreement"))
    ap.add_argument("--results", default=str(ROOT / "bench" / "results" / f"agreement-{dt.date.today().isoformat()}"))
    args = ap.parse_args()
    if args.pairs < 1:
        sys.exit("agreement: --pairs must be at least 1")
    args.wayfinder = Path(args.wayfinder).resolve()
    if not args.wayfinder.exists():
        sys.exit(f"agreement: no wayfinder binary at {args.wayfinder} (swift build -c release --product wayfinder)")
    names = [n for n in args.extracts.split(",") if n]
    budget = H.Budget(args.budget_minutes, reserve_s=30)
    steps = H.Steps(budget, Path(args.out) / "logs")
    osrm = ensure_wheel(OSRM_PACKAGE, "osrm", "osrm/bin/osrm-routed") / "osrm"
    valhalla = ensure_wheel(VALHALLA_PACKAGE, "valhalla", "valhalla/bin/valhalla_service")
    anchors = {"osrm": osrm, "valhalla": valhalla, "env": dict(os.environ, LD_LIBRARY_PATH=str(valhalla / "pyvalhalla.libs"))}
    report = {"date": dt.date.today().isoformat(), "command": "python3 bench/agreement.py " + " ".join(sys.argv[1:]),
              "anchors": {"osrm": OSRM_PACKAGE, "valhalla": VALHALLA_PACKAGE}, "pairs": args.pairs, "extracts": []}
    for i, name in enumerate(names):
        share = budget.remaining() / (len(names) - i)
        if share < 30:
            report["extracts"].append({"name": name, "status": "skipped: time budget used up"})
            continue
        H.log(f"{name}: up to {share:.0f} s")
        try:
            report["extracts"].append(bench_extract(name, args, anchors, budget, share, steps))
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            report["extracts"].append({"name": name, "status": f"failed: {e}"})
        H.log(f"{name}: {report['extracts'][-1]['status']}")
    results = Path(args.results)
    results.parent.mkdir(parents=True, exist_ok=True)
    for suffix, text in ((".json", json.dumps(report, indent=1)), (".md", R.markdown(report))):
        tmp = results.with_name(results.name + suffix + ".tmp")
        tmp.write_text(text)
        tmp.replace(results.with_name(results.name + suffix))
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
