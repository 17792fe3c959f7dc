#!/usr/bin/env python3
"""geopy's Nominatim client against Wayfinder and against Nominatim 5.3.3, on the same extract.

  .cache/venv/bin/python bench/geopy_nominatim.py                 the Monaco sample
  .cache/venv/bin/python bench/geopy_nominatim.py --extract ../shared/data/helsinki.osm.pbf
  ... --out bench/results/geopy-nominatim-monaco.json             also write the JSON there

Both servers run at once on 127.0.0.1 (bench/geocode_engines.py starts them: Nominatim in its own
virtualenv over a private PostgreSQL 15 cluster). geopy's unchanged `Nominatim(domain=...,
scheme="http")` makes the same calls against each (bench/geopy_cases.py draws them from the
extract): structured queries, `amenity`, `language`, `viewbox` with and without `bounded`,
`exactly_one=False` with `limit`, `addressdetails`, `country_codes`, `featuretype`, and `reverse`
with `zoom` and `language`. geopy 2.4.1 drops `amenity` from a structured query, so that category
goes through the same client with `amenity` added to the keys it passes on (nothing else changed).

Two answers agree when both are empty, or their first results are the same OSM object, or lie
within 50 m with the same street (or, without one, the same name). Some categories ask more: `language` and
`reverse_language` the same name, street and city in the answer (both ask for `addressdetails`), `addressdetails` the same house number, road and
postcode, `limit` the same top result (the counts and shared objects are reported beside).
Prints JSON: per category the cases, the agreement share, and every case that differs with both answers.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as H  # noqa: E402
import geocode_cases as G  # noqa: E402
import geocode_engines as E  # noqa: E402
import geopy_cases as C  # noqa: E402

from geopy.geocoders import Nominatim  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("WAYFINDER_CACHE", ROOT / ".cache"))


class WithAmenity(Nominatim):
    """geopy's client with `amenity` among the structured keys it passes on (geopy 2.4.1 drops it)."""
    structured_query_params = Nominatim.structured_query_params | {"amenity"}


def client(port, amenity=False):
    cls = WithAmenity if amenity else Nominatim
    return cls(domain=f"127.0.0.1:{port}", scheme="http", user_agent="wayfinder-bench", timeout=60)


def call(geocoder, method, query, kwargs):
    """geopy's answer as a list of raw results (empty for None); an exception's text when it raised."""
    try:
        if method == "reverse":
            got = geocoder.reverse(query, **kwargs)
        else:
            got = geocoder.geocode(query, **kwargs)
    except Exception as e:  # geopy turns HTTP errors into exceptions: that is the answer
        return f"{type(e).__name__}: {e}"
    if got is None:
        return []
    return [g.raw for g in (got if isinstance(got, list) else [got])]


def street_of(raw):
    """The street (or else the name) of a result: addressdetails' road, else the part of display_name after
    the house number, else its first part (a street's or a POI's name)."""
    address = raw.get("address") or {}
    if address.get("road"):
        return G.norm(address["road"])
    parts = [p.strip() for p in raw.get("display_name", "").split(",")]
    is_area = raw.get("class") in ("boundary", "place") and raw.get("type") != "house"
    for number, street in list(zip(parts, parts[1:]))[:2]:  # "5, Street" or "Name, 5, Street"; not "Area, 98000, Country"
        if number[:1].isdigit() and not address and not is_area:
            return G.norm(street)
    return G.norm(parts[0] if parts else "")


def city_of(raw):
    address = raw.get("address") or {}
    return G.norm(address.get("city") or address.get("town") or address.get("village") or "")


def name_of(raw):
    return G.norm(raw.get("name") or raw.get("display_name", "").split(",")[0])


def summary(raw):
    out = {"osm": f"{raw.get('osm_type', '?')[:1].upper()}{raw.get('osm_id')}", "class": f"{raw.get('class')}/{raw.get('type')}",
           "lat": round(float(raw["lat"]), 6), "lon": round(float(raw["lon"]), 6), "display_name": raw.get("display_name")}
    if raw.get("address"):
        out["address"] = raw["address"]
    return out


def compare(category, ours, theirs):
    """(agree, why) for two answers (lists of raw results, or an exception's text)."""
    if isinstance(ours, str) or isinstance(theirs, str):
        return ours == theirs, "both raised" if ours == theirs else "one raised"
    if not ours and not theirs:
        return True, "both empty"
    if not ours or not theirs:
        return False, "one empty"
    a, b = ours[0], theirs[0]
    same_object = (a.get("osm_type"), str(a.get("osm_id"))) == (b.get("osm_type"), str(b.get("osm_id")))
    distance = G.meters((float(a["lon"]), float(a["lat"])), (float(b["lon"]), float(b["lat"])))
    if not same_object and not (distance <= 50 and street_of(a) == street_of(b)):
        return False, f"different top result, {distance:.0f} m apart"
    if category in ("language", "reverse_language") and name_of(a) != name_of(b):
        return False, f"same place, other name ({name_of(a)!r} against {name_of(b)!r})"
    if category in ("language", "reverse_language") and street_of(a) != street_of(b):
        return False, f"same place, other street name ({street_of(a)!r} against {street_of(b)!r})"
    if category in ("language", "reverse_language") and city_of(a) != city_of(b):
        return False, f"same place, other city name ({city_of(a)!r} against {city_of(b)!r})"
    if category == "addressdetails":
        keys = ("house_number", "road", "postcode")
        x, y = a.get("address") or {}, b.get("address") or {}
        wrong = [k for k in keys if G.norm(x.get(k, "")) != G.norm(y.get(k, ""))]
        if wrong:
            return False, f"same place, other {', '.join(wrong)}"
    return True, "same object" if same_object else f"same street, {distance:.0f} m apart"


def describe(method, query, kwargs):
    out = {"method": method, "query": list(query) if isinstance(query, tuple) else query}
    for k, v in kwargs.items():
        out[k] = v
    return out


def run(cases, ports):
    categories = {}
    for category, items in cases.items():
        row = {"cases": len(items), "agree": 0, "differ": []}
        geocoders = {label: client(port, amenity=category == "amenity") for label, port in ports.items()}
        for method, query, kwargs, note in items:
            answers = {label: call(g, method, query, kwargs) for label, g in geocoders.items()}
            agree, why = compare(category, answers["wayfinder"], answers["nominatim"])
            if category == "limit" and not isinstance(answers["wayfinder"], str) and not isinstance(answers["nominatim"], str):
                ids = [{(r.get("osm_type"), r.get("osm_id")) for r in answers[k]} for k in ("wayfinder", "nominatim")]
                row.setdefault("same_count", 0)
                row["same_count"] += len(answers["wayfinder"]) == len(answers["nominatim"])
                row.setdefault("shared_objects", 0)
                row["shared_objects"] += len(ids[0] & ids[1])
                row.setdefault("nominatim_objects", 0)
                row["nominatim_objects"] += len(ids[1])
            if agree:
                row["agree"] += 1
                continue
            row["differ"].append({"call": describe(method, query, kwargs), "note": note, "why": why,
                                  **{label: a if isinstance(a, str) else [summary(r) for r in a[:3]] for label, a in answers.items()}})
        row["agreement"] = round(row["agree"] / row["cases"], 3) if row["cases"] else None
        categories[category] = row
        H.log(f"{category:18s} {row['agree']}/{row['cases']}")
    return categories


def main():
    report, out = measure()
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if out:
        out = Path(out)
        tmp = out.with_suffix(".tmp")
        tmp.write_text(text + "\n")
        tmp.replace(out)
    print(text)


def measure():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--extract", default=str(CACHE / "samples" / "monaco.osm.pbf"))
    ap.add_argument("--cases", type=int, default=25, help="most cases per category (default 25)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--languages", help="comma-separated language codes (default: the extract's three commonest name:xx)")
    ap.add_argument("--country", help="ISO code of the extract's country (default: its commonest addr:country)")
    ap.add_argument("--wayfinder", default=str(ROOT / ".build/release/wayfinder"), help="the wayfinder binary (release build)")
    ap.add_argument("--work", default=str(CACHE / "bench" / "geopy-nominatim"))
    ap.add_argument("--out", help="also write the JSON report to this file")
    args = ap.parse_args()
    extract = Path(args.extract).resolve()
    if not extract.exists():
        raise SystemExit(f"no extract at {extract}")
    if not Path(args.wayfinder).exists():
        H.log("building wayfinder (release)")
        subprocess.run(["swift", "build", "-c", "release", "--product", "wayfinder"], cwd=ROOT, check=True)
    name = extract.name.replace(".osm.pbf", "")
    work = Path(args.work) / name
    work.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    cases, drawn = C.draw(extract, work, per_category=args.cases, seed=args.seed,
                          languages=args.languages.split(",") if args.languages else None, country=args.country)
    E.ensure_debian()
    postgres = E.Postgres(CACHE / "nominatim")
    engines = {"wayfinder": E.Wayfinder(args.wayfinder, work, name, extract),
               "nominatim": E.Nominatim(CACHE / "nominatim", postgres, name, extract)}
    postgres.start()
    try:
        engines["nominatim"].ensure_installed()
        for engine in engines.values():
            engine.ensure_imported()
        ports = {label: engine.serve(work) for label, engine in engines.items()}
        categories = run(cases, ports)
    finally:
        for engine in engines.values():
            engine.stop()
        postgres.stop()
    total = sum(r["cases"] for r in categories.values())
    agree = sum(r["agree"] for r in categories.values())
    report = {"date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "extract": extract.name, "seconds": round(time.monotonic() - started, 1),
              "seed": args.seed, **drawn, "cases": total, "agreement": round(agree / total, 3) if total else None,
              "categories": categories}
    return report, args.out


if __name__ == "__main__":
    main()
