"""geopy calls for bench/geopy_nominatim.py, drawn from an extract's own OpenStreetMap data.

Every case is one call of geopy's Nominatim client: `("geocode", query, kwargs)` or
`("reverse", (lat, lon), kwargs)`. Addresses, names, names in other languages, places and
postcodes are read from the extract (bench/geocode_cases.features, osmium-tool); only the
boxes around them and the points 3 m from them are derived. Lists of house numbers ("7;9") are left out:
nobody types them.
"""
import random
import re
from collections import Counter, defaultdict

import geocode_cases as G

CATEGORIES = ["structured", "amenity", "language", "viewbox", "viewbox_bounded", "limit", "addressdetails",
              "country_codes", "featuretype", "reverse_zoom", "reverse_language"]
POI_KEYS = G.POI_KEYS
SETTLEMENTS = ("city", "town", "village", "suburb", "quarter", "neighbourhood", "hamlet")


def box(point, metres):
    """geopy's viewbox: two corner points (lat, lon), `metres` from `point` (lon, lat) each way."""
    sw = G.offset(G.offset(point, metres, 180), metres, 270)
    ne = G.offset(G.offset(point, metres, 0), metres, 90)
    return [(sw[1], sw[0]), (ne[1], ne[0])]


def inside(point, viewbox):
    (south, west), (north, east) = viewbox
    return south <= point[1] <= north and west <= point[0] <= east


class Extract:
    """What the cases are drawn from: addresses, named objects and their other-language names, places."""

    def __init__(self, path, work):
        self.addresses = defaultdict(list)   # (street, number) -> [(point, tags)]
        self.named = defaultdict(list)       # norm(name) -> [(point, tags)]
        self.places = []                     # (point, tags) with place=settlement
        countries, languages = Counter(), Counter()
        for oid, tags, kind, point in G.features(path, work):
            number, street = tags.get("addr:housenumber"), tags.get("addr:street")
            if number and street and kind != "LineString" and not re.search(r"[;,]", number):
                self.addresses[(street, number)].append((point, tags))
            if tags.get("addr:country"):
                countries[tags["addr:country"].strip().lower()] += 1
            name = tags.get("name")
            if not name:
                continue
            if any(k in tags for k in POI_KEYS + ("place", "highway")):  # what a geocoder finds by name
                self.named[G.norm(name)].append((point, tags))
            if tags.get("place") in SETTLEMENTS:
                self.places.append((point, tags))
            for k, v in tags.items():
                if re.fullmatch(r"name:[a-z]{2}", k) and G.norm(v) != G.norm(name):
                    languages[k[5:]] += 1
        self.country = countries.most_common(1)[0][0] if countries else None
        self.languages = [lang for lang, _ in languages.most_common(3)]
        # Addresses whose copies (building, entrance, POI) lie within 150 m of each other: one answer each.
        self.unique = sorted((s, n, c[0][0], c[0][1]) for (s, n), c in self.addresses.items()
                             if all(G.meters(c[0][0], x[0]) <= 150 for x in c))


def draw(path, work, per_category=25, seed=42, languages=None, country=None):
    """{category: [(method, query, kwargs, note)]}, at most `per_category` each."""
    rng = random.Random(seed)
    x = Extract(path, work)
    country = country or x.country
    languages = languages or x.languages
    other_country = "se" if country == "fi" else "fi"

    def sample(items, n=per_category):
        items = list(items)
        rng.shuffle(items)
        return items[:n]

    cases = {c: [] for c in CATEGORIES}
    with_city = [u for u in x.unique if u[3].get("addr:city")]
    with_postcode = [u for u in x.unique if u[3].get("addr:postcode")]
    quarter = max(1, per_category // 4)
    for street, number, point, tags in sample(with_city, quarter):
        cases["structured"].append(("geocode", {"street": f"{number} {street}", "city": tags["addr:city"]}, {}, "street+city"))
    for street, number, point, tags in sample(with_postcode, quarter):
        cases["structured"].append(("geocode", {"street": f"{number} {street}", "postalcode": tags["addr:postcode"]}, {},
                                    "street+postalcode"))
    if country:
        for street, number, point, tags in sample(x.unique, quarter):
            cases["structured"].append(("geocode", {"street": f"{number} {street}", "country": country}, {}, "street+country"))
    for code in sample(sorted({u[3]["addr:postcode"] for u in with_postcode}), quarter):
        query = {"postalcode": code, **({"country": country} if country else {})}
        cases["structured"].append(("geocode", query, {}, "postalcode+country"))

    pois = [(key, v[0]) for key, v in sorted(x.named.items()) if len(v) == 1 and any(k in v[0][1] for k in POI_KEYS)
            and "highway" not in v[0][1] and len(key) >= 3]
    with_city_pois = [(k, p) for k, p in pois if p[1].get("addr:city")]
    for key, (point, tags) in sample(with_city_pois or pois):
        query = {"amenity": tags["name"], **({"city": tags["addr:city"]} if tags.get("addr:city") else {})}
        cases["amenity"].append(("geocode", query, {}, "amenity (name)+city"))
    kinds = Counter(p[1]["amenity"] for _, p in pois if p[1].get("amenity"))
    for kind, _ in kinds.most_common(3):
        cases["amenity"].append(("geocode", {"amenity": kind}, {"exactly_one": False, "limit": 5}, "amenity (type)"))

    # Other languages: objects (POIs, streets, places) that have name:xx unlike their name.
    foreign = []
    for key, copies in sorted(x.named.items()):
        point, tags = copies[0]
        for lang in languages:
            other = tags.get(f"name:{lang}")
            if other and G.norm(other) != key:
                foreign.append((tags["name"], other, lang, point))
    for name, other, lang, point in sample(foreign, per_category // 2):
        cases["language"].append(("geocode", name, {"language": lang, "addressdetails": True},
                                  f"by its name, answer in {lang}"))
    for name, other, lang, point in sample(foreign, per_category - per_category // 2):
        cases["language"].append(("geocode", other, {"language": lang, "addressdetails": True},
                                  f"by its {lang} name"))

    # Names that several objects share (not streets, whose pieces are one street): a box around one of them.
    repeated = []
    for key, copies in sorted(x.named.items()):
        copies = [c for c in copies if "highway" not in c[1]]
        if len(copies) >= 2 and len(key) >= 3:
            for point, tags in copies:
                # The only copy in its box: the box decides which one is meant.
                if all(c[0] == point or not inside(c[0], box(point, 200)) for c in copies):
                    repeated.append((tags["name"], point))
    for name, point in sample(repeated):
        cases["viewbox"].append(("geocode", name, {"viewbox": box(point, 200)}, "a box around one of several"))
        cases["viewbox_bounded"].append(("geocode", name, {"viewbox": box(point, 200), "bounded": True},
                                         "a box around one of several"))
    for street, number, point, tags in sample(x.unique, per_category // 5):
        far = G.offset(point, 3000, rng.uniform(0, 360))
        cases["viewbox_bounded"].append(("geocode", f"{street} {number}", {"viewbox": box(far, 300), "bounded": True},
                                         "a box 3 km away"))

    words = Counter(w for key in x.named for w in set(key.split()) if len(w) >= 4 and not w.isdigit())
    for word, _ in words.most_common(per_category // 2):
        cases["limit"].append(("geocode", word, {"exactly_one": False, "limit": rng.choice([3, 5, 10])}, "a common word"))
    for street, number, point, tags in sample(x.unique, per_category - len(cases["limit"])):
        cases["limit"].append(("geocode", street, {"exactly_one": False, "limit": rng.choice([2, 5])}, "a street"))

    for street, number, point, tags in sample(x.unique, per_category // 2):
        cases["addressdetails"].append(("geocode", f"{street} {number}", {"addressdetails": True}, "address"))
    for key, (point, tags) in sample(pois, per_category - per_category // 2):
        cases["addressdetails"].append(("geocode", tags["name"], {"addressdetails": True}, "POI"))

    for street, number, point, tags in sample(x.unique, per_category // 2):
        cases["country_codes"].append(("geocode", f"{street} {number}", {"country_codes": country}, f"in {country}"))
    for street, number, point, tags in sample(x.unique, per_category - per_category // 2):
        cases["country_codes"].append(("geocode", f"{street} {number}", {"country_codes": [other_country]},
                                       f"not in {other_country}"))

    for point, tags in sample(x.places, per_category // 2):
        for feature in ("city", "settlement"):
            cases["featuretype"].append(("geocode", tags["name"], {"featuretype": feature}, f"place={tags['place']}"))
    for street, number, point, tags in sample(with_city, 2):
        cases["featuretype"].append(("geocode", tags["addr:city"], {"featuretype": "city"}, "addr:city"))
        cases["featuretype"].append(("geocode", tags["addr:city"], {"featuretype": "country"}, "addr:city"))
        cases["featuretype"].append(("geocode", tags["addr:city"], {"featuretype": "state"}, "addr:city"))

    zooms = [18, 17, 16, 14, 12, 10, 8, 5, 3]
    for street, number, point, tags in sample(x.unique):
        near = G.offset(point, 3.0, rng.uniform(0, 360))
        cases["reverse_zoom"].append(("reverse", (near[1], near[0]), {"zoom": rng.choice(zooms)}, f"3 m from {street} {number}"))
    for street, number, point, tags in sample(x.unique):
        near = G.offset(point, 3.0, rng.uniform(0, 360))
        lang = rng.choice(languages) if languages else "en"
        cases["reverse_language"].append(("reverse", (near[1], near[0]), {"language": lang, "zoom": rng.choice([18, 16, 10])},
                                          f"3 m from {street} {number}"))
    return {c: v[:per_category] if c != "featuretype" else v for c, v in cases.items()}, {"country": country,
                                                                                           "languages": languages}
