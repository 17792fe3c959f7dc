"""Scale-out with real parts: three `wayfinder serve` replicas over one dataset folder behind
Debian's nginx, all on 127.0.0.1, run exactly as the README's deployment section says (the
replica command line is the `ExecStart` of deploy/systemd/wayfinder@.service, the proxy is
deploy/nginx/wayfinder.conf; only ports and paths are substituted). Bounded in time and count.

Shows:
- throughput through nginx with 1, 2 and 3 replicas under wrk, with the CPU each part used;
- a live traffic update posted to one replica is in force on every replica within 1 s;
- one replica killed under load: no failed client request; restarted, it gives the same answers;
- a re-import into the dataset folder under load: every replica switches, no failed request.

Usage: scaleout.py WAYFINDER_BINARY WORK_DIR [--nodes N] [--seconds S]
Prints one line per check and a JSON summary (also written to WORK_DIR/scaleout.json); exits 1
when a check fails.
"""
import argparse
import csv
import http.client
import json
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import sample  # noqa: E402  (pairs from the extract's car roads, as bench/run.py draws them)

HOST = "127.0.0.1"
HZ = os.sysconf("SC_CLK_TCK")
README = ROOT / "README.md"
NGINX_CONF = ROOT / "deploy" / "nginx" / "wayfinder.conf"
UNIT = ROOT / "deploy" / "systemd" / "wayfinder@.service"


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def free_port():
    rng = random.SystemRandom()
    import socket
    while True:
        port = rng.randint(20000, 60000)
        with socket.socket() as s:
            try:
                s.bind((HOST, port))
                return port
            except OSError:
                continue


def http_get(port, path, timeout=30, method="GET", body=None):
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "text/csv"} if body else {})
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, data
    finally:
        conn.close()


def get_json(port, path, timeout=30):
    status, data = http_get(port, path, timeout)
    return status, (json.loads(data) if data else None)


def cpu_seconds(pid):
    """utime + stime of a process, seconds (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / HZ
    except (OSError, IndexError, ValueError):
        return 0.0


def machine_busy():
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / HZ


class Replica:
    """One `wayfinder serve`, started with the unit file's ExecStart."""

    def __init__(self, exec_start, binary, dataset, port, log_path):
        self.argv = [binary if a == "/usr/local/bin/wayfinder" else dataset if a == "/srv/wayfinder/dataset" else
                     a.replace("%i", str(port)) for a in exec_start]
        self.port, self.log_path, self.proc = port, log_path, None

    def start(self, timeout=60):
        self.proc = subprocess.Popen(self.argv, stdout=open(self.log_path, "a"), stderr=subprocess.STDOUT,
                                     start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"replica on {self.port} exited with {self.proc.returncode}: {Path(self.log_path).read_text()[-500:]}")
            try:
                if get_json(self.port, "/health", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"replica on {self.port} did not answer /health within {timeout} s")

    def kill(self, sig=signal.SIGKILL):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=30)

    def health(self):
        return get_json(self.port, "/health", timeout=5)[1]


class Nginx:
    """Debian's nginx with deploy/nginx/wayfinder.conf, inside a minimal main configuration."""

    def __init__(self, work, listen_port):
        self.work, self.listen_port, self.proc = work, listen_port, None
        self.site = work / "wayfinder.conf"
        self.main = work / "nginx.conf"

    def configure(self, replica_ports):
        text = NGINX_CONF.read_text()
        servers = re.findall(r"^\s*server 127\.0\.0\.1:\d+.*$", text, re.M)
        assert len(servers) == 3, "deploy/nginx/wayfinder.conf lists three replicas"
        template = servers[0]
        body = "\n".join(re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{p}", template) for p in replica_ports)
        text = text.replace("\n".join(servers), body)
        text = text.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{self.listen_port};")
        self.site.write_text(text)
        temp = self.work / "nginx-temp"
        temp.mkdir(exist_ok=True)
        self.main.write_text(f"""worker_processes 1;
pid {self.work}/nginx.pid;
error_log {self.work}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {self.site};
}}
""")

    def start(self):
        check = subprocess.run(["nginx", "-t", "-c", str(self.main), "-p", str(self.work)], capture_output=True, text=True)
        if check.returncode != 0:
            raise RuntimeError(f"nginx -t: {check.stderr}")
        self.proc = subprocess.Popen(["nginx", "-c", str(self.main), "-p", str(self.work), "-g", "daemon off;"],
                                     stdout=subprocess.DEVNULL, stderr=open(self.work / "nginx-stderr.log", "a"),
                                     start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                http_get(self.listen_port, "/health", timeout=2)
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start listening")

    def reload(self, replica_ports):
        self.configure(replica_ports)
        os.kill(self.proc.pid, signal.SIGHUP)
        time.sleep(0.5)  # the new workers take over; the old ones finish their requests

    def pids(self):
        """The master and its workers."""
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.proc.pid)], capture_output=True, text=True).stdout
        return [self.proc.pid] + [int(x) for x in out.split()]

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def wrk(port, requests_file, seconds, connections, out_file):
    """wrk through `port` cycling through the requests; returns its JSON summary."""
    env = dict(os.environ, WRK_REQS=str(requests_file), WRK_OUT=str(out_file))
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", str(ROOT / "bench" / "wrk_requests.lua"),
           f"http://{HOST}:{port}"]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=seconds + 60)
    summary = json.loads(Path(out_file).read_text())
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", proc.stdout)
    summary["non2xx"] = int(non2xx.group(1)) if non2xx else 0
    errors = summary["errors"]
    summary["failed"] = summary["non2xx"] + errors["connect"] + errors["read"] + errors["write"] + errors["timeout"]
    summary["rps"] = round(summary["requests"] / (summary["duration_us"] / 1e6), 1)
    return summary


def measured_wrk(port, requests_file, seconds, connections, out_file, pids):
    """wrk with the CPU seconds the machine and each given process used meanwhile."""
    before = {k: sum(cpu_seconds(p) for p in v()) for k, v in pids.items()}
    busy = machine_busy()
    result = wrk(port, requests_file, seconds, connections, out_file)
    elapsed = result["duration_us"] / 1e6
    result["cpu_cores"] = {k: round((sum(cpu_seconds(p) for p in v()) - before[k]) / elapsed, 2) for k, v in pids.items()}
    result["cpu_cores"]["machine"] = round((machine_busy() - busy) / elapsed, 2)
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("work")
    ap.add_argument("--nodes", default="100000")
    ap.add_argument("--seconds", type=int, default=5)
    args = ap.parse_args()
    # A timeout's SIGTERM still stops nginx and the replicas (the `finally` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    binary = str(Path(args.binary).resolve())
    work = Path(args.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    checks, figures = [], {}

    def check(ok, what):
        checks.append((bool(ok), what))
        log(("PASS " if ok else "FAIL ") + what)

    # The deployment the README documents is the one run here.
    readme = README.read_text()
    for path in (NGINX_CONF, UNIT):
        check(path.read_text().strip() in readme, f"the README shows {path.relative_to(ROOT)} exactly")
    exec_start = shlex.split(re.search(r"^ExecStart=(.*)$", UNIT.read_text(), re.M).group(1))

    # A synthetic network (every object a road, so routes are long enough to cost something).
    extract = work / "network.osm.pbf"
    dataset = work / "dataset"
    subprocess.run([binary, "generate", "--nodes", args.nodes, "--output", str(extract)], check=True, capture_output=True, timeout=120)
    imported = subprocess.run([binary, "import", str(extract), "--output", str(dataset), "--profiles", "car"],
                              capture_output=True, text=True, timeout=300)
    if imported.returncode != 0:
        raise RuntimeError(f"import failed: {imported.stderr[-800:]}")
    nodes, segments = sample.car_roads(extract, work)
    speeds_file = work / "speeds.csv"
    speed_lines = sample.write_speeds(segments, speeds_file, 0.1, seed=7, kmh=5)
    pairs_file = work / "pairs.csv"
    sample.write_pairs(nodes, pairs_file, n=300, seed=42)
    pairs = list(csv.DictReader(open(pairs_file)))
    paths = [f"/route/v1/driving/{p['src_lon']},{p['src_lat']};{p['dst_lon']},{p['dst_lat']}?overview=false" for p in pairs]
    requests_file = work / "requests.tsv"
    requests_file.write_text("".join(f"GET\t{p}\n" for p in paths))

    ports = [free_port() for _ in range(3)]
    replicas = [Replica(exec_start, binary, str(dataset), p, str(work / f"replica-{i + 1}.log")) for i, p in enumerate(ports)]
    nginx = Nginx(work, free_port())
    try:
        for r in replicas:
            r.start()
        nginx.configure(ports[:1])
        nginx.start()
        lb = nginx.listen_port
        replica_pids = lambda: [r.proc.pid for r in replicas if r.proc and r.proc.poll() is None]  # noqa: E731
        pids = {"replicas": replica_pids, "nginx": nginx.pids}

        # 1. Throughput with 1, 2 and 3 replicas.
        throughput = {}
        for n in (1, 2, 3):
            nginx.reload(ports[:n])
            wrk(lb, requests_file, 1, 8, work / "warmup.json")
            result = measured_wrk(lb, requests_file, args.seconds, 16, work / f"wrk-{n}.json", pids)
            throughput[n] = {"rps": result["rps"], "p50_ms": result["latency_us"]["p50"] / 1000,
                             "p99_ms": result["latency_us"]["p99"] / 1000, "failed": result["failed"],
                             "cpu_cores": result["cpu_cores"]}
            log(f"{n} replica(s): {result['rps']} req/s, p50 {result['latency_us']['p50'] / 1000:.2f} ms, "
                f"p99 {result['latency_us']['p99'] / 1000:.2f} ms, CPU {result['cpu_cores']}")
            check(result["failed"] == 0, f"{n} replica(s) under wrk: no failed request ({result['requests']} sent)")
        figures["throughput"] = throughput
        figures["throughput_ratio_3_to_1"] = round(throughput[3]["rps"] / max(1, throughput[1]["rps"]), 2)
        figures["cores"] = os.cpu_count()

        # 2. A live update posted to one replica is in force on every replica within 1 s. Posted to
        # the replica itself, a local client of a loopback server without keys: through nginx
        # (which sets X-Forwarded-For) it would need an operator credential.
        probe = paths[0]
        before = [json.loads(http_get(r.port, probe)[1])["routes"][0]["duration"] for r in replicas]
        generations = [get_json(r.port, "/traffic/1/status")[1]["modes"]["car"]["generation"] for r in replicas]
        body = speeds_file.read_bytes()
        posted = time.monotonic()
        status, _ = http_get(replicas[0].port, "/traffic/1/speeds?expiresIn=600", method="POST", body=body)
        check(status in (200, 201), f"a live update (10 % of the car segments at 5 km/h, {speed_lines} lines) posted to replica 1 (HTTP {status})")
        seen = {}
        while len(seen) < 3 and time.monotonic() - posted < 10:
            for i, r in enumerate(replicas):
                if i in seen:
                    continue
                mode = get_json(r.port, "/traffic/1/status")[1]["modes"]["car"]
                if mode["generation"] != generations[i] and mode["liveArcs"] > 0:
                    duration = json.loads(http_get(r.port, probe)[1])["routes"][0]["duration"]
                    seen[i] = (time.monotonic() - posted, duration)
            time.sleep(0.01)
        delays = [round(seen[i][0], 3) if i in seen else None for i in range(3)]
        figures["traffic_in_force_s"] = delays
        slower = all(i in seen and seen[i][1] > before[i] for i in range(3))
        check(all(d is not None and d <= 1.0 for d in delays) and slower,
              f"the update is in force on every replica within 1 s (after {delays} s; the probe route takes "
              f"{before[0]:.0f} s before, {seen.get(1, (0, 0))[1]:.0f} s after)")
        subprocess.run([binary, "traffic", str(dataset), "clear"], capture_output=True, timeout=60)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(get_json(r.port, "/traffic/1/status")[1]["modes"]["car"]["liveArcs"] for r in replicas):
            time.sleep(0.05)

        # 3. One replica killed under load, then restarted.
        result = {}
        load = threading.Thread(target=lambda: result.update(measured_wrk(lb, requests_file, 3 * args.seconds // 2 + 4, 16,
                                                                          work / "wrk-kill.json", pids)))
        load.start()
        time.sleep(2)
        killed_at = time.monotonic()
        replicas[1].kill()
        time.sleep(args.seconds / 2)
        replicas[1].start()
        restarted_after = time.monotonic() - killed_at
        load.join()
        figures["kill"] = {"requests": result["requests"], "failed": result["failed"], "rps": result["rps"],
                           "restarted_after_s": round(restarted_after, 2)}
        check(result["failed"] == 0, f"replica 2 killed (SIGKILL) under load and restarted {restarted_after:.1f} s later: "
                                     f"{result['failed']} of {result['requests']} client requests failed")
        # Read beside replica 1's answers at the same moment (before and after): durations follow
        # the time of day, so answers read seconds apart may differ by a second.
        def same_as_replica_1(p):
            first, mine, last = (http_get(r.port, p)[1] for r in (replicas[0], replicas[1], replicas[0]))
            return mine in (first, last)
        same = all(same_as_replica_1(p) for p in paths[:50])
        check(same, "the restarted replica gives the same answers as replica 1 (50 routes, byte for byte)")

        # 4. A re-import into the dataset folder under load: every replica switches.
        old_ids = [dataset_id(r) for r in replicas]
        result = {}
        load = threading.Thread(target=lambda: result.update(measured_wrk(lb, requests_file, 4 * args.seconds, 16,
                                                                          work / "wrk-reimport.json", pids)))
        load.start()
        time.sleep(1)
        started = time.monotonic()
        reimport = subprocess.run([binary, "import", str(extract), "--output", str(dataset), "--profiles", "car"],
                                  capture_output=True, text=True, timeout=300)
        imported_after = time.monotonic() - started
        new_id = json.loads((dataset / "manifest.json").read_text())["id"]
        switched = {}
        while len(switched) < 3 and time.monotonic() - started < 60:
            for i, r in enumerate(replicas):
                if i not in switched and dataset_id(r) == new_id:
                    switched[i] = round(time.monotonic() - started - imported_after, 2)
            time.sleep(0.05)
        load.join()
        figures["reimport"] = {"import_s": round(imported_after, 2), "switched_after_import_s": [switched.get(i) for i in range(3)],
                               "requests": result["requests"], "failed": result["failed"]}
        check(reimport.returncode == 0 and len(switched) == 3 and new_id not in old_ids,
              f"a re-import under load ({imported_after:.1f} s): every replica switched to {new_id} "
              f"({[switched.get(i) for i in range(3)]} s after it finished)")
        check(result["failed"] == 0, f"… and no client request failed ({result['failed']} of {result['requests']})")
    finally:
        nginx.stop()
        for r in replicas:
            r.kill(signal.SIGTERM)

    summary = {"checks": [{"ok": ok, "check": what} for ok, what in checks], "figures": figures}
    (work / "scaleout.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps(figures, indent=2))
    failed = [what for ok, what in checks if not ok]
    log(f"{len(checks) - len(failed)} of {len(checks)} checks passed")
    return 1 if failed else 0


def dataset_id(replica):
    return replica.health().get("dataset")


if __name__ == "__main__":
    sys.exit(main())
