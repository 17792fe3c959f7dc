#!/usr/bin/env python3
"""Instructions per geocoding request, counted by callgrind: what a loaded machine does not change.

  bench/geocode_instructions.py --extracts milan,porto --categories typo,partial_number
  bench/geocode_instructions.py --wayfinder OTHER/.build/release/wayfinder --out DIR   (another build)

For each extract: `wayfinder import` as bench/geocode.py does it, then `wayfinder serve` under
`valgrind --tool=callgrind` with instrumentation off while it starts. Per category the same cases as
bench/geocode.py (seed 42) are sent --warmup times unmeasured, then once each with instrumentation on;
the dump (OUT/NAME/callgrind.CATEGORY) is the profile of those requests (callgrind_annotate reads it)
and its total over the number of requests is the instructions per request. HTTP handling is
included; the client's time is not.

Prints JSON: per extract and category, requests, instructions per request, and the dump's path.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as H  # noqa: E402
import geocode_cases as C  # noqa: E402
import geocode_engines as E  # noqa: E402
from geocode import resolve, CACHE, ROOT  # noqa: E402


def control(pid, *args):
    subprocess.run(["callgrind_control", *args, str(pid)], check=True, capture_output=True, text=True)


def total_instructions(dump):
    for line in Path(dump).read_text().splitlines():
        m = re.match(r"(?:summary|totals):\s+(\d+)", line)
        if m:
            return int(m.group(1))
    raise RuntimeError(f"no totals in {dump}")


def run_extract(name, extract, args, out_dir):
    work = out_dir / name
    work.mkdir(parents=True, exist_ok=True)
    cases = C.draw(extract, work, per_category=args.cases, seed=args.seed)
    engine = E.Wayfinder(args.wayfinder, work, name, extract)
    if not engine.dataset.exists():
        H.log(f"{name}: importing")
        engine.ensure_imported()
    port = H.free_port()
    prefix = work / "callgrind"
    cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={prefix}.%p",
           args.wayfinder, "serve", engine.dataset, "--host", "127.0.0.1", "--port", port]
    server = H.Server("wayfinder", cmd, port, r"wayfinder serving", work / "callgrind-server.log")
    server.wait_ready(600)
    pid = server.proc.pid
    rows = {}
    try:
        client = H.Client(port, timeout=300)
        for category in args.categories:
            items = cases.get(category, [])[:args.requests]
            if not items:
                continue
            for case in items[:args.warmup]:
                client.request("GET", E.path_for(case, category, "wayfinder"))
            control(pid, "--zero")
            control(pid, "--instr=on")
            for case in items:
                client.request("GET", E.path_for(case, category, "wayfinder"))
            control(pid, f"--dump={category}")
            control(pid, "--instr=off")
            time.sleep(1)
            dumps = sorted(work.glob(f"callgrind.{pid}.*"), key=os.path.getmtime)
            dump = work / f"callgrind.{category}"
            dumps[-1].rename(dump)
            per = total_instructions(dump) / len(items)
            rows[category] = {"requests": len(items), "instructions_per_request": round(per), "profile": str(dump)}
            H.log(f"{name} {category:15s} {len(items)} requests  {per / 1e6:.2f} M instructions each")
        client.close()
    finally:
        server.stop()
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--extracts", default="milan,porto")
    ap.add_argument("--categories", default="typo,partial_number")
    ap.add_argument("--requests", type=int, default=40, help="measured requests per category")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--cases", type=int, default=200, help="cases drawn per category, as bench/geocode.py")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--wayfinder", default=str(ROOT / ".build/release/wayfinder"))
    ap.add_argument("--out", default=str(CACHE / "bench" / "geocode-instructions"))
    args = ap.parse_args()
    args.categories = args.categories.split(",")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    result = {"date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "wayfinder": args.wayfinder, "extracts": {}}
    for name in args.extracts.split(","):
        label, path = resolve(name)
        result["extracts"][label] = run_extract(label, path, args, out_dir)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
