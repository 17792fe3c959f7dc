"""Process, server and HTTP plumbing for bench/run.py (Python 3 standard library only).

Every measured step runs under `/usr/bin/time -v` (wall, user/sys CPU, peak RSS) with a timeout
derived from the step's own budget and the run's overall deadline; a step that would exceed it is
killed (its whole process group) and reported with status "timeout". Servers listen on 127.0.0.1
only, and every request loop here is bounded in count and time.
"""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

HOST = "127.0.0.1"  # never anything else
BENCH = Path(__file__).resolve().parent
HZ = os.sysconf("SC_CLK_TCK")


def log(msg):
    """Progress to stderr: the benchmarks print their JSON report on stdout."""
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def cpu_busy_seconds():
    """Machine-wide busy CPU seconds (all cores) from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / HZ


def pct(sorted_vals, p):
    if not sorted_vals:
        return None
    k = (len(sorted_vals) - 1) * p / 100.0
    f = int(k)
    c = min(f + 1, len(sorted_vals) - 1)
    return sorted_vals[f] + (sorted_vals[c] - sorted_vals[f]) * (k - f)


def percentiles(values):
    s = sorted(values)
    if not s:
        return {"n": 0}
    return {"n": len(s), "p50_ms": round(pct(s, 50), 3), "p95_ms": round(pct(s, 95), 3),
            "p99_ms": round(pct(s, 99), 3), "mean_ms": round(sum(s) / len(s), 3), "max_ms": round(s[-1], 3)}


def dir_mb(path, exclude_suffixes=(".osm.pbf",)):
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            p = os.path.join(root, name)
            if name.endswith(exclude_suffixes) or os.path.islink(p):
                continue
            total += os.path.getsize(p)
    return round(total / 1048576, 2)


class Budget:
    """The run's overall deadline; steps get min(their own budget, what is left - reserve)."""

    def __init__(self, minutes, reserve_s=90):
        self.start = time.monotonic()
        self.deadline = self.start + minutes * 60
        self.reserve = reserve_s

    def remaining(self):
        return self.deadline - time.monotonic() - self.reserve

    def elapsed(self):
        return time.monotonic() - self.start


class Steps:
    """Runs commands under /usr/bin/time -v with timeouts; keeps every result in `results`."""

    def __init__(self, budget, log_dir):
        self.budget = budget
        self.log_dir = Path(log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.results = []

    def run(self, label, cmd, budget_s, stdout_path=None, env=None, cwd=None, min_start_s=5, reserve_s=0):
        """Returns {"status": ok|failed|timeout|skipped, "wall_s", "user_s", "sys_s", "max_rss_mb", ...}.
        `reserve_s`: time kept free for later work (the extracts still to come)."""
        left = self.budget.remaining() - reserve_s
        if left < min_start_s:
            r = {"label": label, "status": "skipped", "reason": "overall time budget used up (or kept for later extracts)",
                 "budget_s": round(max(0, left), 1)}
            self.results.append(r)
            log(f"{label}: SKIPPED (out of overall time budget)")
            return r
        timeout = max(1.0, min(budget_s, left))
        tfile = self.log_dir / f"time_{label}.txt"
        lfile = self.log_dir / f"log_{label}.txt"
        if tfile.exists():
            tfile.unlink()
        full = ["/usr/bin/time", "-v", "-o", str(tfile)] + [str(c) for c in cmd]
        busy0, t0 = cpu_busy_seconds(), time.monotonic()
        with open(lfile, "w") as lf:
            out = open(stdout_path, "w") if stdout_path else lf
            try:
                p = subprocess.Popen(full, stdout=out, stderr=lf, env=env, cwd=cwd, start_new_session=True)
                try:
                    rc = p.wait(timeout=timeout)
                    timed_out = False
                except subprocess.TimeoutExpired:
                    timed_out = True
                    kill_group(p)
                    rc = None
            finally:
                if stdout_path:
                    out.close()
        wall = time.monotonic() - t0
        busy = cpu_busy_seconds() - busy0
        r = {"label": label, "cmd": " ".join(str(c) for c in cmd)}
        if timed_out:
            r.update(status="timeout", budget_s=round(timeout, 1), wall_s=round(wall, 2),
                     note=f"stopped after {timeout:.0f} s (its budget); reported as not finished")
            log(f"{label}: TIMEOUT after {timeout:.0f} s")
        else:
            r.update(parse_time_v(tfile))
            # /usr/bin/time reports wall time in 10 ms steps; keep it, but use the precise clock.
            r["time_v_wall_s"] = r.get("wall_s")
            r["wall_s"] = round(wall, 4)
            r["status"] = "ok" if rc == 0 else "failed"
            if rc != 0:
                r["exit_code"] = rc
                r["log_tail"] = tail(lfile, 15)
            own = r.get("user_s", 0) + r.get("sys_s", 0)
            r["foreign_cpu_cores"] = round(max(0.0, busy - own) / max(wall, 1e-3), 2)
            log(f"{label}: {r['status']} wall {r.get('wall_s')} s, user {r.get('user_s')} s, "
                f"peak RSS {r.get('max_rss_mb')} MB, foreign CPU {r['foreign_cpu_cores']} cores")
        r["log"] = str(lfile)
        self.results.append(r)
        return r


def kill_group(p, grace=5):
    try:
        os.killpg(p.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        p.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()


def tail(path, n):
    try:
        return Path(path).read_text(errors="replace").splitlines()[-n:]
    except OSError:
        return []


def parse_time_v(path):
    try:
        t = Path(path).read_text()
    except OSError:
        return {}

    def g(k):
        m = re.search(re.escape(k) + r":\s*(.+)", t)
        return m.group(1).strip() if m else None

    out = {}
    w = g("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    if w:
        out["wall_s"] = round(sum(float(x) * 60 ** i for i, x in enumerate(reversed(w.split(":")))), 3)
    for key, name in (("User time (seconds)", "user_s"), ("System time (seconds)", "sys_s")):
        if g(key) is not None:
            out[name] = float(g(key))
    if g("Maximum resident set size (kbytes)"):
        out["max_rss_mb"] = round(int(g("Maximum resident set size (kbytes)")) / 1024, 1)
    return out


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    """A server process on 127.0.0.1 (not under /usr/bin/time, so /proc/PID is the server itself)."""

    def __init__(self, label, cmd, port, ready_pattern, log_path, env=None):
        self.label, self.port = label, port
        self.log_path = Path(log_path)
        self.t0 = time.monotonic()
        self.logf = open(self.log_path, "w")
        self.proc = subprocess.Popen([str(c) for c in cmd], stdout=self.logf, stderr=subprocess.STDOUT,
                                     env=env, start_new_session=True)
        self.ready_pattern = re.compile(ready_pattern)
        self.startup_s = None

    def wait_ready(self, timeout=120):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.label} exited with {self.proc.returncode}: {tail(self.log_path, 10)}")
            if self.ready_pattern.search(self.log_path.read_text(errors="replace")):
                try:
                    with socket.create_connection((HOST, self.port), timeout=1):
                        self.startup_s = round(time.monotonic() - self.t0, 3)
                        return self.startup_s
                except OSError:
                    pass
            time.sleep(0.05)
        raise RuntimeError(f"{self.label} not ready after {timeout} s")

    def memory(self):
        out = {}
        try:
            for line in open(f"/proc/{self.proc.pid}/status"):
                if line.startswith(("VmHWM:", "VmRSS:", "RssAnon:", "RssFile:")):
                    k, v = line.split(":")
                    out[k + "_mb"] = round(int(v.split()[0]) / 1024, 1)
        except OSError:
            pass
        return out

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.logf.close()


class Client:
    """One keep-alive HTTP/1.1 connection to 127.0.0.1."""

    def __init__(self, port, timeout=60):
        self.port, self.timeout = port, timeout
        self.conn = http.client.HTTPConnection(HOST, port, timeout=timeout)

    def request(self, method, path, body=None, headers=None):
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers or {})
                r = self.conn.getresponse()
                return r.status, r.read()
            except (http.client.HTTPException, ConnectionError, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
                if attempt == 1:
                    raise

    def close(self):
        self.conn.close()


def osrm_path(row, params="overview=false&alternatives=false&steps=false"):
    return f"/route/v1/driving/{row['src_lon']},{row['src_lat']};{row['dst_lon']},{row['dst_lat']}?{params}"


def tomtom_path(row, extra=""):
    return (f"/routing/1/calculateRoute/{row['src_lat']},{row['src_lon']}:{row['dst_lat']},{row['dst_lon']}/json"
            f"?routeRepresentation=summaryOnly{extra}")


def parse_osrm(status, body):
    try:
        j = json.loads(body)
    except ValueError:
        return str(status), None, None
    if j.get("code") == "Ok" and j.get("routes"):
        r = j["routes"][0]
        return "Ok", r.get("distance"), r.get("duration")
    return j.get("code", str(status)), None, None


def parse_tomtom(status, body):
    if status != 200:
        return str(status), None, None
    try:
        s = json.loads(body)["routes"][0]["summary"]
        return "Ok", s.get("lengthInMeters"), s.get("travelTimeInSeconds")
    except (ValueError, KeyError, IndexError):
        return "BadBody", None, None


def sequential(port, rows, make_path, parse, warmup=50, time_limit_s=300):
    """One request at a time over one keep-alive connection; latency = send to full body read."""
    cl = Client(port)
    try:
        for row in rows[:warmup]:
            cl.request("GET", make_path(row))
        lat, answers, codes = [], {}, {}
        end = time.monotonic() + time_limit_s
        for row in rows:
            if time.monotonic() > end:
                break
            t0 = time.perf_counter()
            st, body = cl.request("GET", make_path(row))
            ms = (time.perf_counter() - t0) * 1000.0
            code, dist, dur = parse(st, body)
            lat.append(ms)
            codes[code] = codes.get(code, 0) + 1
            answers[row["pair_id"]] = (code, dist, dur)
    finally:
        cl.close()
    summary = percentiles(lat)
    summary["codes"] = codes
    return summary, answers


def write_wrk_requests(rows, make_path, out):
    with open(out, "w") as f:
        for row in rows:
            f.write(f"GET\t{make_path(row)}\n")


def run_wrk(port, requests_file, seconds, lua, threads=2, connections=8):
    """`wrk -t2 -c8 -dNs --latency` cycling through the request file."""
    env = dict(os.environ, WRK_REQS=str(requests_file))
    cmd = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency", "-s", str(lua),
           f"http://{HOST}:{port}"]
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=seconds + 30)
        text = p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    d = {"status": "ok", "threads": threads, "connections": connections, "seconds": seconds}
    m = re.search(r"Requests/sec:\s*([\d.]+)", text)
    d["rps"] = float(m.group(1)) if m else None
    m = re.search(r"(\d+) requests in ([\d.]+)(\w+)", text)
    d["requests"] = int(m.group(1)) if m else None
    for q in ("50%", "90%", "99%"):
        m = re.search(r"\s" + re.escape(q) + r"\s+([\d.]+)(us|ms|s)\b", text)
        if m:
            d["p" + q[:-1] + "_ms"] = round(float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[m.group(2)], 3)
    m = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", text)
    d["non2xx"] = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors:(.*)", text)
    if m:
        d["socket_errors"] = m.group(1).strip()
    if d["rps"] is None:
        d["status"] = "failed"
        d["output"] = text[-500:]
    return d


def compare_answers(ours, theirs):
    """Agreement of two engines' answers on the same pairs: {pair_id: (code, distance_m, duration_s)}."""
    both = only_a = only_b = 0
    dr, tr = [], []
    for pid, (code_a, da, ta) in ours.items():
        code_b, db, tb = theirs.get(pid, (None, None, None))
        a_ok, b_ok = code_a == "Ok", code_b == "Ok"
        if a_ok and b_ok:
            both += 1
            if db and tb:
                dr.append(da / db)
                tr.append(ta / tb)
        elif a_ok:
            only_a += 1
        elif b_ok:
            only_b += 1
    dr.sort()
    tr.sort()
    share = lambda xs, tol: round(sum(1 for x in xs if abs(x - 1) <= tol) / len(xs), 3) if xs else None
    return {"pairs": len(ours), "both_ok": both, "only_wayfinder_ok": only_a, "only_osrm_ok": only_b,
            "median_distance_ratio": round(pct(dr, 50), 4) if dr else None,
            "median_duration_ratio": round(pct(tr, 50), 4) if tr else None,
            "duration_within_5pct": share(tr, 0.05), "duration_within_15pct": share(tr, 0.15),
            "distance_within_5pct": share(dr, 0.05)}


# What the quick benchmark must see to pass: most routes answer Ok, most pairs are answered by both
# engines, and most agree with OSRM (a run where every route is NoRoute, or every answer wrong,
# fails). On the Helsinki clip OSRM answers NoRoute on 146 of the 1,000 pairs (one-ways that run
# off the clip's edge; Wayfinder moves such points up to 124 m), so both answer about 85 %.
AGREEMENT_FLOOR = {"wayfinder_ok_share": 0.95, "both_ok_share": 0.8, "distance_within_5pct": 0.8, "duration_within_15pct": 0.8}


def agreement_problems(name, http):
    """Why an extract's answers fall short of AGREEMENT_FLOOR ([] when they do not)."""
    found = [v for k, v in http.items() if k.startswith("agreement_wayfinder_vs_")]
    if not found:
        return [f"{name}: no agreement with OSRM measured (one engine gave no answers)"]
    a = found[0]
    values = {"wayfinder_ok_share": (a["both_ok"] + a["only_wayfinder_ok"]) / a["pairs"] if a.get("pairs") else 0,
              "both_ok_share": a["both_ok"] / a["pairs"] if a.get("pairs") else 0,
              "distance_within_5pct": a.get("distance_within_5pct") or 0, "duration_within_15pct": a.get("duration_within_15pct") or 0}
    return [f"{name}: {k} {values[k]:.3f} < {floor}" for k, floor in AGREEMENT_FLOOR.items() if values[k] < floor]


def parse_import_output(text):
    """The summary `wayfinder import` prints: seconds, peak memory, per-profile sizes, and every
    stage's seconds and peak memory ("  car hierarchy: 12.34 s, peak 567 MB")."""
    out = {"stages_s": {}, "stages_peak_mb": {}, "profiles": {}}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("imported ") and " in " in line:
            try:
                out["reported_s"] = float(line.split(" in ")[-1].split(" s,")[0])
                out["reported_peak_mb"] = int(line.split("peak memory ")[-1].split(" MB")[0])
            except ValueError:
                pass
        elif " nodes, " in line and " arcs" in line:
            name, rest = line.split(None, 1)
            nums = [int(tok) for tok in rest.replace(",", "").split() if tok.isdigit()]
            if len(nums) >= 4:
                out["profiles"][name] = dict(zip(("nodes", "edges", "arcs", "turns"), nums))
        else:
            m = re.fullmatch(r"(.+): ([0-9.]+) s, peak (\d+) MB", line)
            if m and not line.startswith("import:"):
                out["stages_s"][m.group(1)] = float(m.group(2))
                out["stages_peak_mb"][m.group(1)] = int(m.group(3))
    return out


def available_gb():
    """MemAvailable now, GiB."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) / 1048576
    return 0.0
