"""Serving start-up of a dataset: how long `wayfinder serve` takes to listen, to answer a first
route, and to finish checking its files, with the page cache warm or dropped.

    python3 bench/startup.py --dataset DIR --bin LABEL=PATH [--bin LABEL=PATH ...] [--runs N]
                             [--cold] --out FILE.json

Per run: seconds from exec to the "wayfinder serving" line, to the first answer of
/health, to the first car route answered (one request sent as soon as the server listens,
between two points of the middle of the dataset's bounding box that a first server answered), and to the server's own
"verified" line on stderr (when it prints one); then VmHWM, RssAnon and RssFile. Binaries run
interleaved (a, b, a, b, ...), so a busy machine weighs on each alike. --cold drops the page
cache before every run (`sync; echo 3 > /proc/sys/vm/drop_caches`, needs root).
"""
import argparse
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path


def drop_caches():
    subprocess.run(["sync"], check=True)
    Path("/proc/sys/vm/drop_caches").write_text("3\n")


def memory(pid):
    out = {}
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(("VmHWM:", "RssAnon:", "RssFile:")):
            key, value = line.split(":")
            out[key + "_mb"] = round(int(value.split()[0]) / 1024, 1)
    return out


def candidate_paths(dataset):
    """Routes between points of a grid over the middle of the dataset's bounding box."""
    manifest = json.loads((Path(dataset) / "manifest.json").read_text())
    west, south, east, north = manifest["boundingBox"]
    points = [(south + (north - south) * f, west + (east - west) * g) for f in (0.4, 0.45, 0.5, 0.55, 0.6)
              for g in (0.4, 0.45, 0.5, 0.55, 0.6)]
    for a in points:
        for b in reversed(points):
            if a != b:
                yield f"/routing/1/calculateRoute/{a[0]:.6f},{a[1]:.6f}:{b[0]:.6f},{b[1]:.6f}/json"


def find_route(binary, dataset, timeout):
    """The first candidate route the server answers (synthetic towns leave most points far from roads)."""
    proc = subprocess.Popen([binary, "serve", dataset, "--port", "0", "--quiet"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
        for path in candidate_paths(dataset):
            try:
                get(port, path, timeout)
                return path
            except urllib.error.HTTPError:
                continue
        raise RuntimeError("no candidate route is answered")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def get(port, path, timeout):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as r:
        return r.status, r.read()


def one_run(binary, dataset, route, timeout):
    t0 = time.monotonic()
    proc = subprocess.Popen([binary, "serve", dataset, "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    out = {}
    try:
        line = proc.stdout.readline().decode()
        out["serving_s"] = round(time.monotonic() - t0, 3)
        port = int(re.search(r":(\d+)/", line).group(1))
        status, _ = get(port, "/health", timeout)
        out["health_s"] = round(time.monotonic() - t0, 3)
        status, body = get(port, route, timeout)
        out["first_route_s"] = round(time.monotonic() - t0, 3)
        out["first_route_status"] = status
        out["first_route_length_m"] = json.loads(body)["routes"][0]["summary"]["lengthInMeters"]
        # The server's background check of its files: wait for its line (bounded by timeout).
        fd = proc.stderr.fileno()
        os.set_blocking(fd, False)
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end and "verified" not in text:
            try:
                text += os.read(fd, 65536).decode(errors="replace")
            except BlockingIOError:
                pass
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        if "verified" in text:
            out["verified_s"] = round(time.monotonic() - t0, 3)
        out["stderr"] = [l for l in text.splitlines() if l.strip()][-4:]
        out.update(memory(proc.pid))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dataset", required=True)
    p.add_argument("--bin", action="append", required=True, help="LABEL=PATH")
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--cold", action="store_true")
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    binaries = [b.split("=", 1) for b in a.bin]
    route = find_route(binaries[0][1], a.dataset, a.timeout)
    result = {"dataset": a.dataset, "cold": a.cold, "binaries": dict(binaries), "route": route, "runs": []}
    for i in range(a.runs):
        for label, binary in binaries:
            if a.cold:
                drop_caches()
            load = os.getloadavg()[0]
            run = {"binary": label, "run": i + 1, "load_average_1min": round(load, 2), **one_run(binary, a.dataset, route, a.timeout)}
            print(json.dumps({k: v for k, v in run.items() if k != "stderr"}), flush=True)
            result["runs"].append(run)
    Path(a.out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
