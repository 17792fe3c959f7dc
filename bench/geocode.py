#!/usr/bin/env python3
"""Geocoding side by side: Wayfinder against Nominatim 5.3.3 on the same extracts and cases.

  bench/geocode.py                          every extract of ../shared/data
  bench/geocode.py --extracts helsinki,andorra-2021   a subset (names of ../shared/data files or .osm.pbf paths)
  bench/geocode.py --no-nominatim           Wayfinder only (no PostgreSQL needed)

Cases are drawn from each extract's own data (bench/geocode_cases.py), up to --cases per category:
an address ("Street 5"), an address with its city, a typo in the street, the street with the first
digit of a number (typeahead), a POI by its name, reverse geocoding 3 m from an address, an address or
POI by its name in another language, a number on an interpolation line, and a postcode. Both
engines answer the same Nominatim URL (/search, /reverse with format=jsonv2&addressdetails=1) over
one keep-alive connection each; success is judged on the first result. Latency is the client's
wall time per request, HTTP included; beside it, the CPU time the engine's own processes spent
per request (Nominatim: its server and the PostgreSQL backends), which a busy machine does not
inflate.

Targets (reported per extract and category): Wayfinder's success at least Nominatim's, at least
95 % on other-language names where the extract has them, and latency p50 < 1 ms, p99 < 5 ms.

Prints the JSON report and writes it to OUT/geocode.json (default .cache/bench/geocode), with the
failures of each engine (the first --failures of each category) beside the rates.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as H  # noqa: E402
import geocode_cases as C  # noqa: E402
import geocode_engines as E  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("WAYFINDER_CACHE", ROOT / ".cache"))
SHARED = Path(os.environ.get("WAYFINDER_SHARED", ROOT.parent / "shared"))


def resolve(name):
    p = Path(name)
    if p.suffix == ".pbf" and p.exists():
        return p.stem.replace(".osm", ""), p
    for candidate in sorted((SHARED / "data").glob("*.osm.pbf")):
        if candidate.name.startswith(name):
            return candidate.name.replace(".osm.pbf", ""), candidate
    raise SystemExit(f"no extract named {name} in {SHARED / 'data'}")


def targets(row, has_language):
    """Which targets a category meets: success ≥ Nominatim's (≥ 95 % for other languages), p50 < 1 ms, p99 < 5 ms."""
    ours, theirs = row["wayfinder"], row.get("nominatim")
    out = {"p50_under_1ms": ours["latency"].get("p50_ms", 0) < 1, "p99_under_5ms": ours["latency"].get("p99_ms", 0) < 5}
    if theirs:
        out["success_at_least_nominatim"] = ours["success"] >= theirs["success"]
    if has_language:
        out["success_at_least_95"] = ours["success"] >= 0.95
    return out


def run_extract(name, extract, args, wayfinder_bin, out_dir, postgres):
    work = out_dir / name
    work.mkdir(parents=True, exist_ok=True)
    H.log(f"{name}: drawing cases")
    cases = C.draw(extract, work, per_category=args.cases, seed=args.seed)
    engines = {"wayfinder": E.Wayfinder(wayfinder_bin, work, name, extract)}
    if postgres:
        engines["nominatim"] = E.Nominatim(CACHE / "nominatim", postgres, name, extract)
        engines["nominatim"].ensure_installed()
    report = {"extract": extract.name, "cases": {c: len(v) for c, v in cases.items()}, "import_seconds": {}, "categories": {}}
    for label, engine in engines.items():
        seconds = engine.ensure_imported()
        report["import_seconds"][label] = seconds if seconds is not None else "kept from an earlier run"
    for label, engine in engines.items():
        port = engine.serve(work)
        try:
            for category, items in cases.items():
                if not items:
                    continue
                ok, latencies, failures, cpu_ms = E.measure(port, items, category, label, cpu_pids=engine.cpu_pids)
                row = report["categories"].setdefault(category, {"cases": len(items)})
                row[label] = {"success": round(ok / len(items), 3), "right": ok, "latency": H.percentiles(latencies),
                              "server_cpu_ms_per_request": cpu_ms, "failures": failures[:args.failures]}
                H.log(f"{name} {category:15s} {label:10s} {ok}/{len(items)}  p50 {row[label]['latency']['p50_ms']} ms")
            report.setdefault("server_memory", {})[label] = engine.server.memory()
        finally:
            engine.stop()
    for category, row in report["categories"].items():
        row["targets"] = targets(row, category == "other_language")
    if not args.keep:
        shutil.rmtree(work / f"wayfinder-{name}", ignore_errors=True)
    return report


def table(reports):
    """The comparison as Markdown: success (Wayfinder / Nominatim) and Wayfinder's p50/p99 against Nominatim's."""
    lines = []
    for r in reports:
        lines.append(f"\n{r['extract']}\n")
        lines.append("| category | cases | Wayfinder | Nominatim | Wayfinder p50 / p99 ms | Nominatim p50 / p99 ms | server CPU ms per request, Wayfinder / Nominatim |")
        lines.append("|---|---|---|---|---|---|---|")
        for category, row in r["categories"].items():
            w, n = row["wayfinder"], row.get("nominatim")
            def cell(x):
                return f"{100 * x['success']:.1f} %" if x else "–"
            def lat(x):
                return f"{x['latency']['p50_ms']:.2f} / {x['latency']['p99_ms']:.2f}" if x else "–"
            def cpu(x):
                return f"{x['server_cpu_ms_per_request']:.2f}" if x else "–"
            lines.append(f"| {category} | {row['cases']} | {cell(w)} | {cell(n)} | {lat(w)} | {lat(n)} | {cpu(w)} / {cpu(n)} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--extracts", help="comma-separated names of ../shared/data extracts or .osm.pbf paths (default: all)")
    ap.add_argument("--cases", type=int, default=200, help="most cases per category (default 200)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--failures", type=int, default=15, help="failures kept per engine and category")
    ap.add_argument("--no-nominatim", action="store_true", help="measure Wayfinder only")
    ap.add_argument("--wayfinder", default=str(ROOT / ".build/release/wayfinder"), help="the wayfinder binary (release build)")
    ap.add_argument("--out", default=str(CACHE / "bench" / "geocode"))
    ap.add_argument("--keep", action="store_true", help="keep the Wayfinder datasets")
    args = ap.parse_args()
    if not Path(args.wayfinder).exists():
        H.log("building wayfinder (release)")
        subprocess.run(["swift", "build", "-c", "release", "--product", "wayfinder"], cwd=ROOT, check=True)
    names = args.extracts.split(",") if args.extracts else [p.name.replace(".osm.pbf", "") for p in sorted((SHARED / "data").glob("*.osm.pbf"))]
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    postgres = None
    if not args.no_nominatim:
        E.ensure_debian()
        postgres = E.Postgres(CACHE / "nominatim")
        postgres.start()
    reports = []
    started = time.monotonic()
    try:
        for name in names:
            label, path = resolve(name)
            reports.append(run_extract(label, path, args, args.wayfinder, out_dir, postgres))
    finally:
        if postgres:
            postgres.stop()
    result = {"date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "seconds": round(time.monotonic() - started, 1),
              "cases_per_category": args.cases, "seed": args.seed, "extracts": reports}
    (out_dir / "geocode.json").write_text(json.dumps(result, indent=2, ensure_ascii=False))
    (out_dir / "geocode.md").write_text(table(reports) + "\n")
    print(json.dumps(result, indent=2, ensure_ascii=False))
    print(table(reports), file=sys.stderr)


if __name__ == "__main__":
    main()
