// Wayfinder web app: wires the map, the route planner, search along the route and local search.
//
//   js/api.js      the HTTP API (TomTom-shaped routing and search) and errors in plain words
//   js/mapview.js  Leaflet map, long press / right-click, fitting, marker icons, first view
//   js/route.js    departure, destination, stops, alternatives, directions panel
//   js/along.js    search along the route (clustered markers, "Add to my route")
//   js/places.js   local search list, "Directions from my location", geolocation
//   js/suggest.js  typeahead for the starting point and destination boxes
//   js/ttl.js      time to leave: the trip form, the countdown, traffic toasts, "Time's UP!"
//   js/ui.js       loading indicator, toasts, tabs, bottom sheet, help dialog

import * as api from "./js/api.js";
import { $, toast, initTabs, initSheet, initHelp, sheet } from "./js/ui.js";
import { createMap, installPressHandlers, addLocateControl, showDataset, rememberView, syncPopupPadding, icons } from "./js/mapview.js";
import { Planner, describePoint } from "./js/route.js";
import { AlongRoute } from "./js/along.js";
import { Places, locate } from "./js/places.js";
import { attachSuggest } from "./js/suggest.js";
import { TimeToLeave } from "./js/ttl.js";

/* global L */

const map = createMap($("#map"));
const planner = new Planner(map);
const along = new AlongRoute(map, planner);
const places = new Places(map, { directions: directionsFromMyLocation });
const ttl = new TimeToLeave(map, { checkPlace: checkedPlace, showMe: (latlng) => showMe(latlng) });
const tabs = initTabs((name) => {
  // The route planner's lines and markers stay out of the way of a trip being timed (CSS).
  document.body.dataset.tab = name;
  if (name === "ttl") map.closePopup();
  places.setVisible(name === "places");
  ttl.setVisible(name === "ttl");
  if (sheet.isPhone() && sheet.state() === "collapsed") sheet.set("normal");
});
places.setVisible(false);
initSheet(() => { map.invalidateSize({ pan: false }); syncPopupPadding(map); });
initHelp();

// ---- presses on the map ---------------------------------------------------------------------------

let pressChain = Promise.resolve();
let picking = null; // {resolve} while waiting for the user to pick a starting point

installPressHandlers(map, {
  onLongPress: (latlng) => {
    if (picking) { picking.resolve(latlng); return; }
    if (document.body.dataset.tab === "ttl") {
      pressChain = pressChain.then(() => ttl.press(latlng)).catch((e) => console.error(e));
      return;
    }
    pressChain = pressChain.then(() => handlePress(latlng)).catch((e) => console.error(e));
  },
  onClick: (latlng) => { if (picking) picking.resolve(latlng); },
});

/** First press: departure; second: destination and route; third: clear (seed 000). */
async function handlePress(latlng) {
  if (planner.from && planner.to) {
    clearEverything();
    toast("Route cleared. Press and hold the map (or right-click) to start a new one.", { timeout: 3500 });
    return;
  }
  const role = planner.from ? "to" : "from";
  const place = await checkedPlace(latlng);
  if (!place) return;
  if (role === "to") map.closePopup(); // the departure balloon has done its job
  planner.setEndpoint(role, place);
  if (role === "from") planner.markers.from?.openPopup();
}

/** Reverse-geocodes a pressed point, after checking that it is near a road. Null if it isn't. */
async function checkedPlace(latlng) {
  const pending = L.marker(latlng, { icon: icons.pending(), interactive: false, keyboard: false }).addTo(map);
  const [near, named] = await Promise.all([
    api.nearest(latlng, planner.options().mode).catch((e) => e),
    describePoint(latlng),
  ]);
  pending.remove();
  if (near instanceof api.ApiError && (near.code === "NoSegment" || near.code === "NoRoute")) {
    const text = "There is no road near that point. Choose a point closer to a street.";
    planner.showError(text);
    toast(text, { kind: "error", title: "Can't start or end there" });
    document.body.dataset.pressError = "no-road";
    return null;
  }
  planner.showError("");
  document.body.dataset.pressError = "";
  return { latlng, ...named };
}

function clearEverything() {
  pressChain = Promise.resolve();
  stopPicking();
  map.closePopup();
  planner.clearAll();
  along.clear();
  places.clear();
  meMarker?.remove();
  meMarker = null;
  $("#along-input").value = "";
}
$("#clear-btn").addEventListener("click", () => { clearEverything(); toast("Cleared.", { timeout: 2000 }); });

// ---- the user's location --------------------------------------------------------------------------

let meMarker = null;
function showMe(latlng) {
  meMarker?.remove();
  meMarker = L.marker(latlng, { icon: icons.me(), interactive: false, keyboard: false, zIndexOffset: 500 }).addTo(map);
}

addLocateControl(map, async () => {
  try {
    const me = await locate();
    showMe(me);
    map.setView(me, Math.max(map.getZoom(), 16));
  } catch (e) {
    toast(e.message, { kind: "error", title: "Location" });
  }
});

/** "Directions from my location" (seed 002), falling back to a point the user picks on the map. */
async function directionsFromMyLocation(place) {
  stopPicking();
  tabs.show("route");
  map.closePopup();
  planner.clearAll();
  planner.setEndpoint("to", place, { calculate: false });
  let me = null, why = "";
  try {
    me = await locate();
    const near = await api.nearest(me, planner.options().mode).catch((e) => e);
    if (near instanceof api.ApiError && near.code === "NoSegment") { why = "You're outside the area this map covers."; me = null; }
  } catch (e) {
    why = e.message;
    meMarker?.remove();
    meMarker = null;
  }
  if (me) {
    showMe(me);
    planner.setEndpoint("from", { latlng: me, label: "Your location", sub: "" });
    return;
  }
  // No usable location: the user taps the starting point (again, if the first tap is off the roads).
  let message = `${why} Tap the map where you're starting from.`;
  for (;;) {
    const start = await pickPoint(message);
    if (!start) return;
    const from = await checkedPlace(start);
    if (from) { planner.setEndpoint("from", from); return; }
    message = "Tap the map closer to a street to start from there.";
  }
}

function pickPoint(message) {
  stopPicking();
  return new Promise((resolve) => {
    document.body.classList.add("is-picking");
    document.body.dataset.picking = "1";
    const banner = document.createElement("div");
    banner.className = "pick-banner";
    banner.setAttribute("role", "status");
    banner.innerHTML = `<span></span><button type="button">Cancel</button>`;
    banner.querySelector("span").textContent = message;
    banner.querySelector("button").addEventListener("click", () => finish(null));
    document.body.appendChild(banner);
    if (sheet.isPhone()) sheet.set("collapsed");
    function finish(latlng) {
      banner.remove();
      document.body.classList.remove("is-picking");
      document.body.dataset.picking = "0";
      picking = null;
      if (sheet.isPhone()) sheet.set("normal");
      resolve(latlng);
    }
    picking = { resolve: finish };
  });
}
function stopPicking() { picking?.resolve(null); }

// ---- typeahead boxes ------------------------------------------------------------------------------

for (const role of ["from", "to"]) {
  attachSuggest($(`#${role}-input`), $(`#${role}-suggestions`), {
    map,
    currentLabel: () => planner[role]?.label,
    onPick: (place) => planner.setEndpoint(role, place),
    onMyLocation: async () => {
      try {
        const me = await locate();
        showMe(me);
        planner.setEndpoint(role, { latlng: me, label: "Your location", sub: "" });
      } catch (e) {
        toast(`${e.message} Right-click or press and hold the map to choose a point instead.`, { kind: "error", title: "Location" });
      }
    },
  });
}

// ---- start-up ---------------------------------------------------------------------------------------

async function start() {
  let health = null;
  try {
    health = await api.health();
    api.chooseLanguage(health.instructionLanguages);
    const source = String(health.source || "").replace(/\.osm\.pbf$|\.pbf$/i, "");
    $("#dataset-name").textContent = source ? source.charAt(0).toUpperCase() + source.slice(1) : "";
    const status = $("#server-status");
    status.classList.add("is-ok");
    status.textContent = `Connected · ${health.source || "dataset"}${health.timeZone ? ` · ${health.timeZone}` : ""}`;
    if (health.apiKeyRequired && !api.hasKey()) {
      status.textContent = `Connected · ${health.source || "dataset"} · needs an API key`;
      toast("This server needs an API key: open the map as /?key=YOUR_KEY.", { kind: "error", title: "API key", timeout: 0 });
    }
  } catch (e) {
    const status = $("#server-status");
    status.classList.add("is-down");
    status.textContent = "Server unreachable";
    toast(api.friendly(e), { kind: "error", title: "Offline" });
  }
  const how = showDataset(map, health);
  if (how === "world") toast("Zoom in to the area your server covers, then right-click or press and hold to plan a route.", { timeout: 8000 });
  rememberView(map, health);
  ttl.setTimeZone(health?.timeZone);
  if (await ttl.resume()) tabs.show("ttl"); // a countdown left running in this browser
  document.body.dataset.ready = "1";
  document.body.dataset.view = how;
}
start();

// For the browser tests and for poking around in the console.
window.wayfinder = { map, planner, along, places, tabs, ttl };
