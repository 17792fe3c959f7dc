#!/usr/bin/env python3
"""Hostile input against a live Wayfinder server, byte for byte (raw sockets, no HTTP library).

Usage: hostile.py BASE_URL [IDLE_TIMEOUT_SECONDS]   (tests/contract/run.sh starts the server)

Every case sends something a well-behaved client never would — path traversal on the static files
and tiles (`/../`, encoded, double-encoded, backslashes, NUL, overlong UTF-8), oversized URLs,
headers and bodies, slow clients (slowloris: silent, trickling, slow body, slow reader), invalid
UTF-8, numbers out of range (latitude 91, NaN, inf, 1e308), thousands of waypoints, a detour budget
of a year, deeply nested JSON — and checks that the answer is a clear 4xx (for slow clients: that
the server closes the connection once it has been idle for IDLE_TIMEOUT_SECONDS, the value given to
`wayfinder serve --timeout`, while still serving everybody else). After every case GET /health must
answer 200. Prints one line per case and a closing `N passed, N failed`; exits 1 on any failure.
"""
import json
import socket
import sys
import time
import traceback
from urllib.parse import quote, urlsplit

BASE = sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:8080"
IDLE_TIMEOUT = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
ADDRESS = (urlsplit(BASE).hostname, urlsplit(BASE).port or 80)
HOST = f"{ADDRESS[0]}:{ADDRESS[1]}"
IO_TIMEOUT = 15  # seconds for any one socket operation

# Monaco (the sample the runner imports): two points on streets.
A = "43.7384,7.4246"
B = "43.7290,7.4180"
A_OSRM = "7.4246,43.7384"
B_OSRM = "7.4180,43.7290"
ROUTE = f"/routing/1/calculateRoute/{A}:{B}/json"
ALONG = "/search/2/searchAlongRoute/cafe.json"
ALONG_BODY = json.dumps({"route": {"points": [{"lat": 43.7384, "lon": 7.4246}, {"lat": 43.7290, "lon": 7.4180}]}})


class Failure(Exception):
    pass


# ---- raw HTTP -------------------------------------------------------------------------------------

class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def text(self, n=160):
        return self.body[:n].decode("utf-8", "replace").replace("\n", " ")


def connect(timeout=IO_TIMEOUT):
    s = socket.create_connection(ADDRESS, timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def read_response(s):
    """Reads one response (Content-Length or until close); None if closed before a status line."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            if not data:
                return None
            raise Failure(f"connection closed inside the response head: {data[:80]!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/"):
        raise Failure(f"not an HTTP status line: {lines[0]!r}")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = headers.get("content-length")
    if length is not None:
        while len(body) < int(length):
            chunk = s.recv(65536)
            if not chunk:
                break
            body += chunk
    elif headers.get("transfer-encoding", "").lower() != "chunked":
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            body += chunk
    return Response(int(parts[1]), headers, body)


def exchange(raw, send_all=True):
    """Sends raw request bytes on a fresh connection and reads the answer."""
    s = connect()
    try:
        try:
            if send_all:
                s.sendall(raw)
            else:
                s.send(raw)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered early (413) and stopped reading; its answer is still there
        try:
            r = read_response(s)
        except ConnectionResetError:
            r = None
        if r is None:
            raise Failure("the server closed the connection without an answer")
        return r
    finally:
        s.close()


def request(method, target, body=b"", headers=None, version="HTTP/1.1"):
    if isinstance(target, str):
        target = target.encode("utf-8")
    if isinstance(body, str):
        body = body.encode("utf-8")
    lines = [method.encode() + b" " + target + b" " + version.encode(), b"Host: " + HOST.encode(), b"Connection: close"]
    fields = dict(headers or {})
    if body and "Content-Length" not in fields and "Transfer-Encoding" not in fields:
        fields["Content-Length"] = str(len(body))
    if body and "Content-Type" not in fields:
        fields["Content-Type"] = "application/json"
    for name, value in fields.items():
        lines.append(name.encode("latin-1") + b": " + (value if isinstance(value, bytes) else value.encode("latin-1")))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def health(timeout=5.0):
    started = time.monotonic()
    s = connect(timeout=timeout)
    try:
        s.sendall(request("GET", "/health"))
        r = read_response(s)
    finally:
        s.close()
    if r is None or r.status != 200:
        raise Failure(f"GET /health answered {r.status if r else 'nothing'}")
    if b'"status":"ok"' not in r.body.replace(b" ", b""):
        raise Failure(f"GET /health body: {r.text()}")
    return time.monotonic() - started


# ---- expectations ---------------------------------------------------------------------------------

def expect_4xx(r, mentions=None, statuses=None):
    if not 400 <= r.status <= 499 or (statuses and r.status not in statuses):
        raise Failure(f"answered {r.status} (wanted {statuses or '4xx'}): {r.text()}")
    if b"root:x:0:0" in r.body or b"[boot loader]" in r.body:
        raise Failure("a file outside the web root was served")
    if mentions and mentions.encode() not in r.body:
        raise Failure(f"the error does not name {mentions!r}: {r.text(300)}")
    return f"{r.status} {r.text(90)}"


def raw_4xx(raw, mentions=None, statuses=None):
    """`expect_4xx` for hand-built request bytes; a failure names the request line."""
    try:
        return expect_4xx(exchange(raw), mentions, statuses)
    except Failure as f:
        line = raw.split(b"\r\n")[0]
        raise Failure(f"{shown(line)}: {f}")


def shown(target, n=120):
    text = target if isinstance(target, str) else target.decode("latin-1")
    return text if len(text) <= n else f"{text[:n]}… ({len(text)} bytes)"


def get_4xx(target, mentions=None, statuses=None, headers=None):
    return raw_4xx(request("GET", target, headers=headers), mentions, statuses)


def post_4xx(target, body, mentions=None, statuses=None, headers=None):
    return raw_4xx(request("POST", target, body=body, headers=headers), mentions, statuses)


def not_5xx(r):
    if r.status >= 500:
        raise Failure(f"answered {r.status}: {r.text()}")
    return f"{r.status} {r.text(60)}"


CASES = []


def case(group):
    def register(fn):
        CASES.append((group, fn.__name__, fn))
        return fn
    return register


# ---- path traversal: static files and tiles -------------------------------------------------------

TRAVERSALS = [
    "/app/../../../../../../etc/passwd",
    "/app/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/app/%2E%2E%2F%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
    "/app/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/app/..%5c..%5c..%5c..%5cetc%5cpasswd",
    "/app/..\\..\\..\\..\\etc\\passwd",
    "/app/%252e%252e/%252e%252e/%252e%252e/etc/passwd",
    "/app/%c0%ae%c0%ae/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
    "/app/.%2e/.%2e/.%2e/.%2e/etc/passwd",
    "/app/....//....//....//etc/passwd",
    "/app/..%00/..%00/etc/passwd",
    "/app/index.html%00.png",
    "/app/.git/config",
    "/app/%2fetc%2fpasswd",
    "/leaflet/../../../../../../etc/passwd",
    "/leaflet/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/leaflet/..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/../../../../../../etc/passwd",
    "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/./../../etc/passwd",
    "http://127.0.0.1/../../../../etc/passwd",
    "/tiles/../../../../../../etc/passwd",
    "/tiles/0/0/..%2f..%2f..%2f..%2fetc%2fpasswd.png",
    "/tiles/%2e%2e/%2e%2e/0.png",
    "/tiles/0/../../../../etc/passwd.png",
    "/tiles/0/0/0.png/../../../../etc/passwd",
    "/tiles/0/0/0%2f..%2f..%2fpasswd.png",
    "/tiles/..%5c..%5c/0/0.png",
]


@case("path traversal")
def traversal_static_and_tiles():
    details = []
    for target in TRAVERSALS:
        try:
            details.append(get_4xx(target).split(" ")[0])
        except Failure as f:
            raise Failure(f"{target}: {f}")
    # The legitimate files next to them are served (so the 4xx above are refusals, not a dead route).
    for target in ["/", "/app/app.js", "/tiles/0/0/0.png"]:
        r = exchange(request("GET", target))
        if r.status != 200 and not (target.startswith("/tiles") and b"no base map" in r.body):
            raise Failure(f"{target} answered {r.status}")
    return f"{len(TRAVERSALS)} targets refused ({', '.join(sorted(set(details)))}); /, /app/app.js and a tile served"


# ---- oversized URLs, headers and bodies -----------------------------------------------------------

@case("oversized")
def url_query_20kb():
    return get_4xx("/search?format=json&q=" + "A" * 20_000, statuses={414})


@case("oversized")
def url_path_200kb():
    return get_4xx("/search/2/geocode/" + "B" * 200_000 + ".json", statuses={414, 431})


@case("oversized")
def header_value_100kb():
    return get_4xx("/health", headers={"X-Padding": "C" * 100_000}, statuses={431, 400, 413})


@case("oversized")
def header_count_3000():
    fields = {f"X-Pad-{i}": "D" * 30 for i in range(3000)}
    return get_4xx("/health", headers=fields, statuses={431, 400, 413})


@case("oversized")
def body_declared_64mb():
    # Only the head is sent: the server must refuse on Content-Length without waiting for 64 MB.
    raw = request("POST", "/traffic/1/speeds?expiresIn=60", headers={"Content-Length": str(64 << 20), "Content-Type": "text/csv"})
    return expect_4xx(exchange(raw), statuses={413})


@case("oversized")
def body_sent_3mb_along_route():
    body = b'{"route":{"points":[' + b'{"lat":43.7384,"lon":7.4246},' * 100_000 + b'{"lat":43.7290,"lon":7.4180}]}}'
    return raw_4xx(request("POST", ALONG + "?maxDetourTime=300", body=body), statuses={413})


@case("oversized")
def body_chunked_1_5mb():
    chunk = b"1,2,30\n" * 1000
    parts = [request("POST", "/traffic/1/speeds?expiresIn=60", headers={"Transfer-Encoding": "chunked", "Content-Type": "text/csv"})]
    for _ in range(1_500_000 // len(chunk)):
        parts.append(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
    parts.append(b"0\r\n\r\n")
    return expect_4xx(exchange(b"".join(parts)), statuses={413})


@case("oversized")
def content_length_garbage():
    results = []
    for value in ["99999999999999999999999999", "-1", "12abc"]:
        raw = request("POST", ALONG + "?maxDetourTime=300", headers={"Content-Length": value}) + b"{}"
        results.append(expect_4xx(exchange(raw)).split(" ")[0])
    return "Content-Length overflow, negative, junk: " + ", ".join(results)


@case("oversized")
def json_nested_100k_deep():
    return post_4xx(ALONG + "?maxDetourTime=300", "[" * 100_000 + "]" * 100_000, mentions="body")


# ---- slow clients (slowloris) ---------------------------------------------------------------------

def wait_closed(sockets, deadline):
    """Seconds until every socket was closed by the server (an early 408 counts as closed)."""
    started = time.monotonic()
    open_ = list(sockets)
    while open_ and time.monotonic() < deadline:
        still = []
        for s in open_:
            s.settimeout(max(0.05, min(0.5, deadline - time.monotonic())))
            try:
                data = s.recv(4096)
                if data and not data.startswith(b"HTTP/1.1 408") and not data.startswith(b"HTTP/1.0 408"):
                    raise Failure(f"a slow client got an unexpected answer: {data[:60]!r}")
                if data:
                    still.append(s)  # the 408; the close follows
            except socket.timeout:
                still.append(s)
            except (ConnectionResetError, BrokenPipeError):
                pass
        open_ = still
    for s in sockets:
        s.close()
    if open_:
        raise Failure(f"{len(open_)} of {len(sockets)} slow connections were still open after {deadline - started:.0f} s")
    return time.monotonic() - started


def served_meanwhile(rounds=3):
    worst = max(health() for _ in range(rounds))
    if worst > 2:
        raise Failure(f"GET /health took {worst:.1f} s while slow clients were connected")
    return worst


@case("slow clients")
def slowloris_silent_headers():
    sockets = []
    for i in range(60):
        s = connect()
        s.sendall(b"GET /health HTTP/1.1\r\nHost: " + HOST.encode() + b"\r\nX-Slow-%d: " % i)
        sockets.append(s)
    worst = served_meanwhile()
    took = wait_closed(sockets, time.monotonic() + IDLE_TIMEOUT + 10)
    return f"60 half-sent requests; /health in {worst * 1000:.0f} ms meanwhile; all closed after {took:.1f} s"


@case("slow clients")
def slowloris_trickle_then_silent():
    sockets = [connect() for _ in range(20)]
    for s in sockets:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: " + HOST.encode() + b"\r\n")
    worst = 0.0
    trickle_seconds = min(6.0, IDLE_TIMEOUT + 1)
    stop = time.monotonic() + trickle_seconds
    while time.monotonic() < stop:  # one byte per connection every 0.5 s, then silence
        for s in sockets:
            s.sendall(b"X")
        worst = max(worst, health())
        time.sleep(0.5)
    took = wait_closed(sockets, time.monotonic() + IDLE_TIMEOUT + 10)
    return f"20 trickling for {trickle_seconds:.0f} s; /health in {worst * 1000:.0f} ms meanwhile; closed {took:.1f} s after going silent"


@case("slow clients")
def slow_body():
    sockets = []
    for _ in range(20):
        s = connect()
        s.sendall(request("POST", ALONG + "?maxDetourTime=300", headers={"Content-Length": "1000", "Content-Type": "application/json"})
                  + b'{"route":')
        sockets.append(s)
    worst = served_meanwhile()
    took = wait_closed(sockets, time.monotonic() + IDLE_TIMEOUT + 10)
    return f"20 bodies stalled after 9 of 1000 bytes; /health in {worst * 1000:.0f} ms; closed after {took:.1f} s"


@case("slow clients")
def slow_reader():
    sockets = []
    for _ in range(20):
        s = connect()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(b"GET /openapi.json HTTP/1.1\r\nHost: " + HOST.encode() + b"\r\nAccept-Encoding: identity\r\n\r\n")
        sockets.append(s)
    worst = served_meanwhile()
    for s in sockets:
        s.close()
    return f"20 clients not reading /openapi.json; /health in {worst * 1000:.0f} ms meanwhile"


# ---- invalid UTF-8 --------------------------------------------------------------------------------

@case("invalid UTF-8")
def invalid_utf8_everywhere():
    results = []
    raw_targets = [
        b"/search/2/geocode/\xff\xfe.json",
        b"/search?format=json&q=\xc3\x28",
        b"/app/\xed\xa0\x80",
    ]
    for target in raw_targets:
        results.append(raw_4xx(request("GET", target), statuses={400}))
    for target in ["/search?format=json&q=%FF%FE", "/search/2/geocode/%C3%28.json", "/search/2/search/%C0%AF.json",
                   "/reverse?lat=43.7&lon=7.4&format=%ff", "/search?%FF=1&q=x", f"/route/v1/driving/{A_OSRM};{B_OSRM}?steps=%ED%A0%80",
                   "/search/2/reverseGeocode/43.7%FF,7.4.json"]:
        results.append(get_4xx(target, statuses={400}))
    # Invalid UTF-8 inside a JSON body.
    body = b'{"route":{"points":[{"lat":43.7384,"lon":7.4246},{"lat":43.7290,"lon":7.4180}]},"note":"\xff\xfe"}'
    results.append(raw_4xx(request("POST", ALONG + "?maxDetourTime=300", body=body), mentions="body"))
    body = b"\xff\xfe,\xfe\xff,30\n"
    results.append(raw_4xx(request("POST", "/traffic/1/speeds?expiresIn=60", body=body, headers={"Content-Type": "text/csv"})))
    # In a header the server does not interpret: any answer but a 5xx.
    not_5xx(exchange(request("GET", "/search/2/search/casino.json", headers={"Accept-Language": b"\xff\xfe\xc3\x28"})))
    return f"{len(results)} refused with {sorted(set(r.split(' ')[0] for r in results))}"


@case("invalid UTF-8")
def nul_and_control_characters():
    results = []
    for target in ["/search?format=json&q=a%00b", "/search/2/search/a%00b.json", "/search/2/geocode/%01%02%7f.json",
                   f"/routing/1/calculateRoute/{A}%00:{B}/json"]:
        r = exchange(request("GET", target))
        results.append(not_5xx(r).split(" ")[0])
    results.append(raw_4xx(request("GET", b"/search?q=a\x01b")).split(" ")[0])
    return "NUL and control characters: " + ", ".join(results)


# ---- numbers out of range -------------------------------------------------------------------------

@case("numbers out of range")
def coordinates_out_of_range():
    bad = ["91,7.4", "-91,7.4", "43.7,181", "NaN,7.4", "nan,nan", "inf,7.4", "-inf,7.4", "1e308,7.4", "-1e308,1e308",
           "1e999,7.4", "43.7,0x1p1000", "4e-400,1e400"]
    results = []
    for p in bad:
        results.append(get_4xx(f"/routing/1/calculateRoute/{p}:{B}/json", mentions="locations"))
        results.append(get_4xx(f"/search/2/reverseGeocode/{p}.json", mentions="position"))
        lat, lon = p.split(",")
        results.append(get_4xx(f"/route/v1/driving/{lon},{lat};{B_OSRM}", mentions="coordinate"))
        results.append(get_4xx(f"/nearest/v1/driving/{lon},{lat}"))
        results.append(get_4xx(f"/table/v1/driving/{lon},{lat};{B_OSRM}"))
        results.append(get_4xx(f"/reverse?lat={lat}&lon={lon}&format=json", mentions="lat"))
        results.append(get_4xx(f"/search/2/nearbySearch/.json?lat={lat}&lon={lon}"))
    return f"{len(bad)} bad positions x 7 endpoints: all {sorted(set(r.split(' ')[0] for r in results))}"


@case("numbers out of range")
def parameters_out_of_range():
    cases = [
        (f"{ROUTE}?maxAlternatives=1e308", "maxAlternatives"),
        (f"{ROUTE}?maxAlternatives=99999999999999999999999", "maxAlternatives"),
        (f"{ROUTE}?maxAlternatives=-1", "maxAlternatives"),
        (f"{ROUTE}?vehicleHeading=NaN", "vehicleHeading"),
        (f"{ROUTE}?vehicleHeading=1e308", "vehicleHeading"),
        (f"{ROUTE}?vehicleHeading=-1", "vehicleHeading"),
        (f"{ROUTE}?vehicleMaxSpeed=1e308", "vehicleMaxSpeed"),
        (f"{ROUTE}?vehicleMaxSpeed=251", "vehicleMaxSpeed"),
        (f"{ROUTE}?departAt=0001-01-01T00:00:00Z", "departAt"),
        (f"{ROUTE}?departAt=1969-12-31T23:59:59Z", "departAt"),
        (f"{ROUTE}?arriveAt=1e308", "arriveAt"),
        (f"{ROUTE}?departAt=99999-01-01T00:00:00Z", "departAt"),
        (f"{ROUTE}?departAt=2026-13-45T25:61:61Z", "departAt"),
        (f"{ROUTE}?departAt=2026-12-01T08:30:00.{'3' * 120}Z", "departAt"),  # ICU once died of SIGFPE on this
        (f"{ROUTE}?arriveAt=000%CD%AC-000-00:00", "arriveAt"),  # and Foundation trapped on this
        ("/search/2/search/casino.json?lat=91&lon=7.4", "lat"),
        ("/search/2/search/casino.json?lat=43.7&lon=NaN", "lon"),
        ("/search/2/search/casino.json?lat=43.7&lon=7.4&radius=1e308", "radius"),
        ("/search/2/search/casino.json?limit=1e308", "limit"),
        ("/search/2/search/casino.json?limit=0", "limit"),
        ("/search/2/search/casino.json?ofs=-1", "ofs"),
        ("/search/2/search/casino.json?maxFuzzyLevel=99999999999999999999", "maxFuzzyLevel"),
        ("/search/2/search/casino.json?topLeft=91,0&btmRight=0,0", "topLeft"),
        ("/search/2/reverseGeocode/43.7384,7.4246.json?radius=1e308", "radius"),
        ("/search/2/nearbySearch/.json?lat=43.7&lon=7.4&radius=-5", "radius"),
        ("/search?format=json&q=casino&limit=1e308", "limit"),
        ("/search?format=json&q=casino&viewbox=nan,nan,nan,nan&bounded=1", "viewbox"),
        ("/search?format=json&q=casino&viewbox=1e308,1e308,-1e308,-1e308&bounded=1", "viewbox"),
        ("/search?format=json&q=casino&viewbox=7.4,91,7.5,43", "viewbox"),
        (f"/route/v1/driving/{A_OSRM};{B_OSRM}?alternatives=1e308", "alternatives"),
        (f"/nearest/v1/driving/{A_OSRM}?number=1e308", "number"),
        (f"/nearest/v1/driving/{A_OSRM}?number=99999999999999999999", "number"),
        (f"/table/v1/driving/{A_OSRM};{B_OSRM}?sources=99999999999999999999", "sources"),
        (f"/table/v1/driving/{A_OSRM};{B_OSRM}?destinations=-1", "destinations"),
    ]
    results = [get_4xx(target, mentions=name) for target, name in cases]
    for target in ["/tiles/99999999999999999999/0/0.png", "/tiles/1e308/0/0.png", "/tiles/20/1048576/0.png",
                   "/tiles/3/-1/0.png", "/tiles/NaN/0/0.png"]:
        results.append(get_4xx(target))
    for query in ["expiresIn=1e308", "expiresIn=NaN", "expiresIn=-1", "expiresIn=inf", "expiresIn=99999999999999d"]:
        results.append(post_4xx(f"/traffic/1/speeds?{query}", "1,2,30\n", mentions="expiresIn", headers={"Content-Type": "text/csv"}))
    for csv in ["1,2,1e308\n", "1,2,NaN\n", "1,2,-5\n", "1,2,inf\n", "99999999999999999999999,2,30\n", "1,2\n",
                "from,to,speed\n1,2,fast\n"]:
        results.append(post_4xx("/traffic/1/speeds?expiresIn=60", csv, headers={"Content-Type": "text/csv"}))
    return f"{len(results)} out-of-range values: all {sorted(set(r.split(' ')[0] for r in results))}"


@case("numbers out of range")
def edges_of_the_globe():
    # Valid but extreme: the poles and the antimeridian with the largest radius. A 50 km box around
    # (-90, -180) once computed a longitude of -225 and crashed the server.
    answers = []
    for lat, lon in [(-90, -180), (90, 180), (-90, 180), (0, -180), (89.9999, 179.9999)]:
        for target in [f"/search/2/search/casino.json?lat={lat}&lon={lon}&radius=50000",
                       f"/search/2/geocode/casino.json?lat={lat}&lon={lon}&radius=50000",
                       f"/search/2/categorySearch/restaurant.json?lat={lat}&lon={lon}&radius=50000",
                       f"/search/2/nearbySearch/.json?lat={lat}&lon={lon}&radius=50000",
                       f"/search/2/reverseGeocode/{lat},{lon}.json?radius=10000",
                       f"/reverse?lat={lat}&lon={lon}&format=json",
                       f"/search?format=json&q=casino&viewbox={lon},{lat},{-lon},{-lat}&bounded=1",
                       f"/routing/1/calculateRoute/{lat},{lon}:{A}/json",
                       f"/nearest/v1/driving/{lon},{lat}"]:
            r = exchange(request("GET", target))
            if r.status >= 500:
                raise Failure(f"GET {target}: answered {r.status}: {r.text()}")
            answers.append(r.status)
    return f"{len(answers)} requests at the poles and the antimeridian: {sorted(set(answers))}"


@case("numbers out of range")
def along_route_body_numbers():
    results = []
    for lat in ["91", "-1e308", "1e400", "NaN", "Infinity", "\"43.7\"", "null"]:
        body = '{"route":{"points":[{"lat":%s,"lon":7.4246},{"lat":43.7290,"lon":7.4180}]}}' % lat
        results.append(post_4xx(ALONG + "?maxDetourTime=300", body))
    return f"{len(results)} bad body numbers: {sorted(set(r.split(' ')[0] for r in results))}"


# ---- thousands of waypoints, a detour budget of a year --------------------------------------------

@case("thousands of waypoints")
def route_waypoints():
    results = []
    results.append(get_4xx(f"/routing/1/calculateRoute/{':'.join([A, B] * 2500)}/json", statuses={414}))
    results.append(get_4xx(f"/routing/1/calculateRoute/{':'.join(['43.7,7.4'] * 151)}/json", mentions="locations"))
    results.append(get_4xx(f"/routing/1/calculateRoute/{':'.join(['43.7,7.4'] * 900)}/json", mentions="locations"))
    results.append(get_4xx(f"/routing/1/calculateRoute/{':'.join(['43.7,7.4'] * 900)}/json?computeBestOrder=true", mentions="locations"))
    results.append(get_4xx(f"/route/v1/driving/{';'.join(['7.4,43.7'] * 900)}", mentions="TooBig"))
    polyline = quote("_ibE_ibE" + "??" * 1000, safe="")  # 1001 points ('?' is a zero step) in 6 kB of URL
    results.append(get_4xx(f"/route/v1/driving/polyline({polyline})", mentions="TooBig"))
    results.append(get_4xx(f"/table/v1/driving/{';'.join(['7.4,43.7'] * 900)}", mentions="TooBig"))
    results.append(get_4xx(f"/table/v1/driving/polyline({polyline})", mentions="TooBig"))
    results.append(get_4xx(f"/nearest/v1/driving/polyline({polyline})", mentions="TooBig"))
    results.append(get_4xx(f"/route/v1/driving/polyline({quote('_ibE_ibE' + '??' * 3000, safe='')})", statuses={414}))
    return f"{len(results)} requests: {sorted(set(r.split(' ')[0] for r in results))}"


@case("thousands of waypoints")
def along_route_points():
    points = ",".join('{"lat":%.5f,"lon":%.5f}' % (43.7384 - i * 1e-6, 7.4246) for i in range(20_000))
    body = '{"route":{"points":[%s]}}' % points
    r = post_4xx(ALONG + "?maxDetourTime=300", body, mentions="route.points")
    single = post_4xx(ALONG + "?maxDetourTime=300", '{"route":{"points":[{"lat":43.7384,"lon":7.4246}]}}', mentions="route.points")
    empty = post_4xx(ALONG + "?maxDetourTime=300", '{"route":{"points":[]}}', mentions="route.points")
    return f"20000 points: {r.split(' ')[0]}; one point: {single.split(' ')[0]}; none: {empty.split(' ')[0]}"


@case("detour budget of a year")
def detour_budget():
    results = []
    for value in ["31536000", "3601", "0", "-300", "1e308", "NaN", "300.5", "99999999999999999999999"]:
        results.append(post_4xx(f"{ALONG}?maxDetourTime={value}", ALONG_BODY, mentions="maxDetourTime"))
    results.append(post_4xx(ALONG, ALONG_BODY, mentions="maxDetourTime"))
    # The same request with a sane budget is not refused for its budget (200 on Monaco; elsewhere
    # the Monaco points are off the map).
    r = exchange(request("POST", f"{ALONG}?maxDetourTime=600", body=ALONG_BODY))
    if r.status != 200 and (r.status != 400 or b"maxDetourTime" in r.body):
        raise Failure(f"a 600 s budget answered {r.status}: {r.text()}")
    return f"a year and 8 other bad budgets: {sorted(set(x.split(' ')[0] for x in results))}; 600 s: {r.status}"


# ---- odd requests ---------------------------------------------------------------------------------

@case("odd requests")
def odd_methods_and_bodies():
    results = []
    results.append(raw_4xx(request("BREW", "/health"), statuses={400, 405}))
    results.append(raw_4xx(request("DELETE", ROUTE), statuses={405}))
    results.append(raw_4xx(request("POST", ALONG + "?maxDetourTime=300", body=b"\x00" * 1000), mentions="body"))
    results.append(raw_4xx(request("POST", ALONG + "?maxDetourTime=300", body="{}"), mentions="route"))
    results.append(raw_4xx(request("POST", ALONG + "?maxDetourTime=300", body='{"route":{"points":"x"}}')))
    results.append(raw_4xx(request("POST", ROUTE, body='{"supportingPoints": 5}'), mentions="body"))
    results.append(raw_4xx(request("POST", ALONG + "?maxDetourTime=300", body="", headers={"Content-Length": "0"}), mentions="body"))
    results.append(raw_4xx(b"GET /health HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n", statuses={400}))
    results.append(raw_4xx(b"GET /health\r\n\r\n", statuses={400}))
    results.append(raw_4xx(b"GET /health HTTP/1.1 extra\r\nHost: x\r\n\r\n", statuses={400}))
    # A request line without a target is not HTTP at all (nor is a TLS hello): libmicrohttpd hangs
    # up without an answer, which is fine too; anything it does answer must be a 4xx.
    for raw in [b"GARBAGE\r\n\r\n", b"GET\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(32) + b"\r\n\r\n"]:
        s = connect()
        try:
            s.sendall(raw)
            r = read_response(s)
        except (ConnectionResetError, Failure):
            r = None
        finally:
            s.close()
        if r is not None:
            expect_4xx(r)
        results.append(f"{r.status if r else 'closed'} ")
    return f"{len(results)} odd requests: {sorted(set(r.split(' ')[0] for r in results))}"


# ---- runner ---------------------------------------------------------------------------------------

def main():
    try:
        health()
    except Exception as e:  # noqa: BLE001 - report any reason the server is not there
        print(f"error: the server at {BASE} is not healthy before the run: {e}", file=sys.stderr)
        return 2
    passed = failed = 0
    started = time.monotonic()
    for group, name, fn in CASES:
        t0 = time.monotonic()
        try:
            detail = fn()
            health()  # the server is still there and well
            passed += 1
            print(f"PASS {group}: {name} ({time.monotonic() - t0:.1f} s) — {detail}", flush=True)
        except Exception as e:  # noqa: BLE001 - every failure is reported, then the run goes on
            failed += 1
            reason = str(e) if isinstance(e, Failure) else traceback.format_exc(limit=3)
            print(f"FAIL {group}: {name} ({time.monotonic() - t0:.1f} s) — {reason}", flush=True)
            try:
                health()
            except Exception as h:  # noqa: BLE001
                print(f"FAIL the server is no longer healthy: {h}", flush=True)
                failed += 1
                break
    print(f"hostile input: {len(CASES)} cases in {time.monotonic() - started:.0f} s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
