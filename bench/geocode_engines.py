"""The two geocoders of bench/geocode.py: Wayfinder and Nominatim 5.3.3, both served on 127.0.0.1.

Nominatim runs in its own virtualenv (.cache/nominatim/venv) over its own PostgreSQL 15 cluster
(.cache/nominatim/pgdata, trust authentication, listening on 127.0.0.1 only, started and stopped
by the benchmark). Debian's postgresql-15, postgresql-15-postgis-3, postgresql-contrib, osm2pgsql
and libicu-dev are what it needs; `ensure_debian()` installs what is missing. Imports are kept
per extract (keyed by the extract's size and modification time) so a second run starts at once.
"""
import hashlib
import json
import os
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as H  # noqa: E402

NOMINATIM = ["nominatim-db==5.3.3", "nominatim-api==5.3.3", "PyICU", "falcon", "uvicorn"]
DEBIAN = ["postgresql-15", "postgresql-15-postgis-3", "postgresql-contrib", "osm2pgsql", "libicu-dev", "osmium-tool"]
PG_BIN = Path("/usr/lib/postgresql/15/bin")


def ensure_debian():
    missing = [p for p in DEBIAN if subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True,
                                                    text=True).stdout.find("install ok installed") < 0]
    if missing:
        H.log(f"installing Debian packages: {' '.join(missing)}")
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True)
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing, check=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


class Postgres:
    """A private PostgreSQL cluster for Nominatim (as the `postgres` OS user when run as root)."""

    def __init__(self, home):
        self.home = Path(home)
        self.data = self.home / "pgdata"
        self.socket = self.home / "sock"
        self.port = None
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, cmd, **kw):
        return subprocess.run(self.as_user + [str(c) for c in cmd], check=True, capture_output=True, text=True, **kw)

    def start(self):
        self.home.mkdir(parents=True, exist_ok=True)
        for d in (self.data, self.socket):
            d.mkdir(exist_ok=True)
            if self.as_user:
                subprocess.run(["chown", "postgres:postgres", d], check=True)
        os.chmod(self.data, 0o700)
        if not (self.data / "PG_VERSION").exists():
            H.log("creating the PostgreSQL cluster for Nominatim")
            self._run([PG_BIN / "initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"])
        self.port = H.free_port()
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.socket} -c shared_buffers=256MB "
                   "-c maintenance_work_mem=256MB -c work_mem=32MB -c fsync=off -c synchronous_commit=off -c full_page_writes=off")
        self._run([PG_BIN / "pg_ctl", "-D", self.data, "-l", self.data / "server.log", "-o", options, "-w", "start"])
        self.sql("DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'www-data') THEN "
                 "CREATE ROLE \"www-data\" LOGIN; END IF; END$$")

    def sql(self, statement, database="postgres"):
        return subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", database, "-tAc", statement],
                              check=True, capture_output=True, text=True).stdout.strip()

    def stop(self):
        if self.port is not None:
            self._run([PG_BIN / "pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop"])
            self.port = None


class Nominatim:
    """Nominatim's import and server for one extract."""

    def __init__(self, home, postgres, name, extract):
        self.home, self.pg, self.name, self.extract = Path(home), postgres, name, Path(extract)
        self.venv = self.home / "venv"
        self.project = self.home / "projects" / name
        self.database = "nominatim_" + "".join(c if c.isalnum() else "_" for c in name)
        self.server = None

    def ensure_installed(self):
        if not (self.venv / "bin" / "nominatim").exists():
            H.log("installing Nominatim 5.3.3 into its virtualenv")
            subprocess.run([sys.executable, "-m", "venv", self.venv], check=True)
            subprocess.run([self.venv / "bin" / "pip", "install", "-q", "--disable-pip-version-check"] + NOMINATIM, check=True)

    def env(self):
        dsn = f"pgsql:dbname={self.database};host=127.0.0.1;port={self.pg.port};user=postgres"
        return dict(os.environ, NOMINATIM_DATABASE_DSN=dsn)

    def stamp(self):
        """The extract's content (not its modification time: a copied-again file is the same data) and the version."""
        h = hashlib.sha1()
        with open(self.extract, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        h.update(b"|5.3.3")
        return h.hexdigest()

    def ensure_imported(self):
        """Imports the extract unless the same one is already in the database; returns the import's seconds or None."""
        marker = self.project / "imported.stamp"
        exists = self.pg.sql(f"SELECT 1 FROM pg_database WHERE datname = '{self.database}'") == "1"
        if exists and marker.exists() and marker.read_text() == self.stamp():
            return None
        if exists:
            self.pg.sql(f"DROP DATABASE {self.database}")
        self.project.mkdir(parents=True, exist_ok=True)
        H.log(f"Nominatim import of {self.extract.name}")
        t0 = time.monotonic()
        log = self.project / "import.log"
        with open(log, "w") as f:
            r = subprocess.run([self.venv / "bin" / "nominatim", "import", "--osm-file", self.extract, "--project-dir", self.project,
                                "--threads", "2"], stdout=f, stderr=subprocess.STDOUT, env=self.env())
        if r.returncode != 0:
            raise RuntimeError(f"nominatim import failed: {H.tail(log, 10)}")
        marker.write_text(self.stamp())
        return round(time.monotonic() - t0, 2)

    def serve(self, log_dir):
        port = H.free_port()
        self.server = H.Server("nominatim", [self.venv / "bin" / "nominatim", "serve", "--project-dir", self.project,
                                             "--server", f"127.0.0.1:{port}", "--engine", "falcon"],
                               port, r"Uvicorn running|Application startup complete", Path(log_dir) / f"nominatim-{self.name}.log",
                               env=self.env())
        self.server.wait_ready(120)
        return port

    def cpu_pids(self):
        """The server and the PostgreSQL backends that answer it."""
        pids = [self.server.proc.pid] if self.server else []
        try:
            postmaster = int(open(self.pg.data / "postmaster.pid").readline())
            pids += [postmaster] + children(postmaster)
        except (OSError, ValueError):
            pass
        return pids

    def stop(self):
        if self.server:
            self.server.stop()
            self.server = None


class Wayfinder:
    """`wayfinder import` (car graph and places, no base map) and `wayfinder serve` for one extract."""

    def __init__(self, binary, work, name, extract):
        self.binary, self.work, self.name, self.extract = Path(binary), Path(work), name, Path(extract)
        self.dataset = self.work / f"wayfinder-{name}"
        self.server = None

    def ensure_imported(self):
        t0 = time.monotonic()
        r = subprocess.run([self.binary, "import", self.extract, "--output", self.dataset, "--profiles", "car", "--skip-basemap"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"wayfinder import failed: {r.stderr[-2000:]}")
        return round(time.monotonic() - t0, 2)

    def serve(self, log_dir):
        port = H.free_port()
        self.server = H.Server("wayfinder", [self.binary, "serve", self.dataset, "--host", "127.0.0.1", "--port", port],
                               port, r"wayfinder serving", Path(log_dir) / f"wayfinder-{self.name}.log")
        self.server.wait_ready(120)
        return port

    def cpu_pids(self):
        return [self.server.proc.pid] if self.server else []

    def stop(self):
        if self.server:
            self.server.stop()
            self.server = None


def process_cpu_seconds(pids):
    """User + system CPU seconds used so far by these processes (those that have exited count 0)."""
    total = 0.0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / H.HZ
        except (OSError, IndexError, ValueError):
            pass
    return total


def children(pid):
    """The processes whose parent is `pid` (PostgreSQL's backends under its postmaster)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return out


def path_for(case, category, engine):
    """The Nominatim-style request for a case (both engines answer the same URL; Wayfinder gets
    `autocomplete=1` for the typeahead category, which Nominatim does not have)."""
    if category == "reverse":
        lon, lat = case["point"]
        return "/reverse?" + urllib.parse.urlencode({"lat": f"{lat:.7f}", "lon": f"{lon:.7f}", "format": "jsonv2",
                                                     "addressdetails": 1})
    params = {"q": case["query"], "format": "jsonv2", "addressdetails": 1}
    if case.get("language"):
        params["accept-language"] = case["language"]
    if case.get("prefix") and engine == "wayfinder":
        params["autocomplete"] = 1
    return "/search?" + urllib.parse.urlencode(params)


def judge(case, category, status, body):
    """(right, what came back) for one answer."""
    from geocode_cases import meters, norm
    if status != 200:
        return False, f"HTTP {status}"
    try:
        data = json.loads(body)
    except ValueError:
        return False, "not JSON"
    top = data if category == "reverse" else (data[0] if isinstance(data, list) and data else None)
    if not top or "error" in top:
        return False, "nothing found"
    address = top.get("address") or {}
    point = (float(top["lon"]), float(top["lat"]))
    got = f"{top.get('display_name', '')} [{top.get('category')}/{top.get('type')}]"
    distance = meters(point, case["point"]) if category != "reverse" else meters(point, case["origin"])
    road = norm(address.get("road") or (top.get("name") if top.get("category") == "highway" else ""))
    number = norm(address.get("house_number", ""))
    if category == "reverse":
        right = number == norm(case["number"]) and (road == norm(case["street"]) or distance <= 30)
    elif category == "partial_number":
        right = road == norm(case["street"])
    elif category == "postcode":
        right = top.get("type") in ("postcode", "postal_code") and norm(address.get("postcode") or top.get("name")) == norm(case["postcode"]) \
            and distance <= case["radius"]
    elif "number" in case:
        right = number == norm(case["number"]) and distance <= case.get("radius", 150)
    else:
        right = distance <= case.get("radius", 100)
    return right, f"{got} at {distance:.0f} m"


def measure(port, cases, category, engine, cpu_pids=lambda: [], warmup=20):
    """Sends every case over one keep-alive connection: (successes, latencies in ms, failures, server
    CPU ms per request — the engine's own processes, so a busy machine does not inflate it)."""
    client = H.Client(port)
    try:
        for case in cases[:warmup]:
            client.request("GET", path_for(case, category, engine))
        ok, latencies, failures = 0, [], []
        cpu_before = process_cpu_seconds(cpu_pids())
        for case in cases:
            path = path_for(case, category, engine)
            t0 = time.perf_counter()
            status, body = client.request("GET", path)
            latencies.append((time.perf_counter() - t0) * 1000)
            right, got = judge(case, category, status, body)
            if right:
                ok += 1
            else:
                failures.append({"request": path, "got": got,
                                 "expected": {k: v for k, v in case.items() if k in ("number", "street", "postcode", "point")}})
        cpu_ms = (process_cpu_seconds(cpu_pids()) - cpu_before) * 1000 / max(1, len(cases))
        return ok, latencies, failures, round(cpu_ms, 3)
    finally:
        client.close()
