#!/usr/bin/env python3
"""Fault scenarios for Wayfinder (issue 9, part 4). Standard library only; run by tests/faults/run.sh.

    faults.py --bin WAYFINDER --sample EXTRACT.osm.pbf --work DIR [--kills N] [--only NAME,…]

Scenarios (each prints its outcome and figures; the last line is a one-line summary):

- kill-import: `wayfinder import` re-importing into a dataset is killed at random moments, by
  SIGKILL and SIGTERM in turn; after each kill the dataset must open and answer exactly as before
  (routes, search, reverse). A SIGTERMed import must exit with 143 and leave no staging folder; a
  final import must succeed and remove the staging folders the SIGKILLed ones left.
- server-restart: a server under load holding time-to-leave watches, each followed by an event
  stream client, is SIGKILLed and restarted on the same port (twice): every watch must come back
  with its state, every client must resume its stream where it left off (Last-Event-ID, no event
  lost or repeated), and the load clients must see no error other than the refused connections
  of the downtime.
- full-disk: on a small tmpfs the test mounts (skipped, with the reason, when mounting is not
  permitted), imports run out of space at several stages and a live traffic update is applied
  with the disk full (over HTTP and with the CLI): each must fail with a clear message and leave
  the previous data answering as before, with no half-written file left behind.
- memory-limit: an extract too big for the memory left is refused at the start (estimate from
  its size and block count), once its roads are read (estimate from their node references), or
  stopped as it goes (exit 75), never killed by the kernel; the previous dataset stays the one
  served.
- damaged-file: single bytes of the graph file are flipped (header fields, columns, directory):
  `serve` must refuse the dataset with a message (a damaged header or directory at open, damaged
  content by the check it runs in the background right after starting, which stops it), and a
  running server must refuse to switch to a damaged re-import; the cost of the check is measured.

Every child process is recorded in DIR/pids (run.sh's trap kills the survivors); the mount point
is DIR/disk (run.sh's trap unmounts it).
"""
import argparse
import datetime
import errno
import hashlib
import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import traceback

RESULTS = []  # (scenario, status, summary)


def say(msg=""):
    print(msg, flush=True)


class Ctx:
    def __init__(self, args):
        self.bin = os.path.abspath(args.bin)
        self.sample = os.path.abspath(args.sample)
        self.work = os.path.abspath(args.work)
        self.kills = args.kills
        self.rng = random.Random(args.seed)
        self.pidfile = os.path.join(self.work, "pids")

    def spawn(self, argv, **kw):
        p = subprocess.Popen([self.bin] + argv, **kw)
        with open(self.pidfile, "a") as f:
            f.write(f"{p.pid}\n")
        return p

    def run(self, argv, timeout=120):
        p = self.spawn(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            return 124, out, err + f"\n(killed after {timeout} s)"
        return p.returncode, out, err


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1] if lines else ""


def checks_summary(name, checks, figures):
    """Records a scenario: checks is [(ok, text)], figures a list of lines."""
    failed = [t for ok, t in checks if not ok]
    status = "PASS" if not failed else "FAIL"
    say(f"--- {name}: {status}")
    for line in figures:
        say(f"    {line}")
    for ok, text in checks:
        say(f"    [{'ok' if ok else 'FAILED'}] {text}")
    RESULTS.append((name, status, figures[0] if figures else ""))


# ---------------------------------------------------------------- dataset helpers


def import_dataset(ctx, out, timeout=300):
    started = time.monotonic()
    rc, so, se = ctx.run(["import", ctx.sample, "--output", out], timeout=timeout)
    if rc != 0:
        raise RuntimeError(f"import into {out} failed ({rc}): {last_line(se)}")
    return time.monotonic() - started


def info(ctx, ds):
    rc, so, se = ctx.run(["info", ds], timeout=60)
    if rc != 0:
        return None, last_line(se)
    return json.loads(so), None


class Probe:
    """Fixed questions to a dataset, asked with the CLI (so nothing is cached between asks)."""

    def __init__(self, ctx, ds):
        doc, err = info(ctx, ds)
        if doc is None:
            raise RuntimeError(f"cannot read {ds}: {err}")
        car = doc["profiles"]["car"]["samplePoints"]
        ped = doc["profiles"].get("pedestrian", {}).get("samplePoints", car)
        fmt = lambda p: f"{p[0]:.6f},{p[1]:.6f}"
        self.questions = [
            ["route", None, "--from", fmt(car[0]), "--to", fmt(car[1]), "--mode", "car",
             "--depart-at", "2030-01-07T08:30", "--format", "json"],
            ["route", None, "--from", fmt(car[1]), "--to", fmt(car[0]), "--mode", "car",
             "--arrive-at", "2030-01-07T18:00", "--format", "json"],
            ["route", None, "--from", fmt(ped[0]), "--to", fmt(ped[1]), "--mode", "pedestrian",
             "--depart-at", "2030-01-07T08:30", "--format", "json"],
            ["search", None, "casino", "--near", fmt(car[0])],
            ["reverse", None, fmt(car[1])],
        ]
        self.ctx = ctx

    def answers(self, ds):
        """A digest per question (or the error), and whether all were answered."""
        out = []
        for q in self.questions:
            argv = [q[0], ds] + q[2:]
            rc, so, se = self.ctx.run(argv, timeout=60)
            out.append(hashlib.sha256(so.encode()).hexdigest()[:16] if rc == 0 else f"error {rc}: {last_line(se)}")
        return out


def data_folders(ds):
    return sorted(d for d in os.listdir(ds) if d.startswith("data-"))


def current_id(ds):
    with open(os.path.join(ds, "manifest.json")) as f:
        return json.load(f)["id"]


# ---------------------------------------------------------------- HTTP helpers


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_json(port, method, path, body=None, timeout=30):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        try:
            return resp.status, json.loads(data) if data else None
        except ValueError:
            return resp.status, data.decode(errors="replace")
    finally:
        conn.close()


class Server:
    def __init__(self, ctx, ds, port, log_path):
        self.ctx, self.ds, self.port, self.log_path = ctx, ds, port, log_path
        self.proc = None

    def start(self, timeout=30):
        """Starts and waits for /health; retries the bind while the old socket lingers."""
        deadline = time.monotonic() + timeout
        while True:
            log = open(self.log_path, "a")
            self.proc = self.ctx.spawn(["serve", self.ds, "--host", "127.0.0.1", "--port", str(self.port), "--quiet"],
                                       stdout=log, stderr=log)
            log.close()
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    break
                try:
                    status, _ = http_json(self.port, "GET", "/health", timeout=2)
                    if status == 200:
                        return
                except OSError:
                    pass
                time.sleep(0.05)
            if time.monotonic() >= deadline:
                raise RuntimeError(f"the server did not come up on port {self.port}")
            time.sleep(0.2)  # exited (e.g. address in use): try again

    def kill(self, sig=signal.SIGKILL):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None


# ---------------------------------------------------------------- scenario: kill import


def scenario_kill_import(ctx):
    ds = os.path.join(ctx.work, "kill-import", "dataset")
    full = import_dataset(ctx, ds)
    # A second, timed import: the first one pays for cold caches.
    full = import_dataset(ctx, ds)
    probe = Probe(ctx, ds)
    before_id = current_id(ds)
    before = probe.answers(ds)
    checks, rows = [], []
    checks.append((not any(a.startswith("error") for a in before), f"baseline answers: {len(before)} questions answered"))
    # One kill in each equal slice of the import's duration, at a random point of the slice.
    times = [(i + ctx.rng.random()) / ctx.kills * 0.98 * full + 0.02 for i in range(ctx.kills)]
    answered = 0
    for i, t in enumerate(times):
        sig = signal.SIGTERM if i % 2 else signal.SIGKILL
        log_path = os.path.join(ctx.work, "kill-import", "import.log")
        folders_before = set(data_folders(ds))
        with open(log_path, "w") as log:
            p = ctx.spawn(["import", ctx.sample, "--output", ds], stdout=log, stderr=log)
            time.sleep(t)
            killed = p.poll() is None
            if killed:
                p.send_signal(sig)
            p.wait()
        with open(log_path) as f:
            stages = [l.split(":", 1)[1].strip() for l in f if l.startswith("import:")]
        stage = stages[-1] if stages else "start"
        doc, err = info(ctx, ds)
        now_id = doc["id"] if doc else None
        after = probe.answers(ds)
        same = after == before
        leftovers = [d for d in data_folders(ds) if d != f"data-{now_id}"]
        switched = now_id is not None and now_id != before_id
        if killed and sig == signal.SIGTERM:
            # Folders this import made that the manifest does not name (earlier SIGKILLs' are older).
            made = [d for d in leftovers if d not in folders_before]
            finished = p.returncode == 0 and switched  # it ended just before the signal came
            checks.append(((p.returncode == 143 or finished) and not made,
                           f"SIGTERM at {t:.2f} s: exit {p.returncode} (143 expected), {len(made)} staging folder(s) of its own left (0 expected)"))
        rows.append(f"{sig.name} at {t:.2f} s ({'during ' + stage if killed else 'after it finished'}): "
                    f"opens {'yes' if doc else 'NO: ' + str(err)}, manifest {'switched to the new import' if switched else 'unchanged'}, "
                    f"answers {'identical' if same else 'DIFFERENT'}, {len(leftovers)} staging folder(s) left")
        checks.append((doc is not None and same,
                       f"after the kill at {t:.2f} s the dataset opens and answers as before"))
        answered += doc is not None and same
        if switched:
            before_id = now_id  # the new import completed before the kill: it is the previous one now
    # A complete import afterwards removes what the killed ones left.
    import_dataset(ctx, ds)
    final_id = current_id(ds)
    leftovers = [d for d in data_folders(ds) if d != f"data-{final_id}"]
    stray = [n for n in os.listdir(ds) if ".tmp-" in n]
    checks.append((not leftovers and not stray, f"a complete re-import afterwards leaves only data-{final_id} ({len(leftovers)} stale folders, {len(stray)} temporary files)"))
    checks.append((probe.answers(ds) == before, "and answers as before"))
    killed_during = sum(1 for r in rows if "during" in r)
    figures = [f"killed import {killed_during} of {len(times)} times at {times[0]:.2f}–{times[-1]:.2f} s of a {full:.2f} s import; "
               f"old dataset answered identically {answered}/{len(times)}"] + rows
    checks_summary("kill-import", checks, figures)
    return ds


# ---------------------------------------------------------------- scenario: server restart with watches


class EventStreamClient(threading.Thread):
    """Follows one watch's Server-Sent Events like EventSource: reconnects with Last-Event-ID."""

    def __init__(self, port, watch_id):
        super().__init__(daemon=True)
        self.port, self.watch_id = port, watch_id
        self.ids, self.types = [], []
        self.last_id = None
        self.connects = 0
        self.stop_event = threading.Event()
        self.conn = None
        self.statuses = []

    def run(self):
        while not self.stop_event.is_set():
            try:
                self.follow()
            except (OSError, http.client.HTTPException):
                pass
            if self.stop_event.wait(0.1):
                break

    def follow(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        self.conn = conn
        try:
            headers = {"Accept": "text/event-stream"}
            if self.last_id is not None:
                headers["Last-Event-ID"] = str(self.last_id)
            conn.request("GET", f"/timetoleave/1/watches/{self.watch_id}/events", headers=headers)
            resp = conn.getresponse()
            self.statuses.append(resp.status)
            if resp.status != 200:
                resp.read()
                time.sleep(0.5)
                return
            self.connects += 1
            event_id, event_type = None, None
            while not self.stop_event.is_set():
                line = resp.readline()
                if not line:
                    return
                line = line.decode().rstrip("\r\n")
                if line == "":
                    if event_id is not None:
                        self.ids.append(int(event_id))
                        self.types.append(event_type or "message")
                        self.last_id = int(event_id)
                    event_id, event_type = None, None
                elif line.startswith("id:"):
                    event_id = line[3:].strip()
                elif line.startswith("event:"):
                    event_type = line[6:].strip()
        finally:
            conn.close()

    def stop(self):
        self.stop_event.set()
        try:
            if self.conn and self.conn.sock:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.join(timeout=5)


class LoadClient(threading.Thread):
    """Routes in a loop (paced), counting answers, HTTP errors and refused connections over time."""

    def __init__(self, port, paths):
        super().__init__(daemon=True)
        self.port, self.paths = port, paths
        self.ok, self.http_errors, self.transport_errors = [], [], []
        self.stop_event = threading.Event()

    def run(self):
        i = 0
        conn = None
        while not self.stop_event.wait(0.01):
            path = self.paths[i % len(self.paths)]
            i += 1
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                conn.request("GET", path)
                resp = conn.getresponse()
                resp.read()
                (self.ok if resp.status == 200 else self.http_errors).append(time.monotonic())
            except (OSError, http.client.HTTPException):
                self.transport_errors.append(time.monotonic())
                if conn is not None:
                    conn.close()
                conn = None
                time.sleep(0.05)
        if conn is not None:
            conn.close()


def watch_state(doc):
    keys = ["id", "createdAt", "origin", "destination", "waypoints", "arriveAt", "travelMode", "routeType", "avoid",
            "preparationTime", "traffic"]
    return {k: doc.get(k) for k in keys}


def scenario_server_restart(ctx, source_ds):
    ds = os.path.join(ctx.work, "server-restart", "dataset")
    shutil.copytree(source_ds, ds, symlinks=True)
    port = free_port()
    server = Server(ctx, ds, port, os.path.join(ctx.work, "server-restart", "server.log"))
    checks, figures = [], []
    server.start()
    streams, loaders = [], []
    try:
        status, _ = http_json(port, "GET", "/timetoleave/1/watches")
        if status == 404:
            checks_summary("server-restart", [(False, "the time-to-leave endpoints are missing (GET /timetoleave/1/watches answers 404)")], [])
            return
        doc, _ = info(ctx, ds)
        box = doc["boundingBox"]
        rng = ctx.rng
        points = []
        for _ in range(200):
            if len(points) >= 12:
                break
            lat, lon = rng.uniform(box[1], box[3]), rng.uniform(box[0], box[2])
            st, d = http_json(port, "GET", f"/nearest/v1/driving/{lon:.6f},{lat:.6f}")
            if st == 200 and d.get("code") == "Ok" and d["waypoints"][0]["distance"] < 200:
                lon2, lat2 = d["waypoints"][0]["location"]
                points.append((lat2, lon2))
        arrive = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=90)).replace(microsecond=0)
        watches = []
        for i in range(8):
            a, b = rng.sample(points, 2)
            body = json.dumps({"origin": {"lat": a[0], "lon": a[1]}, "destination": {"lat": b[0], "lon": b[1]},
                               "arriveAt": arrive.isoformat(), "preparationTime": 300})
            st, d = http_json(port, "POST", "/timetoleave/1/watches", body)
            if st == 201:
                watches.append(d["id"])
        checks.append((len(watches) >= 6, f"created {len(watches)} watches (arrive by {arrive.isoformat()})"))
        paths = []
        for _ in range(30):
            a, b = rng.sample(points, 2)
            paths.append(f"/routing/1/calculateRoute/{a[0]:.6f},{a[1]:.6f}:{b[0]:.6f},{b[1]:.6f}/json")
        streams = [EventStreamClient(port, w) for w in watches]
        for s in streams:
            s.start()
        loaders = [LoadClient(port, paths) for _ in range(3)]
        for l in loaders:
            l.start()
        time.sleep(2.0)
        downtimes, resumed = [], []
        for cycle in range(2):
            before_docs = {w: http_json(port, "GET", f"/timetoleave/1/watches/{w}")[1] for w in watches}
            last_seen = {s.watch_id: s.last_id for s in streams}
            server.kill(signal.SIGKILL)
            time.sleep(0.5)  # clients see refused connections meanwhile
            t_start = time.monotonic()
            server.start()
            t_up = time.monotonic()
            downtimes.append(t_up - t_start)
            # Watches are re-planned at the first tick after a restart: every stream gets a new event.
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if all(s.last_id is not None and last_seen[s.watch_id] is not None and s.last_id > last_seen[s.watch_id] for s in streams):
                    break
                time.sleep(0.1)
            resumed.append(sum(1 for s in streams if s.last_id is not None and last_seen[s.watch_id] is not None
                               and s.last_id > last_seen[s.watch_id]))
            st, listing = http_json(port, "GET", "/timetoleave/1/watches")
            after_ids = sorted(d["id"] for d in listing["watches"]) if st == 200 else []
            checks.append((after_ids == sorted(watches), f"restart {cycle + 1}: all {len(watches)} watches listed again"))
            same_state, planned, events_kept = 0, 0, 0
            for w in watches:
                st, d = http_json(port, "GET", f"/timetoleave/1/watches/{w}")
                if st != 200:
                    continue
                b = before_docs[w]
                if watch_state(d) == watch_state(b):
                    same_state += 1
                if d.get("departureTime") and d.get("planCount", 0) >= b.get("planCount", 0) and d.get("route"):
                    planned += 1
                if d.get("lastEventId", 0) >= b.get("lastEventId", 0):
                    events_kept += 1
            checks.append((same_state == len(watches), f"restart {cycle + 1}: {same_state}/{len(watches)} watches with the same trip, times and options"))
            checks.append((planned == len(watches), f"restart {cycle + 1}: {planned}/{len(watches)} with a plan and a route, plan count not reset"))
            checks.append((events_kept == len(watches), f"restart {cycle + 1}: {events_kept}/{len(watches)} event counters not reset"))
            checks.append((resumed[-1] == len(streams), f"restart {cycle + 1}: {resumed[-1]}/{len(streams)} event streams resumed and got new events"))
            time.sleep(1.0)
        for l in loaders:
            l.stop_event.set()
        for l in loaders:
            l.join(timeout=15)
        for s in streams:
            s.stop()
        gaps = []
        for s in streams:
            ids = s.ids
            ok = all(b == a + 1 for a, b in zip(ids, ids[1:]))
            if not ok:
                gaps.append(f"{s.watch_id}: {ids}")
        checks.append((not gaps, f"every stream's event ids are consecutive across the restarts (none lost, none repeated)"
                                 + (f": {gaps[:2]}" if gaps else "")))
        reconnects = [s.connects for s in streams]
        checks.append((min(reconnects) >= 3, f"every stream connected 3 times (first, after each restart): {min(reconnects)}–{max(reconnects)}"))
        ok = sum(len(l.ok) for l in loaders)
        http_errors = sum(len(l.http_errors) for l in loaders)
        refused = sum(len(l.transport_errors) for l in loaders)
        after_last = sum(1 for l in loaders for t in l.ok if t > t_up)
        checks.append((http_errors == 0, f"load clients: {ok} routes answered, {http_errors} HTTP errors, {refused} refused/reset during the downtimes"))
        checks.append((after_last > 0, f"load clients resumed: {after_last} routes answered after the last restart"))
        events = sum(len(s.ids) for s in streams)
        figures.append(f"SIGKILLed the server twice under load ({len(loaders)} route clients, {len(watches)} watches with event streams); "
                       f"down 0.5 s, then answering {', '.join(f'{d:.2f}' for d in downtimes)} s after the restart; "
                       f"{events} events received in order; {ok} routes answered by the load clients")
        checks_summary("server-restart", checks, figures)
    finally:
        for l in loaders:
            l.stop_event.set()
        for s in streams:
            s.stop_event.set()
        server.kill(signal.SIGTERM)


# ---------------------------------------------------------------- scenario: full disk


def disk_free(path):
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


def fill_disk(mount, leave_bytes):
    """Allocates a filler file so that about `leave_bytes` stay free; returns its path.

    The free space read just before can be a little more than tmpfs then grants (its pages are
    counted as they are allocated), so an allocation the disk refuses is retried a page run smaller
    rather than failing the scenario: the checks only need the disk about as full as asked."""
    path = os.path.join(mount, f"filler-{len(os.listdir(mount))}")
    with open(path, "wb") as f:
        for attempt in range(64):
            size = max(0, disk_free(mount) - leave_bytes - attempt * (64 << 10))
            if not size:
                break
            try:
                os.posix_fallocate(f.fileno(), 0, size)
                break
            except OSError as e:
                if e.errno != errno.ENOSPC:
                    raise
                f.truncate(0)
    return path


def fill_completely(mount):
    fill_disk(mount, 0)
    # Whatever the allocation left (partial pages): small files until the disk says no.
    for i in range(10000):
        try:
            with open(os.path.join(mount, f"crumb-{i}"), "wb") as f:
                f.write(b"x" * 4096)
        except OSError:
            break


def mentions_space(text):
    t = text.lower()
    return ("no space left" in t or "disk is full" in t or "disk full" in t or "enospc" in t
            or "not enough disk space" in t)


def scenario_full_disk(ctx, source_ds):
    mount = os.path.join(ctx.work, "disk")
    os.makedirs(mount, exist_ok=True)
    size_mb = 40
    try:
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", mount],
                           capture_output=True, text=True, timeout=20)
        mounted = r.returncode == 0
        reason = last_line(r.stderr) or f"mount exited with {r.returncode}"
    except (OSError, subprocess.TimeoutExpired) as e:
        mounted, reason = False, str(e)
    if not mounted:
        say(f"--- full-disk: SKIPPED (mounting a {size_mb} MB tmpfs is not permitted here: {reason})")
        RESULTS.append(("full-disk", "SKIPPED", reason))
        return
    server = None
    try:
        checks, figures = [], []
        ds = os.path.join(mount, "dataset")
        import_dataset(ctx, ds)
        probe = Probe(ctx, ds)
        base_id = current_id(ds)
        before = probe.answers(ds)
        with open(os.path.join(ds, "manifest.json")) as f:
            files = {k: v["bytes"] for k, v in json.load(f)["files"].items()}
        graph = files.get("graph.wfg", 0)
        basemap = sum(v for k, v in files.items() if k.startswith("basemap"))
        # Free space at the start of the import: nothing, about the graph, the graph and the base map.
        # The first ones are refused before anything is written; the last passes that check (it is
        # more than the least a dataset takes) and must be stopped as the disk runs low.
        levels = [("almost nothing", 128 << 10), ("the graph file only", graph + (256 << 10)),
                  ("the graph and base map", graph + basemap + (256 << 10)),
                  ("all but the last 256 KB of the dataset", sum(files.values()) - (256 << 10))]
        for label, leave in levels:
            fillers_before = set(os.listdir(mount))
            filler = fill_disk(mount, leave)
            free_before = disk_free(mount)
            started = time.monotonic()
            rc, so, se = ctx.run(["import", ctx.sample, "--output", ds], timeout=180)
            seconds = time.monotonic() - started
            message = last_line(se)
            free_after = disk_free(mount)
            now_id = current_id(ds)
            leftovers = [d for d in data_folders(ds) if d != f"data-{now_id}"]
            stray = [n for n in os.listdir(ds) if ".tmp-" in n] + [n for d in data_folders(ds) for n in os.listdir(os.path.join(ds, d)) if ".tmp-" in n]
            after = probe.answers(ds)
            figures.append(f"import with {free_before / 1048576:.1f} MB free ({label}): exit {rc} after {seconds:.2f} s: {message[:300]}")
            checks.append((rc != 0 and mentions_space(message), f"import with {label} free fails and says the disk is full"))
            checks.append((now_id == base_id and after == before, f"… the previous dataset still opens and answers as before"))
            checks.append((not leftovers and not stray and free_after >= free_before - (64 << 10),
                           f"… and leaves no staging folder or temporary file taking the space ({len(leftovers)} folders, {len(stray)} files, "
                           f"{(free_before - free_after) / 1048576:.1f} MB not given back)"))
            for name in set(os.listdir(mount)) - fillers_before:
                os.remove(os.path.join(mount, name))

        # Live traffic with the disk full: over HTTP and with the CLI.
        port = free_port()
        server = Server(ctx, ds, port, os.path.join(ctx.work, "full-disk-server.log"))
        server.start()
        doc, _ = info(ctx, ds)
        car = doc["profiles"]["car"]["samplePoints"]
        route_path = f"/routing/1/calculateRoute/{car[0][0]:.6f},{car[0][1]:.6f}:{car[1][0]:.6f},{car[1][1]:.6f}/json?routeRepresentation=summaryOnly"
        st, nearest = http_json(port, "GET", f"/nearest/v1/driving/{car[0][1]:.6f},{car[0][0]:.6f}")
        a, b = nearest["waypoints"][0]["nodes"]
        first = f"from_osm_node_id,to_osm_node_id,speed_kmh\n{a},{b},20\n{b},{a},20\n"
        st1, _ = http_json(port, "POST", "/traffic/1/speeds?expiresIn=600", first)
        status_before = http_json(port, "GET", "/traffic/1/status")[1]
        fillers_before = set(os.listdir(mount))
        fill_completely(mount)
        # A large update (20,000 lines) so that it needs many pages.
        big = "from_osm_node_id,to_osm_node_id,speed_kmh\n" + "".join(f"{a},{b},{5 + i % 50}\n" for i in range(20000))
        st2, body2 = http_json(port, "POST", "/traffic/1/speeds?expiresIn=600", big)
        message2 = (body2.get("detailedError", {}).get("message", json.dumps(body2)) if isinstance(body2, dict) else str(body2))
        status_after = http_json(port, "GET", "/traffic/1/status")[1]
        route_ok = http_json(port, "GET", route_path)[0] == 200
        live = os.path.join(ds, "state", "traffic", "live")
        stray = [n for n in os.listdir(live) if ".tmp-" in n]
        csv_path = os.path.join(ctx.work, "big.csv")
        with open(csv_path, "w") as f:
            f.write(big)
        rc3, so3, se3 = ctx.run(["traffic", ds, "apply", csv_path, "--expires-in", "10m"], timeout=60)
        status_cli = http_json(port, "GET", "/traffic/1/status")[1]
        figures.append(f"traffic update with the disk full: HTTP {st2}: {message2[:300]}")
        figures.append(f"`wayfinder traffic apply` with the disk full: exit {rc3}: {last_line(se3)[:300]}")
        checks.append((st1 == 201, "a first update applies while there is space"))
        checks.append((st2 >= 500 and mentions_space(message2), "the HTTP update on a full disk is refused (5xx) and says the disk is full"))
        checks.append((rc3 != 0 and mentions_space(se3), "the CLI update on a full disk exits non-zero and says the disk is full"))
        in_force = lambda s: ([u["id"] for u in s["updates"]], {m: (v["generation"], v["liveArcs"]) for m, v in s["modes"].items()})
        same_updates = in_force(status_before) == in_force(status_after) == in_force(status_cli)
        checks.append((same_updates and route_ok and not stray,
                       f"the traffic in force is unchanged ({len(status_before['updates'])} update, same snapshot generation and live arcs; "
                       f"routes still answered; {len(stray)} temporary files left)"))
        checks.append((server.alive(), "the server keeps running"))
        for name in set(os.listdir(mount)) - fillers_before:
            os.remove(os.path.join(mount, name))
        st4, _ = http_json(port, "POST", "/traffic/1/speeds?expiresIn=600", big)
        checks.append((st4 == 201, "with space again, the same update applies"))
        figures.insert(0, f"tmpfs of {size_mb} MB: {len(levels)} imports and 2 traffic updates ran out of space; "
                          f"old dataset and traffic intact {sum(1 for ok, _ in checks if ok)}/{len(checks)} checks")
        checks_summary("full-disk", checks, figures)
    finally:
        if server is not None:
            server.kill(signal.SIGTERM)
        subprocess.run(["umount", mount], capture_output=True, timeout=30)
        if os.path.ismount(mount):
            subprocess.run(["umount", "-l", mount], capture_output=True, timeout=30)


# ---------------------------------------------------------------- scenario: damaged file


def flip(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)
        f.seek(offset)
        f.write(bytes([b[0] ^ 0xFF]))


def scenario_damaged_file(ctx, source_ds):
    ds = os.path.join(ctx.work, "damaged", "dataset")
    shutil.copytree(source_ds, ds, symlinks=True)
    data_id = current_id(ds)
    graph = os.path.join(ds, f"data-{data_id}", "graph.wfg")
    size = os.path.getsize(graph)
    with open(graph, "rb") as f:
        header = f.read(64)
    directory_offset = 64 + int.from_bytes(header[16:24], "little")
    rng = ctx.rng
    offsets = [("magic", 0), ("format version", 8), ("reserved header bytes", 13), ("directory offset", 17),
               ("content checksum", 33), ("header padding", 50)]
    offsets += [("column data", rng.randrange(64, directory_offset)) for _ in range(4)]
    offsets += [("directory text", rng.randrange(directory_offset, size)) for _ in range(3)]
    checks, rows, messages = [], [], {}
    for what, offset in offsets:
        flip(graph, offset)
        try:
            p = ctx.spawn(["serve", ds, "--host", "127.0.0.1", "--port", "0", "--quiet"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                out, err = p.communicate(timeout=8)
                rc = p.returncode
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
                rc = None
        finally:
            flip(graph, offset)
        # The graph file's header and directory are checked at open; its content, then the places
        # index and base map, by the check the server runs in the background right after it
        # starts (routing waits for the graph's), which stops it.
        served = "serving" in out
        message = last_line(err)
        refused = rc not in (None, 0) and "damaged" in message
        messages.setdefault(message.replace(ds, "DATASET"), []).append(offset)
        rows.append(f"byte {offset} ({what}): {('stopped by the background check' if served else 'refused at open') + ', exit ' + str(rc) if refused else 'SERVED' if served else f'exit {rc}'}")
        checks.append((refused, f"flipped byte at offset {offset} ({what}) of the {size / 1048576:.1f} MB graph file: serve refuses it or stops"))
    # The CLI refuses too (one sample).
    offset = offsets[6][1]
    flip(graph, offset)
    try:
        probe_rc, _, probe_err = ctx.run(["info", ds], timeout=30)
    finally:
        flip(graph, offset)
    checks.append((probe_rc != 0 and "damaged" in probe_err, f"`wayfinder info` refuses it as well (exit {probe_rc})"))

    # A running server never switches to a damaged re-import.
    port = free_port()
    log_path = os.path.join(ctx.work, "damaged", "server.log")
    server = Server(ctx, ds, port, log_path)
    server.start()
    try:
        new_id = data_id + "-damaged"
        shutil.copytree(os.path.join(ds, f"data-{data_id}"), os.path.join(ds, f"data-{new_id}"))
        flip(os.path.join(ds, f"data-{new_id}", "graph.wfg"), rng.randrange(64, directory_offset))
        with open(os.path.join(ds, "manifest.json")) as f:
            manifest = json.load(f)
        manifest["id"] = new_id
        manifest["files"] = {k: dict(v, path=v["path"].replace(f"data-{data_id}", f"data-{new_id}")) for k, v in manifest["files"].items()}
        tmp = os.path.join(ds, "manifest.json.tmp-faults")
        with open(tmp, "w") as f:
            json.dump(manifest, f)
        os.replace(tmp, os.path.join(ds, "manifest.json"))
        time.sleep(3)  # the server polls the manifest every half second
        st, health = http_json(port, "GET", "/health")
        with open(log_path) as f:
            log = f.read()
        kept = st == 200 and health.get("dataset") == data_id
        checks.append((kept and "reload failed" in log and "damaged" in log,
                       "a running server keeps its dataset when the re-import it notices is damaged, and logs why"))
        attempts = sum(1 for l in log.splitlines() if "reload failed" in l)
        rows.append(f"damaged re-import under a running server: {'kept ' + str(health.get('dataset')) if kept else 'SWITCHED'} "
                    f"({attempts} failed reload attempts logged in 3 s); log: "
                    + last_line("\n".join(l for l in log.splitlines() if "reload" in l))[:200])
    finally:
        server.kill(signal.SIGTERM)

    # The cost of the check at open.
    verify_ms = []
    for _ in range(7):
        doc, _ = info(ctx, source_ds)
        if doc:
            verify_ms.append(doc.get("graphVerificationMs", 0))
    median = statistics.median(verify_ms) if verify_ms else float("nan")
    mb = size / 1048576
    for msg, offs in messages.items():
        rows.append(f"message for offsets {offs}: {msg[:220]}")
    cost = f"{median:.2f} ms for {mb:.1f} MB"

    # The same on a bigger graph: a synthetic 300k-node network (car only), ~60 MB.
    big = os.path.join(ctx.work, "damaged", "synthetic")
    extract = os.path.join(ctx.work, "damaged", "synthetic.osm.pbf")
    rc, _, err = ctx.run(["generate", "--nodes", "300k", "--output", extract], timeout=120)
    if rc == 0:
        rc, _, err = ctx.run(["import", extract, "--output", big, "--profiles", "car", "--skip-places", "--skip-basemap"], timeout=180)
    if rc == 0:
        big_ms, walls = [], []
        for _ in range(5):
            started = time.monotonic()
            doc, _ = info(ctx, big)
            walls.append((time.monotonic() - started) * 1000)
            if doc:
                big_ms.append(doc.get("graphVerificationMs", 0))
        big_graph = os.path.join(big, f"data-{current_id(big)}", "graph.wfg")
        big_mb = os.path.getsize(big_graph) / 1048576
        big_median = statistics.median(big_ms) if big_ms else float("nan")
        cost += (f"; {big_median:.1f} ms for {big_mb:.0f} MB ({big_mb / 1024 / max(big_median, 1e-6) * 1000:.1f} GB/s; "
                 f"{100 * big_median / statistics.median(walls):.0f}% of the {statistics.median(walls):.0f} ms `wayfinder info` takes)")
        offset = rng.randrange(64, os.path.getsize(big_graph))
        flip(big_graph, offset)
        rc, _, err = ctx.run(["info", big], timeout=60)
        flip(big_graph, offset)
        checks.append((rc != 0 and "damaged" in err, f"a flipped byte at offset {offset} of the {big_mb:.0f} MB synthetic graph is refused too"))
    else:
        rows.append(f"(no synthetic network for the cost figure: {last_line(err)})")
    figures = [f"flipped {len(offsets)} single bytes of the graph file: refused {sum(1 for ok, _ in checks[:len(offsets)] if ok)}/{len(offsets)}; "
               f"verification cost at open (median): {cost}"] + rows
    checks_summary("damaged-file", checks, figures)


# ---------------------------------------------------------------- main


# ---------------------------------------------------------------- scenario: not enough memory


def scenario_memory_limit(ctx, source_ds):
    """An extract too big for the memory left: refused at the start when even the estimate does
    not fit, refused once its roads are read or stopped cleanly as it goes (exit 75); the previous
    dataset stays as it was, and a server on it keeps answering."""
    ds = os.path.join(ctx.work, "memory", "dataset")
    shutil.copytree(source_ds, ds, symlinks=True)
    probe = Probe(ctx, ds)
    before, before_id = probe.answers(ds), current_id(ds)
    checks, figures = [], []
    extract = os.path.join(ctx.work, "memory", "synthetic.osm.pbf")
    rc, _, err = ctx.run(["generate", "--nodes", "300k", "--output", extract], timeout=120)
    if rc != 0:
        raise RuntimeError(f"generate failed: {last_line(err)}")
    port = free_port()
    server = Server(ctx, ds, port, os.path.join(ctx.work, "memory", "server.log"))
    server.start()
    try:
        # Refused before it starts: the estimate from the size and block count does not fit.
        started = time.monotonic()
        rc, _, err = ctx.run(["import", extract, "--output", ds, "--max-memory", "16M"], timeout=120)
        figures.append(f"--max-memory 16M: exit {rc} after {time.monotonic() - started:.2f} s: {last_line(err)[:300]}")
        checks.append((rc == 75 and "needs at least" in err and "nothing was changed" in err,
                       "an import whose estimate does not fit is refused at once (exit 75) with the estimate and what is left"))
        # Passes the estimate from blocks (a bound far below the peak), then not the one made once
        # the roads are read, or else the limit as it goes: stopped before the kernel would kill it.
        rc, so, _ = ctx.run(["import", extract, "--output", os.path.join(ctx.work, "memory", "probe"), "--json",
                             "--skip-places", "--skip-basemap", "--max-memory", "0"], timeout=300)
        estimate = json.loads(so)["estimatedPeakMB"] if rc == 0 else 64
        limit = int(estimate * 1.2) + 1
        started = time.monotonic()
        rc, _, err = ctx.run(["import", extract, "--output", ds, "--max-memory", f"{limit}M"], timeout=300)
        figures.append(f"--max-memory {limit}M (estimate {estimate} MB): exit {rc} after {time.monotonic() - started:.2f} s: "
                       f"{last_line(err)[:300]}")
        checks.append((rc == 75 and ("stopped after reading the roads" in err or "stopped before running out of memory" in err),
                       "an import past the limit after its start stops itself (exit 75) and says why "
                       "(refused once its roads are read, or stopped as it goes)"))
        leftovers = [d for d in data_folders(ds) if d != f"data-{before_id}"]
        stray = [n for n in os.listdir(ds) if ".tmp-" in n]
        checks.append((current_id(ds) == before_id and not leftovers and not stray,
                       f"the manifest still names the previous data ({len(leftovers)} folders, {len(stray)} temporary files left)"))
        checks.append((probe.answers(ds) == before, "the previous dataset answers as before"))
        status, _ = http_json(port, "GET", "/health")
        checks.append((server.alive() and status == 200, "a server on the dataset kept serving it throughout"))
    finally:
        server.kill(signal.SIGTERM)
    checks_summary("memory-limit", checks, figures)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--sample", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--kills", type=int, default=6)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    ctx = Ctx(args)
    only = set(filter(None, args.only.split(",")))
    want = lambda name: not only or name in only
    say(f"fault scenarios (seed {args.seed})")
    started = time.monotonic()
    scenarios = [
        ("kill-import", lambda ds: scenario_kill_import(ctx)),
        ("damaged-file", lambda ds: scenario_damaged_file(ctx, ds)),
        ("full-disk", lambda ds: scenario_full_disk(ctx, ds)),
        ("server-restart", lambda ds: scenario_server_restart(ctx, ds)),
        ("memory-limit", lambda ds: scenario_memory_limit(ctx, ds)),
    ]
    ds = None
    for name, body in scenarios:
        if ds is None:
            ds = os.path.join(ctx.work, "base", "dataset")
            import_dataset(ctx, ds)
        if not want(name):
            continue
        t = time.monotonic()
        try:
            body(ds)
        except Exception as e:  # a scenario that cannot even run is a failure, reported as such
            frame = traceback.extract_tb(e.__traceback__)[-1]
            say(f"--- {name}: FAIL ({type(e).__name__}: {e}, at line {frame.lineno} in {frame.name}: {frame.line})")
            RESULTS.append((name, "FAIL", str(e)))
        say(f"    ({time.monotonic() - t:.1f} s)")
    failed = [n for n, s, _ in RESULTS if s == "FAIL"]
    summary = ", ".join(f"{n} {s}" for n, s, _ in RESULTS)
    say(f"faults: {summary} in {time.monotonic() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
