"""Geocoding test cases drawn from an extract's own OpenStreetMap data, per category.

Every case says what to ask and how to tell a right answer; nothing is invented: addresses,
names, postcodes and interpolation lines are read from the extract with osmium-tool (Debian),
and only the query text is derived (a typo, a partial number, a point 3 m away).
"""
import json
import math
import random
import re
import subprocess
import unicodedata
from collections import defaultdict
from pathlib import Path

CATEGORIES = ["address", "address_city", "typo", "partial_number", "poi", "reverse", "other_language",
              "interpolated", "postcode"]
POI_KEYS = ("amenity", "shop", "tourism", "leisure", "office", "craft", "historic")
SPECIAL = {"ø": "o", "æ": "ae", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "œ": "oe", "ı": "i", "ħ": "h"}


def norm(text):
    """Lower case, without diacritics or punctuation: how two spellings of a name are compared."""
    text = "".join(SPECIAL.get(c, c) for c in (text or "").lower())
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def meters(a, b):
    """Great-circle distance between (lon, lat) pairs."""
    lon1, lat1, lon2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


def offset(point, distance, bearing_deg):
    """The point `distance` metres from `point` (lon, lat) towards `bearing_deg`."""
    lat = math.radians(point[1])
    b = math.radians(bearing_deg)
    dlat = distance * math.cos(b) / 111_195.0
    dlon = distance * math.sin(b) / (111_195.0 * math.cos(lat))
    return (point[0] + dlon, point[1] + dlat)


def ring_centroid(ring):
    """Area-weighted centroid of a ring of (lon, lat); the mean of its points when degenerate."""
    k = math.cos(math.radians(ring[0][1]))
    a2 = cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        x1, x2 = x1 * k, x2 * k
        cross = x1 * y2 - x2 * y1
        a2 += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    if abs(a2) < 1e-14:
        return (sum(p[0] for p in ring) / len(ring), sum(p[1] for p in ring) / len(ring)), 0.0
    return (cx / (3 * a2) / k, cy / (3 * a2)), abs(a2) / 2


def position(geometry):
    """A representative point: the point, the centroid of the largest outer ring, the middle vertex of a line."""
    kind, coords = geometry["type"], geometry["coordinates"]
    if kind == "Point":
        return tuple(coords)
    if kind == "LineString":
        return tuple(coords[len(coords) // 2])
    polygons = [coords] if kind == "Polygon" else coords
    best = max((ring_centroid([tuple(p) for p in poly[0]]) for poly in polygons), key=lambda c: c[1])
    return best[0]


def features(extract, work):
    """Every tagged object of the extract with a geometry, as (id, tags, geometry type, point)."""
    out = Path(work) / "features.geojsonseq"
    subprocess.run(["osmium", "export", str(extract), "-f", "geojsonseq", "-u", "type_id", "-o", str(out), "--overwrite"],
                   check=True, capture_output=True)
    with open(out, encoding="utf-8") as f:
        for line in f:
            line = line.strip().lstrip("\x1e")
            if not line:
                continue
            feature = json.loads(line)
            yield feature["id"], feature["properties"], feature["geometry"]["type"], position(feature["geometry"])


def interpolation_lines(extract, work):
    """addr:interpolation ways with their nodes: (tags, [(lon, lat, node tags)])."""
    filtered = Path(work) / "interpolation.osm.pbf"
    subprocess.run(["osmium", "tags-filter", str(extract), "w/addr:interpolation", "-o", str(filtered), "--overwrite"],
                   check=True, capture_output=True)
    opl = subprocess.run(["osmium", "cat", str(filtered), "-f", "opl"], check=True, capture_output=True, text=True).stdout
    nodes, ways = {}, []
    for line in opl.splitlines():
        fields = dict((f[0], f[1:]) for f in line.split(" ") if f)
        tags = {}
        for pair in fields.get("T", "").split(","):
            if "=" in pair:
                k, v = pair.split("=", 1)
                tags[unescape(k)] = unescape(v)
        if line.startswith("n") and fields.get("x"):
            nodes[line.split(" ")[0][1:]] = (float(fields["x"]), float(fields["y"]), tags)
        elif line.startswith("w"):
            refs = [r[1:] for r in fields.get("N", "").split(",") if r]
            ways.append((tags, refs))
    for tags, refs in ways:
        points = [nodes[r] for r in refs if r in nodes]
        if len(points) >= 2:
            yield tags, points


def unescape(text):
    """OPL escapes: %XXXX% is a code point."""
    return re.sub(r"%([0-9a-fA-F]+)%", lambda m: chr(int(m.group(1), 16)), text)


def number_between(a, b, scheme):
    """The house numbers strictly between two ends of an interpolation line under its scheme."""
    lo, hi = sorted((a, b))
    step = 2 if scheme in ("odd", "even") else 1
    if scheme == "odd" and lo % 2 == 0 or scheme == "even" and lo % 2 == 1:
        return []
    return list(range(lo + step, hi, step))


def along(points, fraction):
    """The point at `fraction` of a line's length."""
    lengths = [meters(p, q) for p, q in zip(points, points[1:])]
    target, total = fraction * sum(lengths), 0.0
    for (p, q), length in zip(zip(points, points[1:]), lengths):
        if total + length >= target and length > 0:
            t = (target - total) / length
            return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        total += length
    return points[-1][:2]


def typo(word, rng):
    """One edit inside a word (never its first letter): swap, delete, replace or insert."""
    i = rng.randrange(1, len(word) - 1)
    letters = "abcdefghijklmnopqrstuvwxyz"
    op = rng.choice(["swap", "delete", "replace", "insert"])
    if op == "swap":
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if op == "delete":
        return word[:i] + word[i + 1:]
    if op == "replace":
        return word[:i] + rng.choice([c for c in letters if c != word[i].lower()]) + word[i + 1:]
    return word[:i] + rng.choice(letters) + word[i:]


def draw(extract, work, per_category=200, seed=42):
    """Cases per category: dicts with `query` (or `point`) and what a right answer must match."""
    rng = random.Random(seed)
    addresses = defaultdict(list)   # (street, number) -> [(point, tags)]
    street_names = defaultdict(dict)  # norm(name) -> {lang: other name}
    named = defaultdict(list)       # norm(name) -> [(point, tags, is_poi)]
    postcodes = defaultdict(list)
    for oid, tags, kind, point in features(extract, work):
        number, street = tags.get("addr:housenumber"), tags.get("addr:street")
        if number and street and kind != "LineString":
            addresses[(street, number)].append((point, tags))
        if tags.get("addr:postcode"):
            postcodes[tags["addr:postcode"].strip()].append(point)
        name = tags.get("name")
        if not name and tags.get("brand"):
            named[norm(tags["brand"])].append((point, tags, False))
        if tags.get("highway") and name and kind != "Point":
            for k, v in tags.items():
                if k.startswith("name:") and len(k) <= 8 and norm(v) != norm(name):
                    street_names[norm(name)].setdefault(k[5:], v)
        if name:
            named[norm(name)].append((point, tags, any(k in tags for k in POI_KEYS) and "highway" not in tags))

    def sample(items):
        items = list(items)
        rng.shuffle(items)
        return items[:per_category]

    # Addresses whose every copy (building, entrance, POI) lies within 150 m: one answer to each query.
    unique = []
    for (street, number), copies in sorted(addresses.items()):
        if all(meters(copies[0][0], c[0]) <= 150 for c in copies):
            unique.append((street, number, copies[0][0], copies[0][1]))
    cases = {c: [] for c in CATEGORIES}
    for street, number, point, tags in sample(unique):
        cases["address"].append({"query": f"{street} {number}", "number": number, "street": street, "point": point})
    with_city = [u for u in unique if u[3].get("addr:city")]
    for street, number, point, tags in sample(with_city):
        cases["address_city"].append({"query": f"{street} {number}, {tags['addr:city']}", "number": number, "street": street,
                                      "point": point})
    typo_able = [u for u in unique if any(len(w) >= 5 and w.isalpha() for w in u[0].split())]
    for street, number, point, tags in sample(typo_able):
        words = street.split()
        longest = max((w for w in words if w.isalpha()), key=len)
        wrong = " ".join(typo(w, rng) if w is longest else w for w in words)
        cases["typo"].append({"query": f"{wrong} {number}", "number": number, "street": street, "point": point})
    partial = [u for u in unique if re.match(r"^\d\d", u[1])]
    for street, number, point, tags in sample(partial):
        cases["partial_number"].append({"query": f"{street} {number[0]}", "street": street, "point": point, "prefix": True})
    for street, number, point, tags in sample(unique):
        bearing = rng.uniform(0, 360)
        cases["reverse"].append({"point": offset(point, 3.0, bearing), "number": number, "street": street, "origin": point})

    pois = [(key, v[0]) for key, v in named.items() if len(v) == 1 and v[0][2] and key not in street_names and len(key) >= 3]
    for key, (point, tags, _) in sample(sorted(pois, key=lambda x: x[0])):
        cases["poi"].append({"query": tags["name"], "point": point, "radius": 100})

    # Other languages: an address by its street's name in another language, then POIs by theirs.
    foreign = []
    for street, number, point, tags in unique:
        for lang, other in sorted(street_names.get(norm(street), {}).items()):
            foreign.append({"query": f"{other} {number}", "language": lang, "number": number, "street": street, "point": point})
            break
    foreign = sample(foreign)[:per_category * 3 // 4]
    foreign_pois = []
    for key, (point, tags, _) in sorted(pois, key=lambda x: x[0]):
        for k, v in sorted(tags.items()):
            if k.startswith("name:") and len(k) <= 8 and norm(v) != key and norm(v) not in named:
                foreign_pois.append({"query": v, "language": k[5:], "point": point, "radius": 100})
                break
    cases["other_language"] = foreign + sample(foreign_pois)[:per_category - len(foreign)]

    interpolated = []
    mapped = {(norm(s), norm(n)) for s, n in addresses}
    for tags, points in interpolation_lines(extract, work):
        scheme = tags.get("addr:interpolation")
        # Consecutive numbered nodes, read by the number they start with ("12a" is 12), as Nominatim reads them.
        ends = [(i, p, int(re.match(r"\d+", p[2]["addr:housenumber"]).group()))
                for i, p in enumerate(points) if re.match(r"\d+", p[2].get("addr:housenumber", ""))]
        numbered = {n for _, _, n in ends}
        for (i, a, na), (j, b, nb) in zip(ends, ends[1:]):
            street = tags.get("addr:street") or a[2].get("addr:street") or b[2].get("addr:street")
            if not street or na == nb:
                continue
            segment = [p[:2] for p in points[i:j + 1]]
            for n in number_between(na, nb, scheme):
                if (norm(street), str(n)) in mapped or n in numbered:
                    continue
                fraction = (n - na) / (nb - na)
                interpolated.append({"query": f"{street} {n}", "number": str(n), "street": street,
                                     "point": along(segment, fraction), "radius": 100})
    cases["interpolated"] = sample(interpolated)
    for code, points in sample(sorted(postcodes.items())):
        centre = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
        cases["postcode"].append({"query": code, "postcode": code, "point": centre, "radius": 10_000})
    return cases
