#!/usr/bin/env python3
"""Writes the hand-made seed inputs under Fuzz/corpus/ (run from anywhere; stdlib only).

PBF seeds are named for what the reader must do with them, and FuzzRegressionTests checks it:
  accept-NAME.pbf                      reads without error
  reject-KIND-at-OFFSET-NAME.pbf       throws PBFError of KIND (truncated, malformed, unsupported,
                                       tooLarge) for the block starting at byte OFFSET
The real extracts (accept-monaco-*.osm.pbf) are cut with osmium; see Fuzz/README.md.
"""
import os
import struct
import zlib

ROOT = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(ROOT, "corpus")


# --- protobuf by hand -------------------------------------------------------------------------

def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return (n << 1) ^ (n >> 63)


def key(field, wire):
    return varint(field << 3 | wire)


def f_varint(field, n):
    return key(field, 0) + varint(n)


def f_bytes(field, data):
    return key(field, 2) + varint(len(data)) + data


def packed(field, values):
    return f_bytes(field, b"".join(varint(v) for v in values))


def packed_delta(field, values):
    out, previous = bytearray(), 0
    for v in values:
        out += varint(zigzag(v - previous))
        previous = v
    return f_bytes(field, bytes(out))


# --- PBF framing ------------------------------------------------------------------------------

def blob_header(kind, datasize):
    return f_bytes(1, kind.encode()) + f_varint(3, datasize)


def frame(kind, blob):
    header = blob_header(kind, len(blob))
    return struct.pack(">I", len(header)) + header + blob


def raw_blob(payload):
    return f_bytes(1, payload)


def zlib_blob(payload, raw_size=None):
    return f_varint(2, len(payload) if raw_size is None else raw_size) + f_bytes(3, zlib.compress(payload, 9))


def header_block(features=("OsmSchema-V0.6", "DenseNodes")):
    bbox = f_varint(1, zigzag(7_420_000_000)) + f_varint(2, zigzag(7_425_000_000)) \
        + f_varint(3, zigzag(43_737_000_000)) + f_varint(4, zigzag(43_734_000_000))
    return f_bytes(1, bbox) + b"".join(f_bytes(4, f.encode()) for f in features) + f_bytes(16, b"make_seeds.py")


def string_table(strings):
    return f_bytes(1, b"".join(f_bytes(1, s.encode()) for s in strings))


STRINGS = ["", "highway", "residential", "name", "Rue Grimaldi", "type", "restriction", "no_left_turn",
           "from", "via", "to", "amenity", "cafe"]


def sid(s):
    return STRINGS.index(s)


def dense(ids, lats, lons, keys_vals):
    return f_bytes(2, packed_delta(1, ids) + packed_delta(8, lats) + packed_delta(9, lons) + packed(10, keys_vals))


def way(way_id, refs, tags):
    return f_bytes(3, f_varint(1, way_id) + packed(2, [sid(k) for k, _ in tags]) + packed(3, [sid(v) for _, v in tags])
                   + packed_delta(8, refs))


def relation(rel_id, members, tags):
    return f_bytes(4, f_varint(1, rel_id) + packed(2, [sid(k) for k, _ in tags]) + packed(3, [sid(v) for _, v in tags])
                   + packed(8, [sid(role) for _, _, role in members]) + packed_delta(9, [m for _, m, _ in members])
                   + packed(10, [t for t, _, _ in members]))


def primitive_block(groups, strings=STRINGS, extra=b""):
    return string_table(strings) + b"".join(f_bytes(2, g) for g in groups) + extra


NODES = dense([1, 2, 3], [437_350_000, 437_351_000, 437_352_000], [74_200_000, 74_201_000, 74_202_000],
              [0, sid("amenity"), sid("cafe"), sid("name"), sid("Rue Grimaldi"), 0, 0])
WAY = way(10, [1, 2, 3], [("highway", "residential"), ("name", "Rue Grimaldi")])
RELATION = relation(20, [(1, 10, "from"), (0, 2, "via"), (1, 10, "to")], [("type", "restriction"), ("restriction", "no_left_turn")])
GOOD_BLOCK = primitive_block([NODES, WAY, RELATION])
HEADER = frame("OSMHeader", zlib_blob(header_block()))
N = len(HEADER)  # offset of the first data block


def write(folder, name, data):
    os.makedirs(os.path.join(CORPUS, folder), exist_ok=True)
    with open(os.path.join(CORPUS, folder, name), "wb") as f:
        f.write(data)


def pbf_seeds():
    p = "pbf"
    write(p, "accept-minimal-raw.pbf", frame("OSMHeader", raw_blob(header_block())) + frame("OSMData", raw_blob(GOOD_BLOCK)))
    write(p, "accept-minimal-zlib.pbf", HEADER + frame("OSMData", zlib_blob(GOOD_BLOCK)))
    write(p, "accept-header-only.pbf", HEADER)
    write(p, "accept-unknown-block-type-skipped.pbf", HEADER + frame("OSMWhatever", raw_blob(b"\xff\xff")) + frame("OSMData", raw_blob(GOOD_BLOCK)))
    write(p, "accept-granularity-and-offsets.pbf", HEADER + frame("OSMData", raw_blob(
        primitive_block([NODES], extra=f_varint(17, 1000) + f_varint(19, zigzag(-5_000)) + f_varint(20, 12_345)))))
    write(p, "accept-extreme-coordinates-clamped.pbf", HEADER + frame("OSMData", raw_blob(primitive_block(
        [dense([1, 2], [(1 << 62), -(1 << 62)], [(1 << 62), -(1 << 62)], [])]))))
    write(p, "accept-no-string-table.pbf", HEADER + frame("OSMData", raw_blob(f_bytes(2, way(5, [1, 2], [])))))
    # 4 Mi empty strings from 8 MiB of inflated bytes (about 8 KiB compressed): a huge string table within the spec.
    table = f_bytes(1, b"\x0a\x00" * (4 << 20))
    write(p, "accept-huge-string-table-zlib-bomb.pbf", HEADER + frame("OSMData", zlib_blob(table)))

    write(p, "reject-truncated-at-0-inside-length.pbf", b"\x00\x00")
    write(p, "reject-malformed-at-0-header-length-zero.pbf", b"\x00\x00\x00\x00" + b"\x00" * 8)
    write(p, "reject-malformed-at-0-header-length-4gib.pbf", b"\xff\xff\xff\xff" + b"\x0a\x09OSMHeader")
    write(p, "reject-malformed-at-0-header-length-over-64kib.pbf", struct.pack(">I", 65 * 1024) + b"\x0a\x09OSMHeader")
    write(p, "reject-truncated-at-0-inside-header.pbf", HEADER[:10])
    write(p, "reject-truncated-at-0-inside-first-blob.pbf", HEADER[:-3])
    bad_varint = f_bytes(1, b"OSMHeader") + key(3, 0) + b"\xff" * 11
    write(p, "reject-malformed-at-0-bad-varint-in-blob-header.pbf", struct.pack(">I", len(bad_varint)) + bad_varint)
    no_size = f_bytes(1, b"OSMHeader")
    write(p, "reject-malformed-at-0-no-datasize.pbf", struct.pack(">I", len(no_size)) + no_size)
    for name, size in [("2gib", 1 << 31), ("32mib-plus-1", (32 << 20) + 1), ("2-to-the-64-minus-5", (1 << 64) - 5)]:
        h = blob_header("OSMHeader", size)
        write(p, f"reject-tooLarge-at-0-datasize-{name}.pbf", struct.pack(">I", len(h)) + h + b"\x00" * 16)
    lying = blob_header("OSMData", 1000)
    write(p, f"reject-truncated-at-{N}-datasize-lies.pbf", HEADER + struct.pack(">I", len(lying)) + lying + b"\x0a\x02ab")
    write(p, f"reject-truncated-at-{N}-ends-inside-next-length.pbf", HEADER + b"\x00\x00")
    write(p, "reject-malformed-at-0-first-block-not-header.pbf", frame("OSMData", raw_blob(GOOD_BLOCK)))
    write(p, "reject-unsupported-at-0-required-feature.pbf", frame("OSMHeader", raw_blob(header_block(("OsmSchema-V0.6", "TimeTravel")))))
    write(p, "reject-malformed-at-0-header-block-not-protobuf.pbf", frame("OSMHeader", raw_blob(b"\x0a\xff\xff\xff\x0f")))
    write(p, "reject-malformed-at-0-empty-blob.pbf", frame("OSMHeader", b""))
    write(p, f"reject-unsupported-at-{N}-lzma.pbf", HEADER + frame("OSMData", f_varint(2, 10) + f_bytes(4, b"\x5d\x00\x00")))
    write(p, f"reject-unsupported-at-{N}-zstd.pbf", HEADER + frame("OSMData", f_varint(2, 10) + f_bytes(7, b"\x28\xb5\x2f\xfd")))
    write(p, f"reject-tooLarge-at-{N}-raw-size-1tib.pbf", HEADER + frame("OSMData", zlib_blob(GOOD_BLOCK, raw_size=1 << 40)))
    write(p, f"reject-tooLarge-at-{N}-raw-size-2-to-the-64-minus-1.pbf", HEADER + frame("OSMData", zlib_blob(GOOD_BLOCK, raw_size=(1 << 64) - 1)))
    write(p, f"reject-malformed-at-{N}-no-raw-size.pbf", HEADER + frame("OSMData", f_bytes(3, zlib.compress(GOOD_BLOCK))))
    write(p, f"reject-malformed-at-{N}-raw-size-too-small.pbf", HEADER + frame("OSMData", zlib_blob(GOOD_BLOCK, raw_size=10)))
    write(p, f"reject-malformed-at-{N}-raw-size-too-large.pbf", HEADER + frame("OSMData", zlib_blob(GOOD_BLOCK, raw_size=len(GOOD_BLOCK) + 100)))
    write(p, f"reject-malformed-at-{N}-zlib-garbage.pbf", HEADER + frame("OSMData", f_varint(2, 100) + f_bytes(3, b"\x78\x9c" + b"\xff" * 40)))
    # Declares 1 MiB, inflates to 33 MiB (33 KiB compressed): libdeflate must stop at the declared size.
    write(p, f"reject-malformed-at-{N}-zlib-bomb-beyond-raw-size.pbf",
          HEADER + frame("OSMData", f_varint(2, 1 << 20) + f_bytes(3, zlib.compress(b"\x00" * (33 << 20), 9))))
    write(p, f"reject-malformed-at-{N}-bad-varint-in-block.pbf", HEADER + frame("OSMData", raw_blob(b"\x88" + b"\xff" * 10)))
    write(p, f"reject-malformed-at-{N}-length-past-end.pbf", HEADER + frame("OSMData", raw_blob(b"\x12\xff\xff\x03abc")))
    write(p, f"reject-malformed-at-{N}-bad-wire-type.pbf", HEADER + frame("OSMData", raw_blob(b"\x0f\x00")))
    write(p, f"reject-malformed-at-{N}-tag-index-outside-string-table.pbf", HEADER + frame("OSMData", raw_blob(
        primitive_block([f_bytes(3, f_varint(1, 7) + packed(2, [1]) + packed(3, [999]) + packed_delta(8, [1]))]))))
    write(p, f"reject-malformed-at-{N}-negative-tag-index.pbf", HEADER + frame("OSMData", raw_blob(
        primitive_block([f_bytes(3, f_varint(1, 7) + packed(2, [(1 << 64) - 1]) + packed(3, [1]))]))))
    write(p, f"reject-malformed-at-{N}-tag-keys-without-values.pbf", HEADER + frame("OSMData", raw_blob(
        primitive_block([f_bytes(3, f_varint(1, 7) + packed(2, [1, 3]) + packed(3, [2]))]))))
    write(p, f"reject-malformed-at-{N}-dense-length-mismatch.pbf", HEADER + frame("OSMData", raw_blob(
        primitive_block([f_bytes(2, packed_delta(1, [1, 2, 3]) + packed_delta(8, [1, 2]) + packed_delta(9, [1, 2, 3]))]))))
    write(p, f"reject-malformed-at-{N}-dense-tags-end-early.pbf", HEADER + frame("OSMData", raw_blob(
        primitive_block([dense([1, 2], [1, 2], [1, 2], [sid("amenity"), sid("cafe"), 0])]))))
    write(p, f"reject-malformed-at-{N}-dense-key-without-value.pbf", HEADER + frame("OSMData", raw_blob(
        primitive_block([dense([1], [1], [1], [sid("amenity")])]))))
    write(p, f"reject-malformed-at-{N}-relation-member-type.pbf", HEADER + frame("OSMData", raw_blob(
        primitive_block([relation(20, [(7, 10, "from")], [])]))))
    write(p, f"reject-malformed-at-{N}-relation-role-count.pbf", HEADER + frame("OSMData", raw_blob(
        primitive_block([f_bytes(4, f_varint(1, 3) + packed(8, [1, 2]) + packed_delta(9, [5]) + packed(10, [0]))]))))
    write(p, f"reject-malformed-at-{N}-granularity-zero.pbf", HEADER + frame("OSMData", raw_blob(
        primitive_block([NODES], extra=f_varint(17, 0)))))
    second = HEADER + frame("OSMData", raw_blob(GOOD_BLOCK))
    write(p, f"reject-malformed-at-{len(second)}-second-data-block-corrupt.pbf", second + frame("OSMData", raw_blob(b"\x12\x05ab")))


def csv_seeds():
    c = "csv"
    write(c, "speeds.csv", b"from_osm_node_id,to_osm_node_id,speed\n1,2,30\n2,3,45.5,0.8\n# comment\n\n 4 , 5 , 0 \r\n")
    write(c, "closures.csv", b"1,2\n2,3\n")
    week = ",".join(str(20 + i % 30) for i in range(24))
    write(c, "profile-24.csv", f"1,2,{week}\n".encode())
    write(c, "profile-168.csv", ("3,4," + ",".join(str(10 + i % 50) for i in range(168)) + "\n").encode())
    write(c, "bad-number.csv", b"1,2,fast\n")
    write(c, "long-id.csv", b"9223372036854775807,1,30\n")
    write(c, "exponent.csv", b"1,2,3e1\n1,2,1e400\n")


def polyline(points, precision=5):
    """Google's encoded polyline, as OSRM's polyline(…) coordinates take it."""
    out, previous = [], (0, 0)
    for lat, lon in points:
        current = (round(lat * 10 ** precision), round(lon * 10 ** precision))
        for delta in (current[0] - previous[0], current[1] - previous[1]):
            v = ~(delta << 1) if delta < 0 else delta << 1
            while v >= 0x20:
                out.append(chr((0x20 | (v & 0x1F)) + 63))
                v >>= 5
            out.append(chr(v + 63))
        previous = current
    return "".join(out)


MONACO_LINE = [(43.7350, 7.4205), (43.7358, 7.4220), (43.7365, 7.4240)]

REQUESTS = [
    "GET /routing/1/calculateRoute/43.7350,7.4205:43.7365,7.4240/json?travelMode=car",
    "GET /routing/1/calculateRoute/43.7350%2C7.4205%3A43.7365%2C7.4240/json?routeType=shortest&maxAlternatives=2&instructionsType=text&departAt=2026-12-01T08:00:00%2B01:00",
    "GET /routing/1/calculateRoute/43.7350,7.4205:circle(43.7358,7.4220,50):43.7365,7.4240/jsonp?callback=cb&arriveAt=08:30&avoid=tollRoads,ferries&traffic=false",
    "GET /routing/1/calculateRoute/43.7350,7.4205:43.7358,7.4220:43.7365,7.4240:43.7352,7.4230/json?computeBestOrder=true&departAt=2026-12-01T08:00&avoid=alreadyUsedRoads&strictAvoid=true&windingness=high",
    "GET /routing/1/calculateRoute/43.7350,7.4205:43.7365,7.4240/json?travelMode=pedestrian&routeRepresentation=summaryOnly&sectionType=traffic&vehicleHeading=90",
    "POST /routing/1/calculateRoute/43.7350,7.4205:43.7365,7.4240/json\ncontent-type: application/json\n\n{\"supportingPoints\":[{\"latitude\":43.7351,\"longitude\":7.4206}]}",
    "GET /route/v1/driving/7.4205,43.7350;7.4240,43.7365?steps=true&geometries=geojson&overview=full&annotations=true&alternatives=true",
    f"GET /route/v1/walking/polyline({polyline(MONACO_LINE)})?overview=false",
    f"GET /route/v1/cycling/polyline6({polyline(MONACO_LINE, 6)}).json?overview=by_legs&geometries=polyline6&steps=true",
    "GET /nearest/v1/driving/7.4220,43.7358?number=3",
    "GET /table/v1/driving/7.4205,43.7350;7.4240,43.7365;7.4220,43.7358?annotations=duration,distance&sources=0&destinations=1;2",
    "GET /search/2/search/grimaldi.json?typeahead=true&lat=43.7358&lon=7.4220&radius=500&limit=5",
    "GET /search/2/geocode/47%20rue%20grimaldi.json?countrySet=MC",
    "GET /search/2/poiSearch/sushi.json?topLeft=43.7370,7.4200&btmRight=43.7340,7.4250",
    "GET /search/2/categorySearch/restaurant.json?lat=43.7358&lon=7.4220&ofs=1",
    "GET /search/2/nearbySearch/.json?lat=43.7358&lon=7.4220&categorySet=7315&radius=300",
    "GET /search/2/reverseGeocode/43.7363,7.4205.json?radius=100",
    "GET /search/2/poiCategories.json",
    "POST /search/2/searchAlongRoute/restaurant.json?maxDetourTime=300&limit=5&detourOffset=true&sortBy=detourOffset\n\n{\"route\":{\"points\":[{\"lat\":43.7350,\"lon\":7.4205},{\"lat\":43.7365,\"lon\":7.4240}]}}",
    "POST /traffic/1/speeds?expiresIn=30m\n\n1,2,30\n3,4,50\n",
    "POST /traffic/1/closures?expiresIn=600\n\n1,2\n",
    "GET /traffic/1/status",
    "GET /search?q=grimaldi&format=json&limit=3&addressdetails=1&viewbox=7.42,43.737,7.425,43.734&bounded=1",
    "GET /search.php?street=rue%20grimaldi&city=monaco&format=geojson",
    "GET /reverse?lat=43.7363&lon=7.4205&format=jsonv2&namedetails=1",
    "GET /reverse.php?lat=43.7363&lon=7.4205&format=geojson",
    "GET /tiles/16/34119/23875.png\nif-none-match: \"x\"",
    "GET /health",
    "GET /openapi.json",
    "POST /timetoleave/1/watches\n\n{\"origin\":{\"lat\":43.7350,\"lon\":7.4205},\"destination\":{\"query\":\"rue grimaldi\"},\"arriveAt\":\"2026-12-01T09:00:00+01:00\",\"preparationTime\":300}",
    "GET /timetoleave/1/watches",
    "GET /timetoleave/1/watches/abc/events\nlast-event-id: 3",
    "DELETE /timetoleave/1/watches/abc",
    "GET /app/..%2F..%2Fetc%2Fpasswd",
    "GET /leaflet/leaflet.js",
    "OPTIONS /routing/1/calculateRoute/1,2:3,4/json",
    "GET http://example.org/health?x=%zz",
]


def request_seeds():
    for i, text in enumerate(REQUESTS):
        write("request", f"request-{i:02d}.txt", text.encode())


PARSERS = [
    "2026-12-01T08:30:00+02:00", "2026-12-01T08:30:00.250Z", "2026-12-01T08:30", "2026-12-01 08:30:00", "08:30", "23:59",
    "now", " NOW ", "30m", "1h30m", "PT45M", "90s", "2d", "1.5h", "45", "60.1699,24.9384", " -33.9 , 151.2 ", "90,180",
    "91,0", "ivqjGqxjl@yAeT", "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "/routing/1/calculateRoute/1%2C2:3,4/json?a=b&a=c+d&e",
    "nan,inf", "1e400", polyline(MONACO_LINE), "9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z",
]


def parser_seeds():
    for i, text in enumerate(PARSERS):
        write("parsers", f"parsers-{i:02d}.txt", text.encode())


if __name__ == "__main__":
    pbf_seeds()
    csv_seeds()
    request_seeds()
    parser_seeds()
