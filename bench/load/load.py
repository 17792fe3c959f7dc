#!/usr/bin/env python3
"""Bounded mixed load on a running `wayfinder serve` (issue 9, part 3). Standard library only.

    load.py --url URL --pid PID --dataset DIR --work DIR [--seconds N] [--warmup N]

Builds request lists from the dataset itself (snapped points, real street names, real routes,
the tiles over its bounding box; every request is tried once and kept only if it answers 200),
then runs three phases of the same closed-loop mix (one `wrk` per request type, all at once, so
each type has its own latency histogram):

1. steady: route, typeahead, reverse, along-route and tile requests at the highest rate the
   machine sustains;
2. live traffic: the same, while a thread POSTs a live speed update every second that
   alternates two states A and B of one corridor, and checker threads route across that
   corridor, verifying every answer is exactly A or exactly B (never a mix), and that the
   state just applied is visible as soon as the POST returns;
3. update burst: the same with the updates back to back (as fast as the server applies them),
   which exposes any refresh publishing an older snapshot over a newer one.

The server's resident memory and open descriptors are sampled every second. Prints one JSON
report and exits 0 when every verdict passes, 1 otherwise.
"""
import argparse
import http.client
import json
import math
import os
import random
import subprocess
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = ["route", "typeahead", "reverse", "alongRoute", "tile"]
# Connections per request type (closed loop: each sends its next request when the answer is in).
CONNECTIONS = {"route": 4, "typeahead": 2, "reverse": 2, "alongRoute": 2, "tile": 2}
# RSS may grow by at most this much between the first and last sample of a phase.
RSS_GROWTH_LIMIT_MIB = 16.0
RSS_GROWTH_LIMIT_FRACTION = 0.10
# Corridor speeds of the two alternating live updates (both above any free-flow speed in a city,
# so the fastest path stays on the corridor and its travel time is live speeds only).
SPEED_A, SPEED_B = 100.0, 300.0
CHECK_INTERVAL_SECONDS = 0.02
# Descriptors at idle may grow by this many, and only for dataset files: the places index keeps
# up to 8 idle read-only SQLite connections (SQLitePlaceStore's maximumIdleConnections), opened
# as concurrency first peaks. Sockets or anything else never.
FD_POOL_GROWTH_LIMIT = 8


def log(msg):
    print(f"load: {msg}", file=sys.stderr, flush=True)


class Client:
    """One keep-alive HTTP/1.1 connection; reconnects after a transport error."""

    def __init__(self, host, port, timeout=30):
        self.host, self.port, self.timeout = host, port, timeout
        self.conn = None

    def request(self, method, path, body=None, headers=None):
        hdrs = dict(headers or {})
        if body is not None and "Content-Type" not in hdrs:
            hdrs["Content-Type"] = "application/json"
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            started = time.monotonic()
            try:
                self.conn.request(method, path, body=body, headers=hdrs)
                resp = self.conn.getresponse()
                data = resp.read()
                return resp.status, data, time.monotonic() - started
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                # A keep-alive connection the server closed while idle: retry once on a new one.
                if attempt == 1:
                    raise
        raise RuntimeError("unreachable")

    def json(self, method, path, body=None):
        status, data, _ = self.request(method, path, body)
        try:
            return status, json.loads(data) if data else None
        except ValueError:
            return status, None

    def close(self):
        if self.conn is not None:
            self.conn.close()


# ---------------------------------------------------------------- request lists


def tile_xy(lat, lon, z):
    n = 2 ** z
    x = int((lon + 180.0) / 360.0 * n)
    r = math.radians(lat)
    y = int((1.0 - math.asinh(math.tan(r)) / math.pi) / 2.0 * n)
    return min(max(x, 0), n - 1), min(max(y, 0), n - 1)


def build_requests(client, dataset, rng, tiles_enabled):
    """Request lines per type (METHOD, PATH, BODY or None), each tried once and answering 200."""
    with open(os.path.join(dataset, "manifest.json")) as f:
        manifest = json.load(f)
    min_lon, min_lat, max_lon, max_lat = manifest["boundingBox"]
    lists = {t: [] for t in TYPES}
    notes = {}

    def ok(method, path, body=None):
        status, data, _ = client.request(method, path, body)
        return status == 200, data

    def random_point():
        return rng.uniform(min_lat, max_lat), rng.uniform(min_lon, max_lon)

    # Road points: random points snapped to the car graph.
    snapped = []
    for _ in range(400):
        if len(snapped) >= 60:
            break
        lat, lon = random_point()
        status, doc = client.json("GET", f"/nearest/v1/driving/{lon:.6f},{lat:.6f}")
        if status == 200 and doc and doc.get("code") == "Ok" and doc["waypoints"][0]["distance"] < 300:
            wlon, wlat = doc["waypoints"][0]["location"]
            snapped.append((wlat, wlon))
    if len(snapped) < 4:
        raise SystemExit("load: fewer than 4 road points found in the dataset's bounding box")

    # Routes between road points, with a few common option mixes.
    variants = ["", "?instructionsType=text", "?routeType=shortest", "?maxAlternatives=1", "?travelMode=pedestrian"]
    routes_with_points = []
    for _ in range(300):
        if len(lists["route"]) >= 120:
            break
        a, b = rng.sample(snapped, 2)
        path = f"/routing/1/calculateRoute/{a[0]:.6f},{a[1]:.6f}:{b[0]:.6f},{b[1]:.6f}/json"
        variant = rng.choice(variants)
        if not ok("GET", path + variant)[0]:
            continue
        lists["route"].append(("GET", path + variant, None))
        if len(routes_with_points) < 40:
            good, data = ok("GET", path)
            if good:
                doc = json.loads(data)
                pts = [p for leg in doc["routes"][0]["legs"] for p in leg.get("points", [])]
                if len(pts) >= 2:
                    routes_with_points.append(pts)

    # Typeahead prefixes of real street names (from reverse geocoding road points).
    names = set()
    for lat, lon in snapped:
        status, doc = client.json("GET", f"/search/2/reverseGeocode/{lat:.6f},{lon:.6f}.json")
        if status == 200 and doc:
            for a in doc.get("addresses", []):
                name = a.get("address", {}).get("streetName")
                if name:
                    names.add(name)
    for name in sorted(names):
        for n in (2, 3, 5, 8, len(name)):
            prefix = name[:n]
            lat, lon = rng.choice(snapped)
            q = urllib.parse.quote(prefix, safe="")
            path = f"/search/2/search/{q}.json?typeahead=true&limit=10&lat={lat:.5f}&lon={lon:.5f}"
            if ok("GET", path)[0]:
                lists["typeahead"].append(("GET", path, None))
    rng.shuffle(lists["typeahead"])
    lists["typeahead"] = lists["typeahead"][:150]
    if not names:
        notes["typeahead"] = "no street names found by reverse geocoding"

    # Reverse geocoding anywhere in the bounding box.
    for _ in range(150):
        lat, lon = random_point()
        path = f"/search/2/reverseGeocode/{lat:.6f},{lon:.6f}.json"
        if ok("GET", path)[0]:
            lists["reverse"].append(("GET", path, None))

    # Search along real routes.
    queries = ["restaurant", "cafe", "pharmacy", "parking", "hotel", "bank", "fuel", "supermarket"]
    for pts in routes_with_points:
        step = max(1, len(pts) // 80)
        sample = pts[::step]
        if sample[-1] is not pts[-1]:
            sample.append(pts[-1])
        body = json.dumps({"route": {"points": [{"lat": p["latitude"], "lon": p["longitude"]} for p in sample]}},
                          separators=(",", ":"))
        path = f"/search/2/searchAlongRoute/{rng.choice(queries)}.json?maxDetourTime=300&limit=10"
        if ok("POST", path, body)[0]:
            lists["alongRoute"].append(("POST", path, body))

    # Tiles over the bounding box, zooms 12-17 (capped), rendered once here so the run reads the cache.
    if tiles_enabled:
        tiles = []
        for z in range(12, 18):
            x0, y0 = tile_xy(max_lat, min_lon, z)
            x1, y1 = tile_xy(min_lat, max_lon, z)
            zoom_tiles = [(z, x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]
            rng.shuffle(zoom_tiles)
            tiles += zoom_tiles[:40]
        for z, x, y in tiles:
            path = f"/tiles/{z}/{x}/{y}.png"
            if ok("GET", path)[0]:
                lists["tile"].append(("GET", path, None))
    else:
        notes["tile"] = "the dataset has no base map (tiles disabled)"
    return lists, notes, snapped, routes_with_points


def write_list(path, reqs):
    with open(path, "w") as f:
        for method, p, body in reqs:
            f.write(f"{method}\t{p}\t{body}\n" if body else f"{method}\t{p}\n")


# ---------------------------------------------------------------- sampling


def proc_rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def proc_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


class Sampler(threading.Thread):
    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.samples, self.stop_event = pid, [], threading.Event()

    def run(self):
        start = time.monotonic()
        while not self.stop_event.wait(1.0):
            try:
                self.samples.append((round(time.monotonic() - start, 1), proc_rss_kib(self.pid), proc_fds(self.pid)))
            except OSError:
                return


def fd_targets(pid):
    out = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            out[fd] = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            pass
    return out


def settled_fds(pid, target=None, timeout=5.0):
    """The descriptor count once no more connections are closing (or it is back to `target`)."""
    deadline = time.monotonic() + timeout
    last = proc_fds(pid)
    while time.monotonic() < deadline:
        time.sleep(0.25)
        now = proc_fds(pid)
        if (target is not None and now <= target) or (target is None and now == last):
            return now
        last = now
    return last


# ---------------------------------------------------------------- wrk


def start_wrk(url, work, phase, seconds, lists):
    procs = {}
    for t in TYPES:
        if not lists[t]:
            continue
        reqs = os.path.join(work, f"reqs-{t}.txt")
        out = os.path.join(work, f"wrk-{phase}-{t}.json")
        if os.path.exists(out):
            os.remove(out)
        env = dict(os.environ, WRK_REQS=reqs, WRK_OUT=out)
        cmd = ["wrk", "-t1", f"-c{CONNECTIONS[t]}", f"-d{seconds}s", "--timeout", "10s",
               "-s", os.path.join(HERE, "..", "wrk_requests.lua"), url]
        log_file = open(os.path.join(work, f"wrk-{phase}-{t}.log"), "w")
        procs[t] = (subprocess.Popen(cmd, env=env, stdout=log_file, stderr=subprocess.STDOUT), out, log_file)
    return procs


def finish_wrk(procs, seconds):
    results = {}
    for t, (proc, out, log_file) in procs.items():
        try:
            proc.wait(timeout=seconds + 30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log_file.close()
        try:
            with open(out) as f:
                results[t] = json.load(f)
        except (OSError, ValueError):
            results[t] = None
    return results


# ---------------------------------------------------------------- live traffic corridor


def find_corridor(client, routes_with_points, rng):
    """A stretch of road whose every segment is known by its OSM node pair, and a query across it
    whose answer depends on those segments' live speeds only. Returns None if none qualifies."""
    candidates = sorted(routes_with_points, key=len, reverse=True)
    for pts in candidates[:12]:
        pairs, mids = [], []
        meters = 0.0
        for p, q in zip(pts, pts[1:]):
            lat, lon = (p["latitude"] + q["latitude"]) / 2, (p["longitude"] + q["longitude"]) / 2
            if p == q:
                continue
            # At most about 4 km: a trip across it stays in the minutes where live speeds count in
            # full (later in a long trip they fade into the historical ones, by design).
            meters += math.dist((p["latitude"] * 111_320, p["longitude"] * 111_320 * math.cos(math.radians(lat))),
                                (q["latitude"] * 111_320, q["longitude"] * 111_320 * math.cos(math.radians(lat))))
            if meters > 4000 and len(pairs) >= 8:
                break
            status, doc = client.json("GET", f"/nearest/v1/driving/{lon:.7f},{lat:.7f}")
            if status != 200 or not doc or doc.get("code") != "Ok":
                pairs = None
                break
            w = doc["waypoints"][0]
            # Route points have 5 decimals (about a metre): the midpoint is within a few metres.
            if w["distance"] > 4.0:
                pairs = None
                break
            pairs.append(tuple(w["nodes"]))
            mids.append((lat, lon))
        if not pairs or len(pairs) < 6:
            continue
        origin, destination = mids[1], mids[-2]
        path = (f"/routing/1/calculateRoute/{origin[0]:.7f},{origin[1]:.7f}:{destination[0]:.7f},{destination[1]:.7f}/json"
                "?routeRepresentation=summaryOnly")
        corridor = {"pairs": pairs, "path": path}
        csv = {}
        for name, speed in (("A", SPEED_A), ("B", SPEED_B)):
            lines = ["from_osm_node_id,to_osm_node_id,speed_kmh"]
            for a, b in dict.fromkeys(pairs):
                lines.append(f"{a},{b},{speed:g}")
                lines.append(f"{b},{a},{speed:g}")
            csv[name] = "\n".join(lines) + "\n"
        corridor["csv"] = csv

        def apply(name):
            status, doc = client.json("POST", "/traffic/1/speeds?expiresIn=600", csv[name])
            return status == 201, doc

        def measure():
            status, doc = client.json("GET", path)
            if status != 200:
                return None
            s = doc["routes"][0]["summary"]
            return s["travelTimeInSeconds"], s["lengthInMeters"]

        applied_a, report_a = apply("A")
        ta = measure() if applied_a else None
        applied_b, _ = apply("B")
        tb = measure() if applied_b else None
        applied_a2, _ = apply("A")
        ta2 = measure() if applied_a2 else None
        if not (ta and tb and ta2) or ta != ta2 or ta[1] != tb[1]:
            log(f"corridor candidate of {len(pairs)} segments: answers differ in length or do not repeat ({ta}, {tb}, {ta2})")
            continue
        # Fully live: the difference is the whole length at the two speeds (turn costs cancel out),
        # so no stretch of the route keeps a time-of-day speed.
        expected = ta[1] * 3.6 * (1 / SPEED_A - 1 / SPEED_B)
        if ta[0] - tb[0] < 20 or abs((ta[0] - tb[0]) - expected) > 0.1 * expected + 2:
            log(f"corridor candidate of {len(pairs)} segments, {ta[1]} m: {ta[0]} s at {SPEED_A:g} km/h, {tb[0]} s at "
                f"{SPEED_B:g} km/h; fully live would differ by {expected:.0f} s")
            continue
        corridor.update({
            "segments": len(pairs), "lengthMeters": ta[1], "travelTimeA": ta[0], "travelTimeB": tb[0],
            "matchedSegmentsPerUpdate": report_a.get("matchedSegments") if report_a else None,
            "state": "A",
        })
        return corridor
    return None


class TrafficDriver:
    """Alternates updates B, A, B, … every `interval` seconds (0: back to back); after each POST
    the updater routes across the corridor at once (the state just applied must be served), and
    checker threads route across it meanwhile (every answer must be exactly A or exactly B)."""

    def __init__(self, host, port, corridor, interval=1.0, expires=600, checkers=2):
        self.host, self.port, self.corridor, self.interval, self.expires = host, port, corridor, interval, expires
        self.last_applied = corridor["state"]
        self.stop_event = threading.Event()
        self.lock = threading.Lock()
        self.expected = {corridor["travelTimeA"]: "A", corridor["travelTimeB"]: "B"}
        self.stats = {"updatesPosted": 0, "updateErrors": 0, "postLatenciesMs": [], "checks": 0, "checkErrors": 0,
                      "sawA": 0, "sawB": 0, "mixed": 0, "mixedExamples": [], "staleAfterApply": 0,
                      "visibleAfterApply": 0, "checkLatenciesMs": []}
        self.threads = [threading.Thread(target=self.update_loop, daemon=True)]
        self.threads += [threading.Thread(target=self.check_loop, daemon=True) for _ in range(checkers)]

    def start(self):
        for t in self.threads:
            t.start()

    def stop(self):
        self.stop_event.set()
        for t in self.threads:
            t.join(timeout=30)

    def classify(self, status, data):
        """'A', 'B', or an error / mix description."""
        if status != 200:
            return None, f"HTTP {status}"
        try:
            s = json.loads(data)["routes"][0]["summary"]
            t, length = s["travelTimeInSeconds"], s["lengthInMeters"]
        except (ValueError, KeyError, IndexError, TypeError):
            return None, f"unreadable answer: {data[:80]!r}"
        state = self.expected.get(t)
        if state is None or length != self.corridor["lengthMeters"]:
            return None, f"travelTime {t} s, length {length} m"
        return state, None

    def update_loop(self):
        client = Client(self.host, self.port)
        state = self.last_applied
        next_at = time.monotonic() + self.interval
        while not self.stop_event.wait(max(0.0, next_at - time.monotonic()) if self.interval else 0):
            next_at += self.interval
            state = "B" if state == "A" else "A"
            try:
                status, _, seconds = client.request("POST", f"/traffic/1/speeds?expiresIn={self.expires}", self.corridor["csv"][state])
            except OSError as e:
                with self.lock:
                    self.stats["updateErrors"] += 1
                log(f"traffic update failed: {e}")
                continue
            with self.lock:
                self.stats["postLatenciesMs"].append(seconds * 1000)
                if status == 201:
                    self.stats["updatesPosted"] += 1
                else:
                    self.stats["updateErrors"] += 1
            if status != 201:
                continue
            self.last_applied = state
            # Read your writes: the state just applied must be the one served now.
            try:
                status, data, _ = client.request("GET", self.corridor["path"])
                seen, problem = self.classify(status, data)
            except OSError as e:
                seen, problem = None, str(e)
            with self.lock:
                if seen == state:
                    self.stats["visibleAfterApply"] += 1
                elif problem and not problem.startswith("travelTime"):
                    self.stats["checkErrors"] += 1
                else:
                    self.stats["staleAfterApply"] += 1
                    if len(self.stats["mixedExamples"]) < 5:
                        self.stats["mixedExamples"].append(f"after applying {state}: saw {seen or problem}")

    def final_check(self):
        """Once the updates stop, the last one applied must be what is served (not an older one)."""
        client = Client(self.host, self.port)
        try:
            status, data, _ = client.request("GET", self.corridor["path"])
            seen, problem = self.classify(status, data)
        finally:
            client.close()
        self.corridor["state"] = self.last_applied
        return seen == self.last_applied, f"applied {self.last_applied} last, served {seen or problem}"

    def check_loop(self):
        client = Client(self.host, self.port)
        # Paced (~50 routes/s per thread) so that the checkers sample the states without crowding
        # out the measured mix.
        while not self.stop_event.wait(CHECK_INTERVAL_SECONDS):
            try:
                status, data, seconds = client.request("GET", self.corridor["path"])
                seen, problem = self.classify(status, data)
            except OSError as e:
                seen, problem, seconds = None, str(e), 0
            with self.lock:
                self.stats["checks"] += 1
                self.stats["checkLatenciesMs"].append(seconds * 1000)
                if seen == "A":
                    self.stats["sawA"] += 1
                elif seen == "B":
                    self.stats["sawB"] += 1
                elif problem.startswith("travelTime"):
                    self.stats["mixed"] += 1
                    if len(self.stats["mixedExamples"]) < 5:
                        self.stats["mixedExamples"].append(problem)
                else:
                    self.stats["checkErrors"] += 1


def percentile(values, p):
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, max(0, math.ceil(p / 100 * len(v)) - 1))]


# ---------------------------------------------------------------- phases


def run_phase(name, args, host, port, lists, corridor=None, interval=1.0, expires=600, rss_verdict=True):
    pid = args.pid
    fds_before = settled_fds(pid)
    targets_before = fd_targets(pid)
    sampler = Sampler(pid)
    sampler.start()
    procs = start_wrk(args.url, args.work, name, args.seconds, lists)
    driver = None
    if corridor is not None:
        driver = TrafficDriver(host, port, corridor, interval=interval, expires=expires)
        driver.start()
    results = finish_wrk(procs, args.seconds)
    final = None
    if driver is not None:
        driver.stop()
        # Past the server's own polling (every 0.5 s): nothing may replace the last update later.
        time.sleep(1.2)
        final = driver.final_check()
    sampler.stop_event.set()
    sampler.join(timeout=5)
    fds_after = settled_fds(pid, target=fds_before)
    targets_after = fd_targets(pid)

    report = {"types": {}, "connections": {t: CONNECTIONS[t] for t in procs}}
    total_requests = total_errors = 0
    duration = args.seconds
    for t in TYPES:
        r = results.get(t)
        if t not in procs:
            continue
        if r is None:
            report["types"][t] = {"error": "wrk produced no report"}
            total_errors += 1
            continue
        errors = sum(r["errors"].values())
        duration = r["duration_us"] / 1e6
        report["types"][t] = {
            "requests": r["requests"], "errors": errors,
            "errorKinds": {k: v for k, v in r["errors"].items() if v},
            "reqPerSecond": round(r["requests"] / (r["duration_us"] / 1e6), 1),
            "p50Ms": round(r["latency_us"]["p50"] / 1000, 2), "p90Ms": round(r["latency_us"]["p90"] / 1000, 2),
            "p99Ms": round(r["latency_us"]["p99"] / 1000, 2), "maxMs": round(r["latency_us"]["max"] / 1000, 2),
        }
        total_requests += r["requests"]
        total_errors += errors
    if driver is not None:
        s = driver.stats
        check_lat = s.pop("checkLatenciesMs")
        post_lat = s.pop("postLatenciesMs")
        report["types"]["corridorCheck"] = {
            "requests": s["checks"], "errors": s["checkErrors"],
            "reqPerSecond": round(s["checks"] / duration, 1),
            "p50Ms": round(percentile(check_lat, 50) or 0, 2), "p99Ms": round(percentile(check_lat, 99) or 0, 2),
        }
        total_requests += s["checks"] + s["updatesPosted"]
        total_errors += s["checkErrors"] + s["updateErrors"]
        report["liveTraffic"] = {
            "corridor": {k: corridor[k] for k in ("segments", "lengthMeters", "travelTimeA", "travelTimeB", "matchedSegmentsPerUpdate")},
            "speedsKmh": {"A": SPEED_A, "B": SPEED_B},
            "updatesPosted": s["updatesPosted"], "updateErrors": s["updateErrors"],
            "updatePostP50Ms": round(percentile(post_lat, 50) or 0, 1), "updatePostMaxMs": round(max(post_lat or [0]), 1),
            "checks": s["checks"], "sawA": s["sawA"], "sawB": s["sawB"], "mixed": s["mixed"],
            "updateInterval": f"{interval:g} s" if interval else "back to back",
            "updateExpiresInSeconds": expires,
            "visibleAfterApply": s["visibleAfterApply"], "staleAfterApply": s["staleAfterApply"],
            "lastUpdateStillServed1sLater": final[0], "lastUpdateCheck": final[1],
            "examples": s["mixedExamples"],
            # A mix of the two states differing on more than this share of the corridor changes the
            # travel time by at least a second, so it cannot pass for A or B.
            "mixResolutionPercent": round(100 * 1.5 / max(1, corridor["travelTimeA"] - corridor["travelTimeB"]), 1),
        }
    samples = sampler.samples
    rss = [s[1] / 1024 for s in samples]
    fds = [s[2] for s in samples]
    rss_start, rss_end = (rss[0], rss[-1]) if rss else (0, 0)
    growth = rss_end - rss_start
    limit = max(RSS_GROWTH_LIMIT_MIB, RSS_GROWTH_LIMIT_FRACTION * rss_start)
    report["total"] = {"requests": total_requests, "errors": total_errors,
                       "reqPerSecond": round(total_requests / max(0.001, duration), 1), "seconds": round(duration, 1)}
    report["rssMiB"] = {"start": round(rss_start, 1), "end": round(rss_end, 1), "max": round(max(rss or [0]), 1),
                        "growth": round(growth, 1), "limit": round(limit, 1), "samples": len(rss)}
    report["fds"] = {"idleBefore": fds_before, "idleAfter": fds_after, "maxDuringLoad": max(fds or [0])}
    opened = sorted(t for fd, t in targets_after.items() if targets_before.get(fd) != t)
    if opened:
        report["fds"]["newSinceIdleBefore"] = opened[:10]
    # The places index keeps a small pool of read-only SQLite connections that grows when
    # concurrency first peaks; a leak instead grows with the thousands of requests of a phase.
    data_dirs = tuple(os.path.realpath(os.path.join(args.dataset, d)) + "/"
                      for d in os.listdir(args.dataset) if d.startswith("data-"))
    others_before = sum(1 for t in targets_before.values() if not t.startswith(data_dirs))
    others_after = sum(1 for t in targets_after.values() if not t.startswith(data_dirs))
    verdicts = {
        "noErrors": total_errors == 0 and all("error" not in v for v in report["types"].values()),
        "fdsFlat": fds_after <= fds_before + FD_POOL_GROWTH_LIMIT and others_after <= others_before,
    }
    if rss_verdict:
        verdicts["rssFlat"] = bool(rss) and growth <= limit
    else:
        report["rssMiB"]["note"] = "not judged: grows with the live updates in force (all posted in this phase, 600 s each)"
    if driver is not None:
        lt = report["liveTraffic"]
        verdicts["neverMixed"] = lt["mixed"] == 0
        verdicts["visibleAfterApply"] = lt["staleAfterApply"] == 0 and lt["updatesPosted"] > 0 and final[0]
        verdicts["sawBothStates"] = lt["sawA"] > 0 and lt["sawB"] > 0
    report["verdicts"] = verdicts
    report["pass"] = all(verdicts.values())
    return report


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--workers", default="", help="the server's --workers, for the report")
    args = ap.parse_args()
    parsed = urllib.parse.urlparse(args.url)
    host, port = parsed.hostname, parsed.port
    args.url = f"http://{host}:{port}"
    rng = random.Random(args.seed)
    client = Client(host, port)
    health = client.json("GET", "/health")[1]
    load_before = os.getloadavg()

    started = time.monotonic()
    lists, notes, snapped, routes_with_points = build_requests(client, args.dataset, rng, health.get("tiles", False))
    for t in TYPES:
        write_list(os.path.join(args.work, f"reqs-{t}.txt"), lists[t])
    prepare_seconds = time.monotonic() - started
    log("requests: " + ", ".join(f"{t} {len(lists[t])}" for t in TYPES) + f" ({prepare_seconds:.1f} s)")
    corridor = find_corridor(client, routes_with_points, rng)
    client.close()

    # Warm-up: the same mix, not measured (caches, allocator arenas, worker threads).
    log(f"warm-up {args.warmup} s")
    finish_wrk(start_wrk(args.url, args.work, "warmup", args.warmup, lists), args.warmup)

    log(f"phase 1: steady mix, {args.seconds} s")
    steady = run_phase("steady", args, host, port, lists)
    if corridor is None:
        live = {"pass": False, "error": "no corridor found whose travel time depends on live speeds only"}
        burst = live
    else:
        log(f"phase 2: same mix with a live traffic update every second, {args.seconds} s "
            f"(corridor of {corridor['segments']} segments, {corridor['lengthMeters']} m)")
        live = run_phase("liveTraffic", args, host, port, lists, corridor)
        # The same again with updates back to back: concurrent refreshes (the server's watcher, the
        # time-to-leave loop, the POSTs) must still publish in order. (Each update stays in force
        # for 600 s like the others: a shorter one would end within the trips checked, which would
        # then rightly mix live and historical speeds. So memory here grows with the hundreds of
        # updates in force, and the RSS verdict is left to phases 1 and 2.)
        log(f"phase 3: same mix with live traffic updates back to back, {args.seconds} s")
        burst = run_phase("updateBurst", args, host, port, lists, corridor, interval=0, rss_verdict=False)

    report = {
        "benchmark": "wayfinder load (issue 9 part 3)",
        "dataset": health.get("source"), "profiles": health.get("profiles"),
        "machine": {"cores": os.cpu_count(), "loadAverageBefore": [round(x, 2) for x in load_before],
                    "loadAverageAfter": [round(x, 2) for x in os.getloadavg()],
                    "note": "loopback, client and server on the same shared machine; throughput is a lower bound"},
        "serverWorkers": args.workers or f"default ({max(2, os.cpu_count() or 2)})",
        "secondsPerPhase": args.seconds, "warmupSeconds": args.warmup,
        "requestLists": {t: len(lists[t]) for t in TYPES}, "notes": notes,
        "rssGrowthRule": f"end - start <= max({RSS_GROWTH_LIMIT_MIB:g} MiB, {RSS_GROWTH_LIMIT_FRACTION:.0%} of start)",
        "fdRule": f"idle count after a phase <= idle count before + {FD_POOL_GROWTH_LIMIT}, the new ones dataset files (connection pool), never sockets",
        "phases": {"steady": steady, "liveTraffic": live, "updateBurst": burst},
        "pass": steady["pass"] and live["pass"] and burst["pass"],
    }
    print(json.dumps(report, indent=2))
    # One line per phase on stderr, for logs that keep the JSON elsewhere.
    for name, phase in report["phases"].items():
        if "total" not in phase:
            log(f"{name}: FAIL ({phase.get('error')})")
            continue
        p99 = ", ".join(f"{t} {v.get('p99Ms')}" for t, v in phase["types"].items())
        failed = [k for k, v in phase["verdicts"].items() if not v]
        log(f"{name}: {'PASS' if phase['pass'] else 'FAIL ' + ','.join(failed)}: {phase['total']['requests']} requests, "
            f"{phase['total']['errors']} errors, {phase['total']['reqPerSecond']} req/s; p99 ms: {p99}; "
            f"RSS {phase['rssMiB']['start']} -> {phase['rssMiB']['end']} MiB; fds {phase['fds']['idleBefore']} -> {phase['fds']['idleAfter']}"
            + (f"; checks A {phase['liveTraffic']['sawA']} B {phase['liveTraffic']['sawB']} mixed {phase['liveTraffic']['mixed']}, "
               f"{phase['liveTraffic']['updatesPosted']} updates, stale after apply {phase['liveTraffic']['staleAfterApply']}"
               if "liveTraffic" in phase else ""))
    return 0 if report["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
