"""Records osrm-routed's answers to the routingpy cases of test_clients.py (OSRM options) into
osrm_reference.json, so the client tests compare Wayfinder with OSRM on the same extract.

    python tests/clients/record_osrm.py http://127.0.0.1:PORT   # osrm-routed on the Monaco sample, car.lua

osrm-routed is the one of the osrm-bindings wheel (bench/run.py fetches it); the extract is
.cache/samples/monaco.osm.pbf from scripts/setup.sh. The cases are OSRM_CASES in test_clients.py.
"""
import json
import os
import sys

import routingpy
from routingpy.exceptions import RouterApiError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_clients import OSRM_CASES  # noqa: E402


def answer(client, case):
    try:
        d = client.directions(case["locations"], profile="driving", **case["options"])
    except RouterApiError as e:
        return {"status": e.status, "code": json.loads(e.message).get("code")}
    return {"status": 200, "code": d.raw["code"], "distance": d.distance,
            "waypoints": [w["location"] for w in d.raw["waypoints"]]}


def main():
    client = routingpy.OSRM(base_url=sys.argv[1], timeout=20)
    out = {"engine": "osrm-routed 26.10.0 (osrm-bindings wheel), car.lua, MLD",
           "extract": "monaco.osm.pbf of quackosm 0.19.0 (scripts/setup.sh)",
           "answers": {name: answer(client, case) for name, case in OSRM_CASES.items()}}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "osrm_reference.json")
    with open(path + ".tmp", "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
