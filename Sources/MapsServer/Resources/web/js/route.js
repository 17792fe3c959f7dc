// The route planner: departure, destination and stops; the route request. Drawing the routes
// and the directions panel are in route/panel.js.

import * as api from "./api.js";
import { $, toast, sheet, revealInPanel } from "./ui.js";
import { icons, fitTo, visibleBounds } from "./mapview.js";
import { escapeHTML, formatCoords } from "./format.js";
import { drawMethods } from "./route/panel.js";

/* global L */


export class Planner {
  constructor(map) {
    this.map = map;
    this.from = null;        // {latlng, label, sub}
    this.to = null;
    this.vias = [];          // [{latlng, label, id}]
    this.routes = [];
    this.response = null;
    this.selected = 0;
    this.seq = 0;
    this.abort = null;
    this.listeners = new Set();

    this.markers = { from: null, to: null, vias: L.layerGroup().addTo(map) };
    this.routeLayer = L.layerGroup().addTo(map);
    this.snapLayer = L.layerGroup().addTo(map);
    this.highlightLayer = L.layerGroup().addTo(map);
    this.bindPanel();
  }

  /** fn(reason, planner): reason ∈ "route" (new geometry), "select", "clear", "error". */
  onChange(fn) { this.listeners.add(fn); }
  emit(reason) { for (const fn of this.listeners) fn(reason, this); this.syncDebug(); }

  get hasRoute() { return this.routes.length > 0; }
  get route() { return this.routes[this.selected] || null; }

  /** All the points of the selected route, as L.LatLng. */
  routeLatLngs(route = this.route) {
    if (!route) return [];
    const out = [];
    for (const leg of route.legs || []) {
      for (const p of leg.points || []) {
        const last = out[out.length - 1];
        if (!last || last.lat !== p.latitude || last.lng !== p.longitude) out.push(L.latLng(p.latitude, p.longitude));
      }
    }
    return out;
  }

  // ---- options from the panel ---------------------------------------------------------------

  options() {
    const avoid = [];
    if ($("#opt-tolls").checked) avoid.push("tollRoads");
    if ($("#opt-ferries").checked) avoid.push("ferries");
    if ($("#opt-motorways").checked) avoid.push("motorways");
    return {
      mode: document.querySelector('input[name="mode"]:checked')?.value || "car",
      routeType: $("#route-type").value,
      traffic: $("#opt-traffic").checked,
      avoid,
      alternatives: 2,
    };
  }

  bindPanel() {
    const recompute = () => { if (this.from && this.to) this.calculate({ fit: false }); };
    // For a bicycle, eco is the quiet route and thrilling has no meaning (the server answers 400).
    const fitRouteTypes = () => {
      const bike = this.options().mode === "bicycle";
      const select = $("#route-type");
      select.querySelector('option[value="eco"]').textContent = bike ? "Quiet route" : "Eco route";
      select.querySelector('option[value="thrilling"]').disabled = bike;
      if (bike && select.value === "thrilling") select.value = "fastest";
    };
    for (const r of document.querySelectorAll('input[name="mode"]')) {
      r.addEventListener("change", () => { fitRouteTypes(); recompute(); });
    }
    $("#route-type").addEventListener("change", recompute);
    for (const id of ["opt-traffic", "opt-tolls", "opt-ferries", "opt-motorways"]) {
      $("#" + id).addEventListener("change", () => {
        const active = ["opt-tolls", "opt-ferries", "opt-motorways"].some((x) => $("#" + x).checked) || !$("#opt-traffic").checked;
        document.querySelector(".more-options").classList.toggle("has-active", active);
        recompute();
      });
    }
    const more = document.querySelector(".more-options"); // closes on a click elsewhere or Escape
    document.addEventListener("click", (e) => { if (more.open && !more.contains(e.target)) more.open = false; });
    more.addEventListener("keydown", (e) => { if (e.key === "Escape" && more.open) { more.open = false; more.querySelector("summary").focus(); } });
    $("#swap-btn").addEventListener("click", () => this.swap());
    for (const b of document.querySelectorAll(".field-clear")) {
      b.addEventListener("click", () => this.setEndpoint(b.dataset.clear, null));
    }
    $("#waypoint-list").addEventListener("click", (e) => {
      const b = e.target.closest("[data-remove-via]");
      if (b) this.removeVia(Number(b.dataset.removeVia));
    });
    $("#alternatives").addEventListener("click", (e) => {
      const b = e.target.closest("[data-route]");
      if (b) this.select(Number(b.dataset.route));
    });
    $("#steps").addEventListener("click", (e) => {
      const b = e.target.closest("[data-step]");
      if (b) this.highlightStep(Number(b.dataset.step));
    });
  }

  // ---- endpoints and stops ------------------------------------------------------------------

  /** role: "from" | "to"; place: {latlng, label, sub} or null to remove. */
  setEndpoint(role, place, { calculate = true } = {}) {
    this[role] = place;
    this.drawEndpoint(role);
    this.syncInputs();
    if (calculate) {
      if (this.from && this.to) this.calculate({ fit: true });
      else this.clearRoute("clear");
    }
  }

  drawEndpoint(role) {
    const place = this[role];
    if (this.markers[role]) { this.markers[role].remove(); this.markers[role] = null; }
    if (!place) return;
    const m = L.marker(place.latlng, {
      icon: icons[role](), draggable: true, autoPan: true, keyboard: true,
      title: role === "from" ? `Starting point: ${place.label}` : `Destination: ${place.label}`,
      alt: role === "from" ? "Starting point" : "Destination", zIndexOffset: 1000, riseOnHover: true,
    });
    m.bindPopup(() => this.endpointPopup(role), { closeButton: true });
    m.on("dragend", () => this.dragged(role, m.getLatLng()));
    m.addTo(this.map);
    this.markers[role] = m;
  }

  endpointPopup(role) {
    const p = this[role];
    if (!p) return "";
    return `<div class="popup"><p class="popup-kicker">${role === "from" ? "Starting point" : "Destination"}</p>
      <p class="popup-title">${escapeHTML(p.label)}</p>
      ${p.sub ? `<p class="popup-address">${escapeHTML(p.sub)}</p>` : ""}</div>`;
  }

  async dragged(role, latlng) {
    const place = { latlng, label: formatCoords(latlng), sub: "" };
    this[role] = place;
    this.syncInputs();
    if (this.from && this.to) this.calculate({ fit: false });
    const named = await describePoint(latlng);
    if (this[role] === place) { Object.assign(place, named); this.syncInputs(); }
  }

  /** Adds a stop (from "Add to my route"), in route order: where it lies along the current route. */
  addVia(stop) {
    if (this.vias.some((v) => v.id && v.id === stop.id)) { toast(`${stop.label} is already on your route.`); return false; }
    const line = this.routeLatLngs();
    const along = (ll) => nearestIndex(line, ll);
    const at = along(stop.latlng);
    let i = 0;
    while (i < this.vias.length && along(this.vias[i].latlng) <= at) i++;
    this.vias.splice(i, 0, stop);
    this.drawVias();
    this.syncInputs();
    this.calculate({ fit: false, reason: "via" });
    return true;
  }

  removeVia(i) {
    this.vias.splice(i, 1);
    this.drawVias();
    this.syncInputs();
    if (this.from && this.to) this.calculate({ fit: false, reason: "via" });
  }

  drawVias() {
    this.markers.vias.clearLayers();
    this.vias.forEach((v, i) => {
      L.marker(v.latlng, { icon: icons.via(i + 1), title: `Stop ${i + 1}: ${v.label}`, alt: `Stop ${i + 1}`, zIndexOffset: 900 })
        .bindPopup(`<div class="popup"><p class="popup-kicker">Stop ${i + 1}</p><p class="popup-title">${escapeHTML(v.label)}</p>
          ${v.sub ? `<p class="popup-address">${escapeHTML(v.sub)}</p>` : ""}</div>`)
        .addTo(this.markers.vias);
    });
  }

  swap() {
    if (!this.from && !this.to) return;
    [this.from, this.to] = [this.to, this.from];
    this.vias.reverse();
    this.drawEndpoint("from");
    this.drawEndpoint("to");
    this.drawVias();
    this.syncInputs();
    if (this.from && this.to) this.calculate({ fit: false });
  }

  clearAll() {
    this.seq++;
    this.abort?.abort();
    this.from = this.to = null;
    this.vias = [];
    this.drawEndpoint("from");
    this.drawEndpoint("to");
    this.drawVias();
    this.syncInputs();
    this.clearRoute("clear");
    this.showError("");
  }

  syncInputs() {
    const fromInput = $("#from-input"), toInput = $("#to-input");
    if (document.activeElement !== fromInput) fromInput.value = this.from?.label || "";
    if (document.activeElement !== toInput) toInput.value = this.to?.label || "";
    $('[data-clear="from"]').hidden = !this.from;
    $('[data-clear="to"]').hidden = !this.to;
    $("#waypoint-list").innerHTML = this.vias.map((v, i) => `<li class="waypoint-item">
        <span class="wf-via" aria-hidden="true">${i + 1}</span><span class="name" title="${escapeHTML(v.label)}">${escapeHTML(v.label)}</span>
        <button type="button" class="field-clear" data-remove-via="${i}" aria-label="Remove stop ${i + 1}, ${escapeHTML(v.label)}">
          <svg viewBox="0 0 24 24" aria-hidden="true"><path d="m7 7 10 10M17 7 7 17"/></svg></button></li>`).join("");
    const hint = $("#route-hint");
    if (!this.from) hint.textContent = "Right-click the map, or press and hold on a touch screen, to set your starting point. Do it again to set your destination.";
    else if (!this.to) hint.textContent = "Now right-click the map, or press and hold, to set your destination.";
    $("#route-empty").hidden = this.hasRoute;
  }

  // ---- the route request ----------------------------------------------------------------------

  async calculate({ fit = true, reason = "route" } = {}) {
    if (!this.from || !this.to) return;
    const seq = ++this.seq;
    this.abort?.abort();
    this.abort = new AbortController();
    this.showError("");
    const points = [this.from.latlng, ...this.vias.map((v) => v.latlng), this.to.latlng];
    document.body.dataset.routeState = "loading";
    const options = this.options();
    try {
      const data = await api.calculateRoute(points, options, { signal: this.abort.signal });
      if (seq !== this.seq) return;
      if (!data?.routes?.length) throw new api.ApiError({ code: "NO_ROUTE_FOUND", message: "no route" });
      this.response = data;
      this.routes = data.routes;
      this.selected = 0;
      this.draw();
      this.renderResults();
      this.fitRoute({ onlyIfOutside: !fit });
      document.body.dataset.routeState = "ready";
      document.body.dataset.routeMode = `${options.mode}/${options.routeType}`;
      this.emit(reason === "via" ? "via" : "route");
      if (sheet.isPhone()) {
        if (sheet.state() === "collapsed") sheet.set("normal");
        if (fit) revealInPanel($("#route-results"), { block: "start" }); // the summary first
      }
    } catch (err) {
      if (seq !== this.seq || err.kind === "aborted") return;
      document.body.dataset.routeState = "error";
      const text = api.friendly(err, "route");
      this.clearRoute("error");
      this.showError(text);
      toast(text, { kind: "error", title: "No route" });
    }
  }

  /** Fits the map to the routes; with onlyIfOutside, only when they don't already show in full. */
  fitRoute({ onlyIfOutside = false } = {}) {
    const all = this.routes.flatMap((r) => this.routeLatLngs(r));
    for (const p of [this.from, this.to, ...this.vias]) if (p) all.push(p.latlng);
    if (!all.length) return;
    const bounds = L.latLngBounds(all);
    if (onlyIfOutside && visibleBounds(this.map).contains(bounds)) return;
    fitTo(this.map, bounds, { maxZoom: 17 });
  }

  clearRoute(reason) {
    this.routes = [];
    this.response = null;
    this.selected = 0;
    this.routeLayer.clearLayers();
    this.snapLayer.clearLayers();
    this.highlightLayer.clearLayers();
    $("#route-results").hidden = true;
    $("#route-empty").hidden = false;
    document.title = "Wayfinder";
    if (reason !== "error") document.body.dataset.routeState = "none";
    this.emit(reason);
  }

  showError(text) {
    const el = $("#route-error");
    el.textContent = text;
    el.hidden = !text;
  }
}

Object.assign(Planner.prototype, drawMethods);

function nearestIndex(line, ll) {
  let best = 0, d = Infinity;
  for (let i = 0; i < line.length; i++) {
    const dd = (line[i].lat - ll.lat) ** 2 + (line[i].lng - ll.lng) ** 2;
    if (dd < d) { d = dd; best = i; }
  }
  return best;
}

/** {label, sub} for a point: the reverse-geocoded address, or its coordinates. */
export async function describePoint(latlng) {
  try {
    const data = await api.reverseGeocode(latlng);
    const a = data?.addresses?.[0]?.address;
    const text = a?.freeformAddress?.trim();
    if (text) {
      const [first, ...rest] = text.split(",");
      return { label: first.trim(), sub: rest.join(",").trim(), address: text };
    }
  } catch { /* reverse geocoding unavailable: fall through to coordinates */ }
  return { label: formatCoords(latlng), sub: "", coords: true };
}
