#!/usr/bin/env python3
"""End-to-end flows of the Wayfinder web app in headless Chromium (Selenium, no downloads).

Usage: flows.py BASE_URL SCREENSHOT_DIR [--flows ttl]   (tests/browser/run.sh starts the server and
       calls this; with --flows ttl only the time-to-leave flow, against a server whose clock runs
       fast and which plays a traffic replay: run.sh starts a second one for it)
       flows.py --ttl-trip SOURCE             the time-to-leave trip for a dataset: FROM TO MODE TYPE
       flows.py --ttl-replay IN.csv OUT.csv   a jam/clear cycle replay from `wayfinder leave --make-replay`

Flows (on the Monaco sample):
  a  long press twice -> route drawn, panel shows a distance; the click after a long press is ignored
  c  directions panel: steps listed, a clicked step is highlighted, alternatives selectable (list and line)
  b  search along the route: Restaurant and Gas station show markers; a balloon's "Add to my route"
     recalculates the route through the stop
  d  a point in the sea -> "There is no road near that point"
  f  local search list (names, addresses, phones) and "Directions from my location"
     (geolocation granted, then denied -> pick a point on the map)
  e  phone-sized viewport, touch long presses, bottom sheet, attribution visible
  g  "Time to leave" tab shows its form; accessible names on every button; no unexpected console errors
  h  keyboard only: typeahead for start and destination, travel mode and route type
  i  on a slow network: the loading indicator shows while the route is computed
  r  the Reach tab: a long press draws nested isochrones with a legend; the budget slider and the
     km budget redraw them; a point in the sea says there is no road
  l  browsers preferring German, French and Portuguese get their directions in that language

Flow t (time to leave, on Monaco or Helsinki; the server runs with --clock-speed and a replay that
jams and clears the trip's route in turn): typeahead from 3 characters or "Your location", travel
mode, route type, preparation time; an arrival time that has passed -> the seed's message and why;
then the countdown, the route, travel time and traffic delay, a toast "Route recalculated due to
change in traffic: N sec", "Time's UP! Time to leave!" at zero, "Whatever" -> how late, "On My Way!".

Each flow prints PASS or FAIL; a search endpoint that answers 404 (a dataset without its places
index) is a failure like any other. Exit status: 1 if any flow failed.
"""
import math
import os
import re
import sys
import time
import traceback

os.environ["SE_OFFLINE"] = "true"  # keep Selenium Manager from downloading anything

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
FLOWS = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--flows"), "all")
BASE = ARGS[0].rstrip("/") if ARGS else "http://127.0.0.1:8080"
SHOTS = ARGS[1] if len(ARGS) > 1 else ".build/browser-screenshots"
# How many times faster than real time the time-to-leave server's clock runs (serve --clock-speed).
CLOCK_SPEED = float(os.environ.get("WAYFINDER_CLOCK_SPEED", "1"))

# Monaco: two points on streets (Avenue de l'Hermitage by the Casino; Fontvieille), one in the sea.
A = (43.7384, 7.4246)
B = (43.7290, 7.4180)
SEA = (43.7280, 7.4400)
ELSEWHERE = (43.7350, 7.4195)  # a third press anywhere on land (Les Moneghetti) clears the map
ME = (43.7335, 7.4200)   # a fake GPS fix in Monaco-Ville for "Directions from my location"
WAIT = 15                # seconds, for any one condition




class Check(Exception):
    pass


def check(cond, message):
    if not cond:
        raise Check(message)


# ---- browser --------------------------------------------------------------------------------------

def chrome(phone=False, lang="en-GB"):
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
            f"--lang={lang}", "--force-device-scale-factor=1"]
    opts.add_experimental_option("prefs", {"intl.accept_languages": lang})
    if phone:
        opts.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2, "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                         "Chrome/130.0 Mobile Safari/537.36"})
        args.append("--window-size=390,844")
    else:
        args.append("--window-size=1366,900")
    for a in args:
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=opts)
    d.set_page_load_timeout(20)
    d.set_script_timeout(20)
    return d


def open_app(d):
    d.get(BASE + "/")
    wait(d, lambda d: js(d, "return document.body.dataset.ready === '1'"), "the app to start")
    wait_idle(d)


def js(d, script, *args):
    return d.execute_script(script, *args)


def wait(d, cond, what, timeout=WAIT):
    try:
        return WebDriverWait(d, timeout, poll_frequency=0.1).until(cond)
    except TimeoutException:
        raise Check(f"timed out after {timeout}s waiting for {what}")


def wait_idle(d, timeout=WAIT):
    """No request in flight and no map animation."""
    wait(d, lambda d: js(d, "return document.body.dataset.busy !== '1' && !wayfinder.map._animatingZoom && !wayfinder.map._panAnim?._inProgress"),
         "requests and animations to finish", timeout)


def shot(d, name):
    path = os.path.join(SHOTS, f"{name}.png")
    time.sleep(0.35)  # let tiles fade in and CSS transitions end (visual only, never a condition)
    d.save_screenshot(path)
    print(f"      screenshot {path}")
    return path


def on_screen(d, latlon):
    """[x, y, w, h, visible]: where a lat/lon is on the map, and whether the panel leaves it visible."""
    return js(d, """
        const p = wayfinder.map.latLngToContainerPoint([arguments[0], arguments[1]]);
        const r = document.getElementById('map').getBoundingClientRect();
        const q = document.getElementById('panel').getBoundingClientRect();
        const x = r.left + p.x, y = r.top + p.y, m = 24;
        const inMap = p.x >= m && p.y >= m && p.x < r.width - m && p.y < r.height - m;
        const underPanel = x >= q.left - 8 && x <= q.right + 8 && y >= q.top - 8 && y <= q.bottom + 8;
        const under = document.elementFromPoint(x, y);
        const onMap = !!under && !!under.closest('#map') && !under.closest('.leaflet-control, .leaflet-popup, .leaflet-marker-icon');
        return [p.x, p.y, r.width, r.height, inMap && !underPanel && onMap];""", latlon[0], latlon[1])


def ensure_visible(d, *points):
    """Zooms out with the map's own "-" button (as a user would) until the points are visible."""
    for _ in range(5):
        if all(on_screen(d, p)[4] for p in points):
            return
        js(d, "wayfinder.map.closePopup()")
        d.find_element(By.CSS_SELECTOR, ".leaflet-control-zoom-out").click()
        wait_idle(d)
    check(all(on_screen(d, p)[4] for p in points), f"{points} not visible on the map")


def point_of(d, latlon):
    """Offsets of a lat/lon from the centre of the map element (Selenium 4 offsets are from the centre)."""
    ensure_visible(d, latlon)
    x, y, w, h, _ = on_screen(d, latlon)
    return int(round(x - w / 2)), int(round(y - h / 2))


def long_press(d, latlon, hold=0.9):
    ox, oy = point_of(d, latlon)
    m = d.find_element(By.ID, "map")
    ActionChains(d).move_to_element_with_offset(m, ox, oy).click_and_hold().pause(hold).release().perform()


def right_click(d, latlon):
    ox, oy = point_of(d, latlon)
    ActionChains(d).move_to_element_with_offset(d.find_element(By.ID, "map"), ox, oy).context_click().perform()


def touch_long_press(d, latlon, hold=1.0):
    ox, oy = point_of(d, latlon)
    r = js(d, "const r = document.getElementById('map').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    x, y = int(r[0] + r[2] / 2 + ox), int(r[1] + r[3] / 2 + oy)
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    ab = ActionBuilder(d, mouse=finger)
    ab.pointer_action.move_to_location(x, y).pointer_down().pause(hold).pointer_up()
    ab.perform()


def data(d, key):
    return js(d, f"return document.body.dataset[{key!r}]")


def count(d, css):
    return len(d.find_elements(By.CSS_SELECTOR, css))


def visible_text(d, css):
    els = [e for e in d.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]
    return " | ".join(e.text for e in els)


def make_route(d, press=long_press):
    press(d, A)
    wait(d, lambda d: count(d, ".wf-pin-from") == 1, "the departure marker")
    # the balloon with the address opens on the departure marker
    wait(d, lambda d: count(d, ".leaflet-popup .popup-kicker") >= 1, "the departure balloon")
    wait_idle(d)
    press(d, B)
    wait(d, lambda d: data(d, "routeState") in ("ready", "error"), "the route")
    check(data(d, "routeState") == "ready", "route failed: " + visible_text(d, ".toast, #route-error"))
    wait_idle(d)


def route_signature(d):
    return (int(data(d, "routePoints") or 0), int(data(d, "routeLength") or 0))


def require_search(d, path):
    """Fails the flow when the server answers 404 on a search path (no places index)."""
    status = js(d, """
        const [path, method] = arguments;
        return fetch(path, method === 'POST'
            ? {method: 'POST', headers: {'Content-Type': 'application/json'},
               body: JSON.stringify({route: {points: [{lat: 43.7384, lon: 7.4246}, {lat: 43.729, lon: 7.418}]}})}
            : {}).then(r => r.status).catch(() => 0);""", *path)
    check(status != 404, f"{path[1]} {path[0].split('?')[0]} answers 404: the dataset has no places index")


def check_contrast(d):
    """Text contrast (WCAG AA, 4.5:1) of the panel, toasts, balloons and attribution, against the
    nearest opaque background."""
    low = js(d, """
        const lum = (c) => { const [r, g, b] = c.map(v => { v /= 255; return v <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4; });
                             return .2126 * r + .7152 * g + .0722 * b; };
        const rgba = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
        const bg = (e) => { for (; e; e = e.parentElement) { const c = rgba(getComputedStyle(e).backgroundColor); if (c.length === 3 || c[3] > .9) return c; } return [255, 255, 255]; };
        const out = []; let checked = 0;
        for (const e of document.querySelectorAll('#panel *, .toast *, .leaflet-popup *, .leaflet-control-attribution')) {
          if (!e.offsetParent || ![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
          const fg = rgba(getComputedStyle(e).color), b = bg(e);
          const [l1, l2] = [lum(fg.slice(0, 3)), lum(b.slice(0, 3))].sort((x, y) => y - x);
          const ratio = (l1 + .05) / (l2 + .05);
          if (!(ratio >= 4.5)) out.push(e.textContent.trim().slice(0, 30) + ' ' + ratio.toFixed(2));
          checked++;
        }
        return checked >= 10 ? out : ['only ' + checked + ' text elements checked'];""")
    check(not low, f"text below 4.5:1 contrast: {low}")


# ---- flows ------------------------------------------------------------------------------------------

def flow_a_route(d):
    open_app(d)
    wait(d, lambda d: count(d, ".leaflet-tile-loaded") >= 4, "base map tiles to load")
    check("OpenStreetMap contributors" in d.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text,
          "the © OpenStreetMap contributors attribution is missing")
    shot(d, "a1-start")
    long_press(d, A)
    wait(d, lambda d: count(d, ".wf-pin-from") == 1, "the departure marker")
    wait(d, lambda d: count(d, ".leaflet-popup .popup-kicker") >= 1, "the departure balloon")
    wait_idle(d)
    # The click the browser fires after the long press must not have closed the balloon or set anything else.
    check(count(d, ".leaflet-popup") == 1, "the click after the long press closed the departure balloon")
    check(count(d, ".wf-pin-to") == 0, "a single long press set the destination too")
    check(d.find_element(By.ID, "from-input").get_attribute("value") != "", "the starting point box is empty")
    shot(d, "a2-departure")
    right_click(d, B)   # right-click is the desktop twin of the long press
    wait(d, lambda d: data(d, "routeState") in ("ready", "error"), "the route")
    check(data(d, "routeState") == "ready", "route failed: " + visible_text(d, ".toast, #route-error"))
    wait_idle(d)
    check(count(d, "path.wf-route-selected") == 1, "no route polyline drawn")
    dist = d.find_element(By.CSS_SELECTOR, '.alt[aria-pressed="true"] [data-testid="distance"]').text
    check(any(u in dist for u in (" km", " m")), f"the panel shows no distance ({dist!r})")
    tt = d.find_element(By.CSS_SELECTOR, '.alt[aria-pressed="true"] [data-testid="travel-time"]').text
    check("min" in tt or " h" in tt, f"the panel shows no travel time ({tt!r})")
    print(f"      route: {dist}, {tt}, {data(d, 'routeCount')} route(s), {data(d, 'routePoints')} points")
    shot(d, "a3-route")


def flow_c_directions(d):
    n_steps = count(d, "#steps .step-btn")
    check(n_steps >= 3, f"only {n_steps} steps listed")
    texts = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#steps .step-text")]
    check(all(t.strip() for t in texts), "a step has no instruction text")
    step = d.find_elements(By.CSS_SELECTOR, "#steps .step-btn")[min(2, n_steps - 2)]
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", step)
    step.click()
    wait(d, lambda d: step.get_attribute("aria-current") == "step", "the clicked step to be marked")
    wait(d, lambda d: count(d, "path.wf-step-highlight") == 1 or count(d, "path.wf-step-point") == 1, "the step highlight on the map")
    wait_idle(d)
    shot(d, "c1-step-highlighted")
    # keyboard: the next step with Tab + Enter
    step.send_keys(Keys.TAB)
    active = d.switch_to.active_element
    check(active.get_attribute("data-step") is not None, "Tab from a step did not move to the next step")
    active.send_keys(Keys.ENTER)
    wait(d, lambda d: active.get_attribute("aria-current") == "step", "Enter on a step to highlight it")
    # Alternatives: the list ...
    n_alts = count(d, ".alt")
    print(f"      {n_steps} steps, {n_alts} routes")
    check(n_alts >= 2, "no alternative route offered (maxAlternatives=2)")
    before = route_signature(d)
    alt = d.find_elements(By.CSS_SELECTOR, ".alt")[1]
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", alt)
    alt.send_keys(Keys.ENTER)  # keyboard; the line on the map is clicked below
    wait(d, lambda d: data(d, "selectedRoute") == "1", "the second route to be selected from the list")
    check(d.find_elements(By.CSS_SELECTOR, ".alt")[1].get_attribute("aria-pressed") == "true", "the chosen route card is not marked")
    check(d.switch_to.active_element.get_attribute("data-route") == "1", "the chosen route card lost the keyboard focus")
    check(route_signature(d) != before, "selecting an alternative did not change the route drawn")
    check(count(d, "path.wf-route-alt") == n_alts - 1, "the other routes are not drawn as alternatives")
    d.execute_script("document.getElementById('panel-body').scrollTop = 0")
    wait_idle(d)
    shot(d, "c2-alternative-selected")
    # ... and the line on the map: click a point of a route not selected that lies away from the others.
    # Which route is clear of the others depends on the hour (conditional restrictions change them), so any
    # route but the selected one may be the one clicked.
    target = js(d, """
        const P = wayfinder.planner, map = wayfinder.map;
        const lines = P.routes.map(r => P.routeLatLngs(r).map(p => map.latLngToContainerPoint(p)));
        const r = document.getElementById('map').getBoundingClientRect(), panel = document.getElementById('panel').getBoundingClientRect();
        let best = null, bestD = -1, bestRoute = -1;
        lines.forEach((a, k) => {
          if (k === 1) return; // the selected route
          const others = lines.filter((_, j) => j !== k);
          for (let i = 1; i < a.length; i++) {
            const m = a[i - 1].add(a[i]).divideBy(2);
            if (m.x < panel.right + 20 || m.x > r.width - 60 || m.y < 20 || m.y > r.height - 20) continue; // on screen, clear of the panel
            let d = Infinity;
            for (const b of others) for (let j = 1; j < b.length; j++) d = Math.min(d, L.LineUtil.pointToSegmentDistance(m, b[j - 1], b[j]));
            if (d > bestD) { bestD = d; best = m; bestRoute = k; }
          }
        });
        return best ? [best.x - r.width / 2, best.y - r.height / 2, bestD, bestRoute] : [0, 0, -1, -1];""")
    check(target[2] > 12, "the alternatives overlap too much to click one on the map")
    clicked = str(int(target[3]))
    print(f"      clicking route {clicked} on the map, {target[2]:.0f} px clear of the others")
    ActionChains(d).move_to_element_with_offset(d.find_element(By.ID, "map"), int(target[0]), int(target[1])).click().perform()
    wait(d, lambda d: data(d, "selectedRoute") == clicked, f"route {clicked} to be selected by clicking its line")
    wait_idle(d)
    check_contrast(d)


# A word that each language's directions use, and what never shows in English ones.
LANGUAGE_WORDS = {"de-DE": ("Sie", "Ziel"), "fr-FR": ("Vous", "sur"), "pt-PT": ("Chegou", "para")}


def flow_l_language(lang):
    """Directions in the browser's language: a new browser told to prefer `lang` plans the same route."""
    def flow(d):
        open_app(d)
        wait(d, lambda d: js(d, "return document.documentElement.lang") not in ("", "en", "en-GB"), "the page to take the browser's language")
        make_route(d)
        texts = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#steps .step-text")]
        check(len(texts) >= 3, f"only {len(texts)} steps listed")
        joined = " ".join(texts)
        words = LANGUAGE_WORDS[lang]
        check(any(w in joined for w in words), f"the steps are not in {lang}: {joined[:200]!r}")
        check("Turn " not in joined and "You have arrived" not in joined, f"English in the {lang} steps: {joined[:200]!r}")
        print(f"      {lang}: {texts[1][:70]!r} … {texts[-1][:50]!r}")
        js(d, "document.getElementById('steps').scrollIntoView({block: 'start'})")
        wait_idle(d)
        shot(d, f"l-directions-{lang}")
    return flow


def flow_b_along(d):
    require_search(d, ("/search/2/searchAlongRoute/restaurant.json?maxDetourTime=600", "POST"))
    btn = d.find_element(By.CSS_SELECTOR, '[data-along="restaurant"]')
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", btn)
    btn.click()
    wait(d, lambda d: data(d, "alongState") in ("ready", "error"), "restaurants along the route")
    check(data(d, "alongState") == "ready", "along-route search failed: " + d.find_element(By.ID, "along-status").text)
    n = int(data(d, "alongCount"))
    check(n > 0, "no restaurant along the route: " + d.find_element(By.ID, "along-status").text)
    wait_idle(d)
    check(count(d, ".wf-poi") + count(d, ".marker-cluster") > 0, "no marker or cluster on the map")
    print(f"      {n} restaurants along the route; {count(d, '.marker-cluster')} clusters, {count(d, '.wf-poi')} single markers")
    shot(d, "b1-restaurants")
    # Open a balloon by clicking a marker (zooming into its cluster first when needed): the place with
    # the longest detour, so that adding it visibly changes the route.
    i = js(d, """const rs = wayfinder.along.results; let best = 0;
        rs.forEach((r, i) => { if ((r.detourTime ?? 0) > (rs[best].detourTime ?? 0)) best = i; });
        wayfinder.along.cluster.zoomToShowLayer(rs[best]._marker, () => {}); return best;""")
    wait(d, lambda d: js(d, "const e = wayfinder.along.results[arguments[0]]._marker.getElement(); return !!(e && e.isConnected);", i),
         "the chosen result's marker to be shown")
    for attempt in range(3):  # markercluster re-creates marker elements while it animates
        wait_idle(d)
        wait(d, lambda d: not js(d, "return !!wayfinder.along.cluster._inZoomAnimation"), "the clusters to settle")
        marker = js(d, "return wayfinder.along.results[arguments[0]]._marker.getElement();", i)
        ActionChains(d).move_to_element(marker).click().perform()
        try:
            wait(d, lambda d: count(d, ".leaflet-popup [data-add-stop]") == 1, "the marker's balloon", timeout=3)
            break
        except Check:
            if attempt == 2:
                raise
    popup = d.find_element(By.CSS_SELECTOR, ".leaflet-popup")
    wait(d, lambda d: popup.find_element(By.CSS_SELECTOR, ".popup-title").text.strip() != "", "the balloon to show a name")
    check("detour" in popup.text or "on your way" in popup.text, "the balloon shows no detour time")
    print("      balloon: " + popup.text.replace(chr(10), " / "))
    shot(d, "b2-balloon")
    check_contrast(d)
    before = route_signature(d)
    popup.find_element(By.CSS_SELECTOR, "[data-add-stop]").click()
    wait(d, lambda d: data(d, "stops") == "1" and data(d, "routeState") == "ready" and route_signature(d) != before,
         "the route to be recalculated through the stop")
    after = route_signature(d)
    print(f"      route before {before[0]} points / {before[1]} m, after {after[0]} points / {after[1]} m")
    check(count(d, ".wf-via") >= 1, "no stop marker")
    check(count(d, ".waypoint-item") == 1, "the stop is not listed in the panel")
    wait_idle(d)
    shot(d, "b3-added-to-route")
    # Gas stations: Monaco has three.
    gas = d.find_element(By.CSS_SELECTOR, '[data-along="gas"]')
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", gas)
    gas.click()
    wait(d, lambda d: data(d, "alongState") in ("ready", "error") and js(d, "return document.querySelector('[data-along=gas]').getAttribute('aria-pressed')") == "true",
         "gas stations along the route")
    n = int(data(d, "alongCount") or 0)
    status = d.find_element(By.ID, "along-status").text
    print(f"      gas stations: {n} ({status})")
    check(n > 0, "no gas station found along the route: " + status)
    wait_idle(d)
    check(count(d, ".wf-poi") + count(d, ".marker-cluster") > 0, "no gas station marker on the map")
    shot(d, "b4-gas-stations")


def flow_d_sea(d):
    # A third long press clears the route (seed 000)...
    check(data(d, "routeState") == "ready", "no route to clear")
    long_press(d, ELSEWHERE)
    wait(d, lambda d: count(d, "path.wf-route-selected") == 0 and count(d, ".wf-pin-from") == 0, "the third long press to clear the map")
    check(data(d, "alongCount") == "0", "the along-route markers stayed after clearing")
    wait_idle(d)
    # ... and a press in the sea says so in plain words.
    long_press(d, SEA)
    wait(d, lambda d: count(d, ".toast.is-error") >= 1, "an error toast")
    text = d.find_element(By.CSS_SELECTOR, ".toast.is-error").text
    check("There is no road near that point" in text, f"unexpected error text: {text!r}")
    check(count(d, ".wf-pin-from") == 0, "a departure was set in the sea")
    check("There is no road near that point" in d.find_element(By.ID, "route-error").text, "the panel does not show the error")
    shot(d, "d1-sea-error")


def flow_f_places(d):
    open_app(d)
    d.find_element(By.ID, "tab-places").click()
    require_search(d, ("/search/2/categorySearch/restaurant.json?lat=43.735&lon=7.42", "GET"))
    d.find_element(By.CSS_SELECTOR, '[data-category="restaurant"]').click()
    wait(d, lambda d: data(d, "placesState") in ("ready", "error"), "restaurants near the map centre")
    check(data(d, "placesState") == "ready", "local search failed: " + d.find_element(By.ID, "places-status").text)
    n = count(d, "#places-list .place")
    check(n > 0, "no place listed")
    check(count(d, "#places-list .place-address") > 0, "no address listed")
    phones = count(d, "#places-list .place-phone a[href^='tel:']")
    print(f"      {n} places, {phones} with phone numbers")
    check(phones > 0, "no phone number listed")
    wait_idle(d)
    shot(d, "f1-places")
    # Directions from my location, with a location granted.
    d.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": BASE})
    d.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": ME[0], "longitude": ME[1], "accuracy": 10})
    d.find_elements(By.CSS_SELECTOR, "[data-directions]")[0].click()
    wait(d, lambda d: data(d, "routeState") in ("ready", "error"), "directions from my location")
    check(data(d, "routeState") == "ready", "directions failed: " + visible_text(d, ".toast, #route-error"))
    check(d.find_element(By.ID, "from-input").get_attribute("value") == "Your location", "the start is not 'Your location'")
    check(js(d, "return document.getElementById('pane-route').hidden") is False, "the route tab is not shown")
    wait_idle(d)
    shot(d, "f2-directions-from-my-location")
    # Location refused: the user picks the start on the map.
    d.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})
    d.execute_cdp_cmd("Browser.resetPermissions", {})
    d.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "denied", "origin": BASE})
    d.find_element(By.ID, "tab-places").click()
    d.find_elements(By.CSS_SELECTOR, "[data-directions]")[-1].click()
    wait(d, lambda d: data(d, "picking") == "1", "the pick-a-point banner")
    check("Tap the map" in d.find_element(By.CSS_SELECTOR, ".pick-banner").text, "the banner does not explain what to do")
    shot(d, "f3-pick-start")
    ox, oy = point_of(d, A)
    ActionChains(d).move_to_element_with_offset(d.find_element(By.ID, "map"), ox, oy).click().perform()
    wait(d, lambda d: data(d, "picking") == "0" and data(d, "routeState") in ("ready", "error"), "the route from the picked point")
    check(data(d, "routeState") == "ready", "directions from a picked point failed: " + visible_text(d, ".toast, #route-error"))
    wait_idle(d)
    shot(d, "f4-directions-from-picked-point")


def flow_e_phone(d):
    open_app(d)
    shot(d, "e1-phone-start")
    touch_long_press(d, A)
    wait(d, lambda d: count(d, ".wf-pin-from") == 1, "the departure marker (touch)")
    wait_idle(d)
    check(count(d, ".wf-pin-to") == 0, "the tap after the touch long press set the destination")
    touch_long_press(d, B)
    wait(d, lambda d: data(d, "routeState") in ("ready", "error"), "the route (touch)")
    check(data(d, "routeState") == "ready", "route failed on the phone: " + visible_text(d, ".toast, #route-error"))
    wait_idle(d)
    check(count(d, "path.wf-route-selected") == 1, "no route polyline on the phone")
    # The attribution stays visible above the bottom sheet.
    attr = d.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution")
    a_rect = js(d, "return arguments[0].getBoundingClientRect().bottom", attr)
    p_rect = js(d, "return document.getElementById('panel').getBoundingClientRect().top")
    check(attr.is_displayed() and a_rect <= p_rect + 1, "the attribution is hidden behind the bottom sheet")
    # The route lies in the part of the map the sheet leaves free.
    free = js(d, """
        const b = wayfinder.map.latLngToContainerPoint(L.latLngBounds(wayfinder.planner.routeLatLngs()).getSouthWest());
        return b.y <= document.getElementById('panel').getBoundingClientRect().top;""")
    check(free, "the route is hidden behind the bottom sheet")
    shot(d, "e2-phone-route")
    require_search(d, ("/search/2/searchAlongRoute/atm.json?maxDetourTime=600", "POST"))
    atm = d.find_element(By.CSS_SELECTOR, '[data-along="atm"]')
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", atm)
    atm.click()
    wait(d, lambda d: data(d, "alongState") in ("ready", "error"), "ATMs along the route (phone)")
    check(int(data(d, "alongCount") or 0) > 0, "no ATM along the route on the phone")
    wait_idle(d)
    shot(d, "e2b-phone-atms")
    d.find_element(By.ID, "sheet-handle").click()
    wait(d, lambda d: "is-expanded" in d.find_element(By.ID, "panel").get_attribute("class"), "the sheet to expand")
    time.sleep(0.3)
    shot(d, "e3-phone-sheet-expanded")
    d.find_element(By.ID, "sheet-handle").click()
    wait(d, lambda d: "is-collapsed" in d.find_element(By.ID, "panel").get_attribute("class"), "the sheet to collapse")
    shot(d, "e4-phone-sheet-collapsed")


def flow_g_chrome(d):
    open_app(d)
    d.find_element(By.ID, "tab-ttl").click()
    check(d.find_element(By.ID, "pane-ttl").is_displayed(), "the Time to leave tab shows nothing")
    check(d.find_element(By.ID, "ttl-form").is_displayed() and d.find_element(By.ID, "ttl-arrive").is_displayed(),
          "the Time to leave tab shows no trip form")
    shot(d, "g1-time-to-leave")
    # Tabs by keyboard (arrow keys), help dialog by keyboard.
    d.find_element(By.ID, "tab-ttl").send_keys(Keys.ARROW_LEFT)
    check(d.find_element(By.ID, "pane-places").is_displayed(), "ArrowLeft did not move to the Places tab")
    d.find_element(By.ID, "tab-places").send_keys(Keys.ARROW_LEFT)
    d.find_element(By.ID, "help-btn").send_keys(Keys.ENTER)
    wait(d, lambda d: js(d, "return document.getElementById('help-dialog').open"), "the help dialog")
    shot(d, "g2-help")
    d.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(d, lambda d: not js(d, "return document.getElementById('help-dialog').open"), "Escape to close the help dialog")
    # The map by keyboard: Enter sets a point at the crosshair (here: the map centred on A).
    js(d, "wayfinder.map.setView([arguments[0], arguments[1]], 17, {animate: false})", *A)
    d.find_element(By.ID, "tab-route").click()
    m = d.find_element(By.ID, "map")
    m.send_keys(Keys.ARROW_UP)    # focuses the map and pans it a little, as keyboard users do
    js(d, "wayfinder.map.setView([arguments[0], arguments[1]], 17, {animate: false})", *A)
    check(js(d, "return getComputedStyle(document.querySelector('.crosshair')).display") == "block",
          "no crosshair while the map has the keyboard focus")
    shot(d, "g3-keyboard-crosshair")
    m.send_keys(Keys.ENTER)
    wait(d, lambda d: count(d, ".wf-pin-from") == 1, "Enter on the map to set the starting point")
    check_contrast(d)
    unnamed = js(d, """
        return [...document.querySelectorAll('button, a[href], input, select, [role=button]')]
          .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim() || e.labels?.length || e.getAttribute('title')))
          .map(e => e.outerHTML.slice(0, 80));""")
    check(not unnamed, f"controls without an accessible name: {unnamed}")


def flow_h_keyboard(d):
    open_app(d)
    require_search(d, ("/search/2/search/casino.json?typeahead=true", "GET"))
    fr = d.find_element(By.ID, "from-input")
    fr.click()
    fr.send_keys("casino")
    wait(d, lambda d: count(d, "#from-suggestions li[data-i]") >= 2, "suggestions for the starting point")
    check(fr.get_attribute("aria-expanded") == "true", "the combobox does not say it is expanded")
    shot(d, "h1-typeahead")
    fr.send_keys(Keys.ENTER)
    wait(d, lambda d: count(d, ".wf-pin-from") == 1, "the starting point from a suggestion")
    to = d.find_element(By.ID, "to-input")
    to.click()
    to.send_keys("stade louis")
    wait(d, lambda d: count(d, "#to-suggestions li[data-i]") >= 2, "suggestions for the destination")
    to.send_keys(Keys.ENTER)
    wait(d, lambda d: data(d, "routeState") in ("ready", "error"), "the route from typed places")
    check(data(d, "routeState") == "ready", "route failed: " + visible_text(d, ".toast, #route-error"))
    check("asino" in fr.get_attribute("value"), f"unexpected start {fr.get_attribute('value')!r}")
    print(f"      {fr.get_attribute('value')} -> {to.get_attribute('value')}: "
          + d.find_element(By.CSS_SELECTOR, '.alt[aria-pressed="true"] [data-testid="distance"]').text)
    # Travel mode with the arrow keys (radio group), route type with the select.
    d.find_element(By.CSS_SELECTOR, 'input[name="mode"][value="car"]').send_keys(Keys.ARROW_LEFT)  # wraps to Walk
    wait(d, lambda d: data(d, "routeMode") == "pedestrian/fastest" and data(d, "routeState") == "ready", "the walking route")
    Select(d.find_element(By.ID, "route-type")).select_by_value("shortest")
    wait(d, lambda d: data(d, "routeMode") == "pedestrian/shortest" and data(d, "routeState") == "ready", "the shortest walking route")
    check(count(d, ".alt-traffic") == 0, "traffic delays shown for a walk")
    wait_idle(d)
    shot(d, "h2-walk-shortest")
    # By bike, Monaco's stairs and footways come with an advisory notice ("walking your bicycle").
    d.find_element(By.CSS_SELECTOR, 'input[name="mode"][value="pedestrian"]').send_keys(Keys.ARROW_LEFT)
    wait(d, lambda d: data(d, "routeMode") == "bicycle/shortest" and data(d, "routeState") == "ready", "the cycling route")
    notices = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#notices li") if e.is_displayed()]
    print(f"      advisory notices by bike: {notices}")
    check(notices, "the advisory notices of the cycling route are not shown")
    wait_idle(d)
    shot(d, "h3-bike-notice")


def flow_r_reach(d):
    open_app(d)
    d.find_element(By.ID, "tab-reach").click()
    wait(d, lambda d: data(d, "tab") == "reach", "the Reach tab")
    long_press(d, A)
    wait(d, lambda d: (data(d, "reachContours") or "0") != "0", "the isochrones")
    wait_idle(d)
    check(data(d, "reachContours") == "3", f"expected 3 contours (a third, two thirds, all), got {data(d, 'reachContours')}")
    check(count(d, "#reach-legend li") == 3, "the legend lists the contours")
    check(count(d, "path.leaflet-interactive") >= 3, "no contour drawn on the map")
    legend = visible_text(d, "#reach-legend")
    check("within 15 min" in legend, f"the legend does not name the budget ({legend!r})")
    shot(d, "r1-reach-15min")
    # Moving the slider redraws the contours for the new budget.
    js(d, "const s = document.getElementById('reach-value'); s.value = '5'; s.dispatchEvent(new Event('input'));")
    wait(d, lambda d: "within 5 min" in visible_text(d, "#reach-legend"), "the contours for 5 minutes")
    shot(d, "r2-reach-5min")
    Select(d.find_element(By.ID, "reach-kind")).select_by_value("distance")
    wait(d, lambda d: " km" in visible_text(d, "#reach-legend"), "the contours in km")
    shot(d, "r3-reach-km")
    long_press(d, SEA)
    wait(d, lambda d: d.find_element(By.ID, "reach-error").is_displayed(), "an error for a point in the sea")
    check("road" in visible_text(d, "#reach-error"), f"the error does not say why ({visible_text(d, '#reach-error')!r})")


def flow_i_loading(d):
    open_app(d)
    d.execute_cdp_cmd("Network.enable", {})
    d.execute_cdp_cmd("Network.emulateNetworkConditions",
                      {"offline": False, "latency": 1200, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        long_press(d, A)
        wait(d, lambda d: count(d, ".wf-pin.is-pending") == 1, "the pending marker while the address loads")
        wait(d, lambda d: count(d, ".wf-pin-from") == 1, "the departure marker")
        wait_idle(d)
        long_press(d, B)
        wait(d, lambda d: data(d, "routeState") == "loading", "the route request to start")
        check(d.find_element(By.ID, "route-loading").is_displayed(), "no loading message in the panel")
        check("is-busy" in d.find_element(By.TAG_NAME, "body").get_attribute("class"), "no loading bar")
        check(d.find_element(By.ID, "panel").get_attribute("aria-busy") == "true", "the panel is not marked busy")
        shot(d, "i1-loading")
        wait(d, lambda d: data(d, "routeState") == "ready", "the route on a slow network", timeout=20)
        check(not d.find_element(By.ID, "route-loading").is_displayed(), "the loading message stayed")
    finally:
        d.execute_cdp_cmd("Network.emulateNetworkConditions",
                          {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})



# ---- time to leave ------------------------------------------------------------------------------------

# One trip per sample. "from"/"to" are typed into the typeahead (or "me": "Your location" from an
# emulated GPS fix there); "at" is where the chosen suggestion must lie: run.sh builds the replay
# that jams the route from those coordinates (flows.py --ttl-trip).
TTL_TRIPS = {
    "monaco": {
        "from": "place du casino", "from_at": (43.739361, 7.4276514),
        "to": "stade louis", "to_at": (43.7275807, 7.4155223),
        "mode": "taxi", "type": "eco", "prep": "300",
    },
    "helsinki": {
        "me": (60.16944, 24.93593),   # by Kamppi chapel
        "to": "senaatintori", "to_at": (60.1695087, 24.9522732),
        "mode": "car", "type": "shortest", "prep": "600",
    },
}
TTL_LEAD_MINUTES = 6      # the countdown the flow asks for (server minutes; 12 s at --clock-speed 30)


def ttl_trip(source):
    key = next((k for k in TTL_TRIPS if k in source.lower()), None)
    return key, TTL_TRIPS.get(key)


TTL_REPLAY_PERIOD = 180   # server seconds: the route is clear for 120 s, then jammed for 60 s, and again
TTL_REPLAY_JAM_AT = 120


def ttl_replay(path_in, path_out, until=7200.0, share=0.5, factor=0.5):
    """From `wayfinder leave --make-replay` (every segment of the route jammed at +30 s, back to its
    usual speed at +150 s): the first `share` of the route's segments at `factor` of their usual
    speed from TTL_REPLAY_JAM_AT to TTL_REPLAY_PERIOD of every period, at their usual speed the rest
    of it, from the server's start to `until` (server clock). Each switch moves the departure by a
    minute or two."""
    jam, clear = [], []
    with open(path_in) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) != 4 or not parts[0].replace(".", "").isdigit():
                continue
            (jam if float(parts[0]) < 100 else clear).append((parts[1], parts[2], float(parts[3])))
    usual = {(a, b): v for a, b, v in clear}
    segments = [(a, b) for a, b, _ in jam][:max(1, int(len(jam) * share))]
    rows = []
    t = 0.0
    while t < until:
        for a, b in segments:
            rows.append((t + TTL_REPLAY_JAM_AT, a, b, max(3.0, round(usual.get((a, b), 30.0) * factor, 1))))
            rows.append((t + TTL_REPLAY_PERIOD, a, b, usual.get((a, b), 30.0)))
        t += TTL_REPLAY_PERIOD
    with open(path_out, "w") as f:
        f.write("offset_seconds,from_osm_node_id,to_osm_node_id,speed_kmh\n")
        for off, a, b, v in rows:
            f.write(f"{off:g},{a},{b},{v:g}\n")
    return len(segments), len(rows)


def replay_jammed(d):
    """Whether the replay's newest update jams the route (its source ends "@ +OFFSET s")."""
    sources = d.execute_async_script("""
        fetch('/traffic/1/status').then(r => r.json()).then(j => arguments[0]((j.updates || []).map(u => u.source)))
          .catch(() => arguments[0]([]));""")
    offsets = [int(m.group(1)) for m in (re.search(r"@ \+(\d+) s", src) for src in sources) if m]
    return bool(offsets) and max(offsets) % TTL_REPLAY_PERIOD == TTL_REPLAY_JAM_AT


def wait_for_clear_road(d):
    """Waits until the replay has just cleared the route, so that the watch is planned on it (a
    watch made during a jam may take another road, which the replay leaves alone)."""
    period = TTL_REPLAY_PERIOD / CLOCK_SPEED
    wait(d, lambda d: replay_jammed(d), "the replay to jam the route", timeout=period + 10)
    wait(d, lambda d: not replay_jammed(d), "the replay to clear the route", timeout=period + 10)


def server_clock(d, trip):
    """[server now (epoch s), RFC 3339 now, travel seconds now], from a route request to the server
    (its summary's departureTime is the server's clock when no departure time is given)."""
    frm, to = trip.get("from_at") or trip["me"], trip["to_at"]
    got = d.execute_async_script("""
        const [a, b, mode, type, done] = arguments;
        fetch(`/routing/1/calculateRoute/${a[0]},${a[1]}:${b[0]},${b[1]}/json?travelMode=${mode}&routeType=${type}&traffic=true`)
          .then(r => r.json()).then(j => { const s = j.routes[0].summary;
            done([Date.parse(s.departureTime) / 1000, s.departureTime, s.travelTimeInSeconds]); })
          .catch(e => done([0, String(e), 0]));""", list(frm), list(to), trip["mode"], trip["type"])
    check(got[0] > 0, f"no route for the trip: {got[1]}")
    return got


def http_status(d, path):
    return d.execute_async_script("fetch(arguments[0]).then(r => arguments[1](r.status)).catch(() => arguments[1](0));", path)


def set_arrival(d, epoch, offset_text):
    """Types HH:MM into the arrival box and picks the day, both in the dataset's time zone (the
    offset of the server's RFC 3339 times)."""
    sign = -1 if offset_text[0] == "-" else 1
    hh, mm = offset_text[1:].split(":")
    offset = sign * (int(hh) * 3600 + int(mm) * 60)
    local = time.gmtime(epoch + offset)
    today = time.gmtime(time.time() + offset)  # the browser's "Today" is the device's date there
    day = (time.mktime(local[:3] + (0, 0, 0, 0, 0, 0)) - time.mktime(today[:3] + (0, 0, 0, 0, 0, 0))) // 86400
    check(day in (0, 1), f"the arrival falls {day} days from today")
    Select(d.find_element(By.ID, "ttl-day")).select_by_value(str(int(day)))
    box = d.find_element(By.ID, "ttl-arrive")
    box.click()
    box.send_keys(f"{local.tm_hour:02d}{local.tm_min:02d}")
    want = f"{local.tm_hour:02d}:{local.tm_min:02d}"
    if box.get_attribute("value") != want:  # a time box that takes keys another way: set it as a script would
        js(d, "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", box, want)
    check(box.get_attribute("value") == want, f"the arrival box shows {box.get_attribute('value')!r}, not {want}")
    return want


def pick_place(d, role, trip, ds):
    """Fills the departure or destination box as a person would; returns the place's lat/lon."""
    box = d.find_element(By.ID, f"ttl-{role}-input")
    box.click()
    if role == "from" and "me" in trip:
        wait(d, lambda d: "Your location" in visible_text(d, "#ttl-from-suggestions"), '"Your location" in the suggestions')
        d.find_element(By.XPATH, "//ul[@id='ttl-from-suggestions']/li[.//span[text()='Your location']]").click()
        expected = trip["me"]
    else:
        query = trip[role]
        box.send_keys(query[:2])
        wait(d, lambda d: "at least 3 characters" in visible_text(d, f"#ttl-{role}-suggestions"),
             "the typeahead to ask for 3 characters")
        check(count(d, f"#ttl-{role}-suggestions li[data-i]") <= 1, "suggestions after only 2 characters")
        box.send_keys(query[2:])
        wait(d, lambda d: count(d, f"#ttl-{role}-suggestions li[data-i]") >= 2, f"suggestions for {query!r}")
        if role == "from" or "me" in trip:
            shot(d, f"t2-{ds}-typeahead")
        box.send_keys(Keys.ENTER)
        expected = trip[f"{role}_at"]
    wait(d, lambda d: js(d, f"return !!wayfinder.ttl.{role}"), f"the {role} place to be set")
    got = js(d, f"const p = wayfinder.ttl.{role}; return [p.latlng.lat, p.latlng.lng, p.label];")
    dist = math.hypot((got[0] - expected[0]) * 111_320, (got[1] - expected[1]) * 111_320 * math.cos(math.radians(expected[0])))
    print(f"      {role}: {got[2]} ({got[0]:.5f}, {got[1]:.5f})")
    check(dist < 80, f"the {role} place {got[2]!r} is {dist:.0f} m from where the replay jams the route")
    return got


def flow_t_time_to_leave(d, source):
    ds, trip = ttl_trip(source)
    check(trip is not None, f"no time-to-leave trip for {source!r}")
    check(CLOCK_SPEED >= 10, "the time-to-leave server's clock must run fast (serve --clock-speed; run.sh does it)")
    open_app(d)
    if "me" in trip:
        d.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": BASE})
        d.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": trip["me"][0], "longitude": trip["me"][1], "accuracy": 10})
    d.find_element(By.ID, "tab-ttl").click()
    check(d.find_element(By.ID, "ttl-form").is_displayed(), "the Time to leave form is not shown")
    wait_idle(d)
    shot(d, f"t1-{ds}-form")
    pick_place(d, "from", trip, ds)
    pick_place(d, "to", trip, ds)
    d.find_element(By.CSS_SELECTOR, f'input[name="ttl-mode"][value="{trip["mode"]}"]').find_element(By.XPATH, "..").click()
    Select(d.find_element(By.ID, "ttl-route-type")).select_by_value(trip["type"])
    Select(d.find_element(By.ID, "ttl-prep")).select_by_value(trip["prep"])

    # An arrival time that has passed: the seed's message, and why in plain words.
    now, now_text, travel = server_clock(d, trip)
    past = set_arrival(d, now - 20 * 60, now_text[-6:])
    d.find_element(By.ID, "ttl-start").click()
    wait(d, lambda d: data(d, "ttlError") == "1", "the error for an arrival time that has passed")
    text = d.find_element(By.ID, "ttl-error").text
    print(f"      arrive by {past}: {text!r}")
    check("No routes found satisfying requested time. Please choose different arrival time and try again." in text,
          "the seed's message is not shown")
    check("has already passed" in text and past in text, "the error does not say the arrival time has passed")
    check(data(d, "ttlState") == "form", "a countdown started for an arrival in the past")
    wait_idle(d)
    shot(d, f"t3-{ds}-arrival-passed")

    # The trip: leave in about TTL_LEAD_MINUTES (server time), planned while the road is clear.
    wait_for_clear_road(d)
    now, now_text, travel = server_clock(d, trip)
    arrive = set_arrival(d, math.ceil((now + TTL_LEAD_MINUTES * 60 + travel) / 60) * 60, now_text[-6:])
    t0 = time.time()
    d.find_element(By.ID, "ttl-start").click()
    wait(d, lambda d: data(d, "ttlState") == "watch", "the countdown")
    check(not d.find_element(By.ID, "ttl-error").is_displayed(), "an error was shown: " + d.find_element(By.ID, "ttl-error").text)
    wait(d, lambda d: count(d, "path.wf-ttl-route") == 1 and count(d, ".wf-ttl-from") == 1 and count(d, ".wf-ttl-to") == 1,
         "the route and its ends on the map")
    clock = d.find_element(By.ID, "ttl-clock").text
    tt, delay, dist = (d.find_element(By.ID, i).text for i in ("ttl-travel", "ttl-delay", "ttl-distance"))
    print(f"      arrive by {arrive}: leave in {clock}; travel {tt}, traffic delay {delay}, {dist}; "
          + d.find_element(By.ID, "ttl-leave-at").text)
    check(re.fullmatch(r"\d+:\d\d(:\d\d)?", clock), f"the countdown shows {clock!r}")
    check("min" in tt, f"no travel time ({tt!r})")
    check(delay == "None" or delay.startswith("+"), f"no traffic delay ({delay!r})")
    check(any(u in dist for u in (" km", " m")), f"no distance ({dist!r})")
    check(arrive in d.find_element(By.ID, "ttl-leave-at").text, "the arrival time is not shown")
    check("getting ready" in d.find_element(By.ID, "ttl-ready-at").text, "the time to get ready is not shown")
    wait_idle(d)
    shot(d, f"t4-{ds}-countdown")
    # The same countdown on a phone-sized window (the panel becomes a bottom sheet).
    size = d.get_window_size()
    d.set_window_size(390, 844)
    wait(d, lambda d: js(d, "return window.innerWidth") <= 400, "the phone-sized window")
    js(d, "wayfinder.ttl.drawRoute({fit: true})")
    wait_idle(d)
    check(d.find_element(By.ID, "ttl-clock").is_displayed(), "the countdown is not visible on a phone")
    shot(d, f"t4b-{ds}-phone-countdown")
    d.set_window_size(size["width"], size["height"])
    wait(d, lambda d: js(d, "return window.innerWidth") > 1000, "the desktop-sized window")
    js(d, "wayfinder.ttl.drawRoute({fit: true})")

    # The replay jams (or clears) the route: the seed's toast.
    lead = TTL_LEAD_MINUTES * 60 / CLOCK_SPEED
    traffic_toasts = lambda d: js(d, """return [...document.querySelectorAll('.toast[data-kind="traffic"]')]
        .map(e => e.innerText).join(' | ')""")
    wait(d, lambda d: "Route recalculated due to change in traffic:" in traffic_toasts(d), "a traffic change toast", timeout=lead + 10)
    toast_text = traffic_toasts(d).replace("\n", " / ")
    print(f"      toast after {time.time() - t0:.1f}s: {toast_text}")
    check(re.search(r"Route recalculated due to change in traffic: -?\d+ sec", toast_text), "the toast is not in the seed's words")
    check(re.search(r"Leave .* earlier|leave .* later", toast_text), "the toast does not say what to do")
    shot(d, f"t5-{ds}-traffic-change")
    # A reload picks the countdown up again (the watch lives on the server).
    d.refresh()
    wait(d, lambda d: js(d, "return document.body.dataset.ready === '1'"), "the app to start again")
    wait(d, lambda d: data(d, "ttlState") == "watch" and d.find_element(By.ID, "pane-ttl").is_displayed(),
         "the countdown to resume after a reload")
    check(count(d, "path.wf-ttl-route") == 1, "no route on the map after a reload")

    # Zero: "Time's UP! Time to leave!"
    wait(d, lambda d: js(d, "return document.getElementById('ttl-alarm').open"), "the Time's UP! dialog", timeout=lead + 30)
    print(f"      Time's UP! after {time.time() - t0:.1f}s ({data(d, 'ttlTrafficChanges') or 0} traffic changes)")
    alarm = d.find_element(By.ID, "ttl-alarm")
    check("Time's UP!" in alarm.text and "Time to leave!" in alarm.text, f"the dialog says {alarm.text!r}")
    check({"Whatever", "On My Way!"} <= {b.text for b in alarm.find_elements(By.TAG_NAME, "button")}, "the dialog's buttons are missing")
    shot(d, f"t6-{ds}-times-up")
    # "Whatever": how late leaving now makes it.
    d.find_element(By.ID, "ttl-whatever").click()
    wait(d, lambda d: js(d, "return document.getElementById('ttl-late').open"), "the how-late dialog")
    wait(d, lambda d: int(data(d, "ttlLateSeconds") or 0) >= 60, "the lateness to count up")
    late = d.find_element(By.ID, "ttl-late")
    print("      Whatever: " + late.text.replace("\n", " / "))
    check("late" in d.find_element(By.ID, "ttl-late-by").text, "the dialog does not say how late")
    check(arrive in d.find_element(By.ID, "ttl-late-text").text, "the dialog does not compare with the arrival time")
    shot(d, f"t7-{ds}-whatever-late")
    # "On My Way!": the dialogs go, the countdown ends, the watch is deleted.
    watch_id = js(d, "return wayfinder.ttl.watch.id")
    d.find_element(By.ID, "ttl-late-go").click()
    wait(d, lambda d: data(d, "ttlState") == "done" and not js(d, "return document.getElementById('ttl-late').open"),
         "On My Way! to close the dialog")
    check("safe travels" in d.find_element(By.ID, "ttl-card").text.lower(), "no Safe travels")
    wait(d, lambda d: http_status(d, f"/timetoleave/1/watches/{watch_id}") == 404, "the watch to be deleted")
    wait_idle(d)
    shot(d, f"t8-{ds}-on-my-way")
    check_contrast(d)

# ---- runner -----------------------------------------------------------------------------------------

def flow_k_api_key(d, key):
    """Against `serve --api-keys`: /?key=… carries the key on every tile and request; without it the
    app says what is wrong instead of failing silently."""
    d.get(BASE + "/?key=" + key)
    wait(d, lambda d: js(d, "return document.body.dataset.ready === '1'"), "the app to start with a key")
    wait(d, lambda d: count(d, ".leaflet-tile-loaded") >= 4, "base map tiles to load with the key")
    make_route(d)
    check(data(d, "routeState") == "ready", "no route with a valid key: " + visible_text(d, ".toast, #route-error"))
    shot(d, "k1-with-key")
    d.get(BASE + "/")
    wait(d, lambda d: js(d, "return document.body.dataset.ready === '1'"), "the app to start without a key")
    text = visible_text(d, ".toast")
    check("api key" in text.lower() and "?key=" in text, f"no word at start-up that the server needs a key: {text!r}")
    check("API key" in d.find_element(By.ID, "server-status").text, "the status line does not say a key is needed")
    print(f"      without a key: {text[:120]!r}")
    shot(d, "k2-without-key")


def console_errors(d):
    bad = []
    for e in d.get_log("browser"):
        if e.get("level") != "SEVERE":
            continue
        msg = e.get("message", "")
        # 4xx answers the app asked for on purpose (no road, endpoints not there yet) are not page errors.
        if "status of 400" in msg or "status of 404" in msg or (FLOWS == "keys" and "status of 403" in msg):
            continue
        bad.append(msg)
    return bad


def main():
    results = []

    def run(name, fn, d):
        t0 = time.time()
        try:
            fn(d)
            results.append((name, "PASS", ""))
        except Exception as e:  # noqa: BLE001 - report every failure, keep going
            msg = str(e) if isinstance(e, Check) else "".join(traceback.format_exception_only(type(e), e)).strip()
            results.append((name, "FAIL", msg))
            try:
                shot(d, f"FAILED-{name.split()[0]}")
            except Exception:
                pass
        print(f"  {results[-1][1]:5} {name} ({time.time() - t0:.1f}s){(': ' + results[-1][2]) if results[-1][2] else ''}", flush=True)

    import json
    import urllib.request
    os.makedirs(SHOTS, exist_ok=True)
    with urllib.request.urlopen(BASE + "/health", timeout=10) as r:
        source = json.load(r).get("source", "")
    if FLOWS == "ttl":
        print(f"Wayfinder time-to-leave flow against {BASE} ({source}, clock at {CLOCK_SPEED:g}x); screenshots in {SHOTS}", flush=True)
        d = chrome()
        try:
            run(f"t  time to leave on {ttl_trip(source)[0] or source}", lambda d: flow_t_time_to_leave(d, source), d)
            errs = console_errors(d)
            results.append(("console has no errors (time to leave)", "FAIL" if errs else "PASS", "; ".join(errs)[:400]))
            print(f"  {results[-1][1]:5} console has no errors{(': ' + results[-1][2]) if errs else ''}")
        finally:
            d.quit()
        return summary(results)
    if FLOWS == "keys":
        key = os.environ["WAYFINDER_API_KEY"]
        print(f"Wayfinder API-key flow against {BASE} ({source})", flush=True)
        d = chrome()
        try:
            run("k  API keys: carried with ?key=, refused without", lambda d: flow_k_api_key(d, key), d)
        finally:
            d.quit()
        return summary(results)
    if "monaco" not in source.lower():
        print(f"error: the flows use places in Monaco, but the server has {source!r}; "
              "give run.sh a Monaco dataset (or none: it imports the sample)", file=sys.stderr)
        return 2
    print(f"Wayfinder browser flows against {BASE}; screenshots in {SHOTS}", flush=True)
    d = chrome()
    try:
        run("a  long press twice draws a route", flow_a_route, d)
        if results[-1][1] == "PASS":
            run("c  directions: steps, highlight, alternatives", flow_c_directions, d)
            run("b  search along the route, add to my route", flow_b_along, d)
            if data(d, "routeState") != "ready":
                open_app(d)
                make_route(d)
            run("d  a point in the sea", flow_d_sea, d)
        run("f  local search, directions from my location", flow_f_places, d)
        run("g  time to leave tab, keyboard, accessible names", flow_g_chrome, d)
        run("h  keyboard: typeahead, travel mode, route type", flow_h_keyboard, d)
        run("i  loading indicator on a slow network", flow_i_loading, d)
        run("r  reach: isochrones from a long press, slider, km, sea", flow_r_reach, d)
        errs = console_errors(d)
        results.append(("console has no errors", "FAIL" if errs else "PASS", "; ".join(errs)[:400]))
        print(f"  {results[-1][1]:5} console has no errors{(': ' + results[-1][2]) if errs else ''}")
    finally:
        d.quit()
    d = chrome(phone=True)
    try:
        run("e  phone-sized viewport, touch", flow_e_phone, d)
    finally:
        d.quit()
    for lang in LANGUAGE_WORDS:
        d = chrome(lang=lang)
        try:
            run(f"l  directions in the browser's language ({lang})", flow_l_language(lang), d)
        finally:
            d.quit()

    return summary(results)


def summary(results):
    failed = [r for r in results if r[1] == "FAIL"]
    print(f"\n{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--ttl-trip":
        name, trip = ttl_trip(sys.argv[2])
        if not trip:
            print(f"no time-to-leave trip for {sys.argv[2]!r} (flows.py knows {', '.join(TTL_TRIPS)})", file=sys.stderr)
            sys.exit(2)
        frm = trip.get("from_at") or trip["me"]
        print(f"{frm[0]},{frm[1]} {trip['to_at'][0]},{trip['to_at'][1]} {trip['mode']} {trip['type']}")
        sys.exit(0)
    if len(sys.argv) == 4 and sys.argv[1] == "--ttl-replay":
        segments, rows = ttl_replay(sys.argv[2], sys.argv[3])
        print(f"{segments} road segments jammed and cleared in turn ({rows} rows)")
        sys.exit(0)
    sys.exit(main())
