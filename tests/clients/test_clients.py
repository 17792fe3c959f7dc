"""Real client libraries from PyPI against a live Wayfinder server (Monaco sample).

routingpy's OSRM client (route and table), geopy's Nominatim and geopy's TomTom geocoders, each
used exactly as an application would use it against the real services, with only the address
changed. Run by tests/clients/run.sh, which starts the server and sets WAYFINDER_URL.
"""
import json
import math
import os
from urllib.parse import urlsplit

import pytest
import routingpy
from geopy.exc import GeocoderQueryError
from geopy.geocoders import Nominatim, TomTom
from geopy.point import Point
from routingpy.exceptions import RouterApiError

BASE = os.environ.get("WAYFINDER_URL", "http://127.0.0.1:8080").rstrip("/")
HOST = urlsplit(BASE).netloc  # "127.0.0.1:PORT", geopy's `domain`
TIMEOUT = 20

# Monaco, with a little margin: every answer about Monaco must land in here.
SOUTH, NORTH, WEST, EAST = 43.720, 43.760, 7.400, 7.445
# (lon, lat) as OSRM wants them: Avenue de l'Hermitage by the Casino, Fontvieille, the port (La Condamine).
CASINO = [7.4246, 43.7384]
FONTVIEILLE = [7.4180, 43.7290]
PORT = [7.4225, 43.7350]
SEA = [7.4600, 43.7200]  # open water, kilometres from any road
NOWHERE = (0.0, 0.0)      # Gulf of Guinea: nothing to reverse-geocode


def in_monaco(lat, lon):
    return SOUTH <= lat <= NORTH and WEST <= lon <= EAST


def meters(a, b):
    """Rough distance between two (lon, lat) points."""
    dx = (a[0] - b[0]) * 111_320 * math.cos(math.radians(a[1]))
    dy = (a[1] - b[1]) * 110_540
    return math.hypot(dx, dy)


@pytest.fixture(scope="module")
def osrm():
    return routingpy.OSRM(base_url=BASE, timeout=TIMEOUT)


@pytest.fixture(scope="module")
def nominatim():
    return Nominatim(domain=HOST, scheme="http", user_agent="wayfinder-client-tests", timeout=TIMEOUT)


@pytest.fixture(scope="module")
def tomtom():
    return TomTom(api_key="any", domain=HOST, scheme="http", timeout=TIMEOUT)


def assert_sane_direction(d, start, end):
    assert d.distance > 0 and d.duration > 0, (d.distance, d.duration)
    assert len(d.geometry) > 1
    for lon, lat in d.geometry:
        assert in_monaco(lat, lon), (lat, lon)
    # The line starts and ends near the requested points (snapped to the nearest road).
    assert meters(d.geometry[0], start) < 150, (d.geometry[0], start)
    assert meters(d.geometry[-1], end) < 150, (d.geometry[-1], end)
    # A road route is at least as long as the straight line.
    assert d.distance >= meters(start, end) * 0.9


# ---- routingpy: OSRM /route/v1 and /table/v1 -----------------------------------------------------

@pytest.mark.parametrize("profile", ["car", "driving", "bike", "cycling", "foot", "walking"])
def test_osrm_directions_each_profile(osrm, profile):
    d = osrm.directions([CASINO, FONTVIEILLE], profile=profile)
    assert_sane_direction(d, CASINO, FONTVIEILLE)
    assert d.raw["code"] == "Ok"


def test_osrm_walking_is_slower_than_driving(osrm):
    car = osrm.directions([CASINO, FONTVIEILLE], profile="car")
    foot = osrm.directions([CASINO, FONTVIEILLE], profile="foot")
    bike = osrm.directions([CASINO, FONTVIEILLE], profile="bike")
    assert foot.duration > bike.duration > 0
    assert foot.duration > car.duration
    # Walking 1-3 km in Monaco takes a quarter of an hour or more, at a walking pace.
    assert 0.5 <= foot.distance / foot.duration <= 2.5, (foot.distance, foot.duration)


@pytest.mark.parametrize("alternatives", [True, 2])
def test_osrm_alternatives(osrm, alternatives):
    ds = osrm.directions([CASINO, FONTVIEILLE], profile="car", alternatives=alternatives)
    routes = list(ds)
    # The best route plus up to `n` alternatives (OSRM's reading of alternatives=n).
    assert 1 <= len(routes) <= (3 if alternatives is True else alternatives + 1)
    for d in routes:
        assert_sane_direction(d, CASINO, FONTVIEILLE)
    assert ds.raw["code"] == "Ok" and len(ds.raw["waypoints"]) == 2
    # The first route is the best one.
    assert all(routes[0].duration <= d.duration for d in routes[1:])


def test_osrm_steps(osrm):
    d = osrm.directions([CASINO, FONTVIEILLE], profile="car", steps=True)
    legs = d.raw["routes"][0]["legs"]
    assert len(legs) == 1
    steps = legs[0]["steps"]
    assert len(steps) >= 3
    assert steps[0]["maneuver"]["type"] == "depart"
    assert steps[-1]["maneuver"]["type"] == "arrive"
    assert any(s["name"] for s in steps), "no step names a street"
    assert abs(sum(s["distance"] for s in steps) - legs[0]["distance"]) <= max(5, 0.02 * legs[0]["distance"])
    assert legs[0]["summary"], "a leg with steps has a summary of its main roads"
    for s in steps:
        lon, lat = s["maneuver"]["location"]
        assert in_monaco(lat, lon)
        assert 0 <= s["maneuver"]["bearing_after"] <= 359


def test_osrm_via_point_gives_two_legs(osrm):
    d = osrm.directions([CASINO, PORT, FONTVIEILLE], profile="car", steps=True)
    legs = d.raw["routes"][0]["legs"]
    assert len(legs) == 2
    assert abs(sum(l["distance"] for l in legs) - d.distance) <= 2
    assert len(d.raw["waypoints"]) == 3


@pytest.mark.parametrize("geometries", ["polyline", "polyline6", "geojson"])
def test_osrm_geometries(osrm, geometries):
    d = osrm.directions([CASINO, FONTVIEILLE], profile="car", geometries=geometries, overview="full")
    assert_sane_direction(d, CASINO, FONTVIEILLE)
    reference = osrm.directions([CASINO, FONTVIEILLE], profile="car", geometries="geojson", overview="full")
    assert len(d.geometry) == len(reference.geometry)
    tolerance = 2e-5 if geometries == "polyline" else 2e-6
    for (a, b), (c, e) in zip(d.geometry, reference.geometry):
        assert abs(a - c) <= tolerance and abs(b - e) <= tolerance


def test_osrm_matrix(osrm):
    locations = [CASINO, FONTVIEILLE, PORT]
    m = osrm.matrix(locations, profile="car")
    assert len(m.durations) == 3 and all(len(row) == 3 for row in m.durations)
    assert len(m.distances) == 3 and all(len(row) == 3 for row in m.distances)
    for i in range(3):
        assert m.durations[i][i] == 0 and m.distances[i][i] == 0
        for j in range(3):
            if i != j:
                assert m.durations[i][j] > 0 and m.distances[i][j] > 0
    # The table agrees with the route service.
    route = osrm.directions([CASINO, FONTVIEILLE], profile="car")
    assert abs(m.durations[0][1] - route.duration) <= max(5, 0.05 * route.duration)


def test_osrm_matrix_sources_destinations(osrm):
    m = osrm.matrix([CASINO, FONTVIEILLE, PORT], profile="foot", sources=[0], destinations=[1, 2],
                    annotations=["duration"])
    assert len(m.durations) == 1 and len(m.durations[0]) == 2
    assert all(v > 0 for v in m.durations[0])
    assert m.distances is None
    assert len(m.raw["sources"]) == 1 and len(m.raw["destinations"]) == 2


def raised(call):
    with pytest.raises(RouterApiError) as info:
        call()
    error = info.value
    assert error.status == 400, error
    return error.message


def test_osrm_errors_raise_router_api_error(osrm):
    message = raised(lambda: osrm.directions([CASINO], profile="car"))
    assert '"InvalidQuery"' in message
    message = raised(lambda: osrm.directions([SEA, CASINO], profile="car"))
    assert '"NoSegment"' in message
    message = raised(lambda: osrm.directions([CASINO, FONTVIEILLE], profile="hovercraft"))
    assert '"InvalidValue"' in message and "hovercraft" in message
    message = raised(lambda: osrm.directions([[7.42, 91.0], CASINO], profile="car"))
    assert '"InvalidValue"' in message
    message = raised(lambda: osrm.directions([CASINO, FONTVIEILLE], profile="car", geometries="wkt"))
    assert "geometries" in message
    message = raised(lambda: osrm.matrix([CASINO, FONTVIEILLE], profile="car", sources=[5]))
    assert "sources" in message


# ---- routingpy: OSRM's options, against osrm-routed's answers on the same extract ----------------

# Recorded from osrm-routed (car.lua) on the Monaco sample by record_osrm.py into osrm_reference.json.
OSRM_CASES = {
    "plain": {"locations": [CASINO, FONTVIEILLE], "options": {}},
    "exclude_motorway": {"locations": [CASINO, FONTVIEILLE], "options": {"exclude": "motorway"}},
    "exclude_toll": {"locations": [PORT, FONTVIEILLE], "options": {"exclude": "toll"}},
    "exclude_unknown": {"locations": [CASINO, FONTVIEILLE], "options": {"exclude": "tunnel"}},
    "radiuses_too_small": {"locations": [CASINO, FONTVIEILLE], "options": {"radiuses": [1, 1]}},
    "radiuses_enough": {"locations": [CASINO, FONTVIEILLE], "options": {"radiuses": [30, 30]}},
    "radiuses_one_short": {"locations": [CASINO, FONTVIEILLE], "options": {"radiuses": [30, 5]}},
    "bearings_north_east": {"locations": [CASINO, FONTVIEILLE], "options": {"bearings": [[0, 30], [90, 30]]}},
    "bearings_south_west": {"locations": [CASINO, FONTVIEILLE], "options": {"bearings": [[180, 20], [270, 20]]}},
    "bearings_and_radiuses": {"locations": [CASINO, PORT], "options": {"bearings": [[180, 20], [0, 180]], "radiuses": [100, 100]}},
    "bearings_count_wrong": {"locations": [CASINO, FONTVIEILLE], "options": {"bearings": [[0, 30]]}},
}


def osrm_reference():
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "osrm_reference.json")) as f:
        return json.load(f)["answers"]


@pytest.mark.parametrize("name", sorted(OSRM_CASES))
def test_osrm_options_answer_as_osrm_does(osrm, name):
    """exclude, radiuses and bearings through routingpy: the code OSRM gives, the waypoints it
    snaps to (within 5 m) and a route of about its length (within 10 %)."""
    case, expected = OSRM_CASES[name], osrm_reference()[name]
    try:
        d = osrm.directions(case["locations"], profile="driving", **case["options"])
    except RouterApiError as e:
        assert e.status == expected["status"] and json.loads(e.message)["code"] == expected["code"], (e.status, e.message, expected)
        return
    assert expected["status"] == 200, (d.raw["code"], expected)
    for ours, theirs in zip(d.raw["waypoints"], expected["waypoints"]):
        assert meters(ours["location"], theirs) < 5, (ours["location"], theirs)
    assert abs(d.distance - expected["distance"]) <= 0.1 * expected["distance"], (d.distance, expected["distance"])


def test_osrm_options_reference_covers_every_case():
    assert sorted(osrm_reference()) == sorted(OSRM_CASES)


# ---- geopy: Nominatim ----------------------------------------------------------------------------

def test_nominatim_geocode_street(nominatim):
    place = nominatim.geocode("Boulevard des Moulins")
    assert place is not None
    assert in_monaco(place.latitude, place.longitude), place.point
    assert "Boulevard des Moulins" in place.address
    assert "Monaco" in place.address


def test_nominatim_geocode_list(nominatim):
    places = nominatim.geocode("Boulevard des Moulins", exactly_one=False, limit=5)
    assert isinstance(places, list) and 1 <= len(places) <= 5
    for p in places:
        assert in_monaco(p.latitude, p.longitude)
        assert "Moulins" in p.address
    ids = [p.raw["place_id"] for p in places]
    assert len(set(ids)) == len(ids), "duplicate places in one answer"


def test_nominatim_geocode_place_with_details(nominatim):
    place = nominatim.geocode("Casino", addressdetails=True, country_codes="mc",
                              viewbox=[Point(NORTH, WEST), Point(SOUTH, EAST)], bounded=True)
    assert place is not None
    assert in_monaco(place.latitude, place.longitude)
    assert "Casino" in place.address
    assert place.raw["address"]["country_code"] == "mc"


def test_nominatim_geocode_nothing(nominatim):
    assert nominatim.geocode("Qwxzvbnmlkjh Plokijuhy") is None
    assert nominatim.geocode("Qwxzvbnmlkjh Plokijuhy", exactly_one=False) is None


def test_nominatim_reverse(nominatim):
    place = nominatim.reverse((CASINO[1], CASINO[0]))
    assert place is not None
    assert in_monaco(place.latitude, place.longitude)
    road = place.raw["address"]["road"]
    assert road and road in place.address
    assert road.split()[0] in ("Avenue", "Boulevard", "Rue", "Place", "Allée", "Quai", "Chemin", "Escalier")
    assert place.raw["address"]["country_code"] == "mc"


def test_nominatim_reverse_list_and_zoom(nominatim):
    places = nominatim.reverse((FONTVIEILLE[1], FONTVIEILLE[0]), exactly_one=False, zoom=17, addressdetails=False)
    assert isinstance(places, list) and len(places) == 1
    assert in_monaco(places[0].latitude, places[0].longitude)
    assert "address" not in places[0].raw


def test_nominatim_reverse_nowhere(nominatim):
    assert nominatim.reverse(NOWHERE) is None


# ---- geopy: TomTom -------------------------------------------------------------------------------

def test_tomtom_geocode(tomtom):
    place = tomtom.geocode("Boulevard des Moulins")
    assert place is not None
    assert in_monaco(place.latitude, place.longitude), place.point
    assert "Boulevard des Moulins" in place.address
    assert place.raw["type"] in ("Street", "Point Address", "Address Range")


def test_tomtom_geocode_list_and_typeahead(tomtom):
    places = tomtom.geocode("Boulevard des Moul", exactly_one=False, limit=5, typeahead=True)
    assert isinstance(places, list) and 1 <= len(places) <= 5
    assert any("Boulevard des Moulins" in p.address for p in places)
    for p in places:
        assert in_monaco(p.latitude, p.longitude)


def test_tomtom_geocode_nothing(tomtom):
    assert tomtom.geocode("Qwxzvbnmlkjh Plokijuhy") is None


def test_tomtom_reverse(tomtom):
    place = tomtom.reverse((CASINO[1], CASINO[0]))
    assert place is not None
    assert in_monaco(place.latitude, place.longitude)
    street = place.raw["address"]["streetName"]
    assert street and street in place.address
    assert meters([place.longitude, place.latitude], CASINO) < 200


def test_tomtom_reverse_list_and_nowhere(tomtom):
    places = tomtom.reverse((PORT[1], PORT[0]), exactly_one=False)
    assert isinstance(places, list) and len(places) >= 1
    assert all(in_monaco(p.latitude, p.longitude) for p in places)
    assert tomtom.reverse(NOWHERE) is None


def test_tomtom_bad_input_is_a_query_error(tomtom):
    # An empty query reaches the server as /geocode/.json; TomTom answers 400, geopy raises.
    with pytest.raises(GeocoderQueryError):
        tomtom.geocode(" ")
