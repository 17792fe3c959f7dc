// Search along the route (seed 000): a free-text field and gas station / restaurant / ATM
// buttons; results as clustered markers whose balloon offers "Add to my route".

import * as api from "./api.js";
import { $, $$, toast, revealInPanel } from "./ui.js";
import { fitTo } from "./mapview.js";
import { escapeHTML, formatDetour, formatDistance, categoryIcon, ICONS } from "./format.js";

/* global L */

export const ALONG_CATEGORIES = {
  gas: { query: "gas station", categorySet: 7311, one: "gas station", many: "gas stations" },
  restaurant: { query: "restaurant", categorySet: 7315, one: "restaurant", many: "restaurants" },
  atm: { query: "atm", categorySet: 7397, one: "ATM", many: "ATMs" },
};
const MAX_DETOUR_SECONDS = 600;

export class AlongRoute {
  constructor(map, planner) {
    this.map = map;
    this.planner = planner;
    this.seq = 0;
    this.abort = null;
    this.results = [];
    this.active = null;      // {kind, query}
    this.cluster = L.markerClusterGroup({
      showCoverageOnHover: false, maxClusterRadius: 44, spiderfyOnMaxZoom: true, zoomToBoundsOnClick: true,
      iconCreateFunction: (c) => L.divIcon({
        html: `<div><span>${c.getChildCount()}</span></div>`, className: "marker-cluster", iconSize: L.point(40, 40),
      }),
    }).addTo(map);

    $("#along-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const q = $("#along-input").value.trim();
      if (q) this.search({ query: q });
    });
    for (const b of $$("[data-along]")) {
      b.addEventListener("click", () => {
        if (b.getAttribute("aria-pressed") === "true") { this.clear(); return; } // a second press hides them
        this.search({ kind: b.dataset.along });
      });
    }
    // Buttons inside balloons.
    map.getContainer().addEventListener("click", (e) => {
      const b = e.target.closest("[data-add-stop]");
      if (b) this.addToRoute(Number(b.dataset.addStop));
    });

    planner.onChange((reason) => {
      if (reason === "via") { this.refreshAddedState(); return; }   // keep the balloons, as the seed does
      if (reason === "route" || reason === "select" || reason === "clear" || reason === "error") this.clear();
    });
  }

  clear() {
    this.seq++;
    this.abort?.abort();
    this.cluster.clearLayers();
    this.results = [];
    this.active = null;
    this.setStatus("");
    for (const b of $$("[data-along]")) b.setAttribute("aria-pressed", "false");
    document.body.dataset.alongCount = "0";
    document.body.dataset.alongState = "none";
  }

  setStatus(text, isError = false) {
    const el = $("#along-status");
    el.textContent = text;
    el.classList.toggle("is-error", isError);
    if (text) revealInPanel(el);
  }

  async search({ kind, query }) {
    if (!this.planner.hasRoute) {
      toast("Plan a route first: right-click or press and hold the map to set the start and the destination.");
      return;
    }
    const cat = kind ? ALONG_CATEGORIES[kind] : null;
    const q = cat ? cat.query : query;
    const seq = ++this.seq;
    this.abort?.abort();
    this.abort = new AbortController();
    this.cluster.clearLayers();
    this.results = [];
    this.active = { kind, query: q };
    for (const b of $$("[data-along]")) b.setAttribute("aria-pressed", b.dataset.along === kind ? "true" : "false");
    if (!cat) $("#along-input").value = q;
    this.setStatus(`Searching for ${cat ? cat.many : `“${q}”`} along your route…`);
    document.body.dataset.alongState = "loading";
    try {
      const data = await api.searchAlongRoute(q, this.corridor(), {
        categorySet: cat?.categorySet, maxDetourTime: MAX_DETOUR_SECONDS, limit: 20,
      }, { signal: this.abort.signal });
      if (seq !== this.seq) return;
      this.results = (data?.results || []).filter((r) => r.position);
      this.show(cat, q);
      document.body.dataset.alongState = "ready";
    } catch (err) {
      if (seq !== this.seq || err.kind === "aborted") return;
      const text = api.friendly(err, "along");
      this.setStatus(text, true);
      document.body.dataset.alongState = "error";
      toast(text, { kind: "error", title: "Search along the route" });
    }
    document.body.dataset.alongCount = String(this.results.length);
  }

  /** The selected route's line, simplified (shape kept to about a metre) when it is very long, so
   *  that the request stays small. */
  corridor(maxPoints = 2000) {
    const line = this.planner.routeLatLngs();
    if (line.length <= maxPoints) return line;
    const zoom = 17; // 1 px ≈ 1 m at mid latitudes
    const projected = line.map((p) => this.map.project(p, zoom));
    let tolerance = 1, simple = projected;
    while (simple.length > maxPoints && tolerance < 512) {
      simple = L.LineUtil.simplify(projected, tolerance);
      tolerance *= 2;
    }
    return simple.map((p) => this.map.unproject(p, zoom));
  }

  show(cat, q) {
    const n = this.results.length;
    const minutes = Math.round(MAX_DETOUR_SECONDS / 60);
    if (!n) {
      const text = cat ? `There is no ${cat.one} within a ${minutes}-minute detour of this route.`
        : `Nothing matching “${q}” within a ${minutes}-minute detour of this route.`;
      this.setStatus(text);
      toast(text, { timeout: 5000 });
      return;
    }
    const what = cat ? (n === 1 ? cat.one : cat.many) : (n === 1 ? "place" : "places");
    this.setStatus(`${n} ${what} along your route${cat ? "" : ` for “${q}”`}. Open a marker to add it as a stop.`);
    const kindClass = cat ? Object.keys(ALONG_CATEGORIES).find((k) => ALONG_CATEGORIES[k] === cat) : guessKind(this.results[0]);
    const markers = this.results.map((r, i) => {
      const kind = cat ? kindClass : guessKind(r);
      const m = L.marker([r.position.lat, r.position.lon], {
        icon: L.divIcon({ className: "", iconSize: [30, 30], iconAnchor: [15, 30], popupAnchor: [0, -30],
          html: `<div class="wf-poi cat-${kind}" data-poi="${i}">${categoryIcon(kind)}</div>` }),
        title: r.poi?.name || r.address?.freeformAddress || "Place", alt: r.poi?.name || "Place", riseOnHover: true,
      });
      m.bindPopup(() => this.popup(i), { maxWidth: 300, minWidth: 230 });
      r._marker = m;
      return m;
    });
    this.cluster.addLayers(markers);
    const bounds = L.latLngBounds(this.results.map((r) => [r.position.lat, r.position.lon]));
    for (const p of this.planner.routeLatLngs()) bounds.extend(p);
    fitTo(this.map, bounds, { maxZoom: 17 });
    this.refreshAddedState();
  }

  popup(i) {
    const r = this.results[i];
    if (!r) return "";
    const name = r.poi?.name || r.address?.freeformAddress || "Unnamed place";
    const category = r.poi?.categories?.[0] || r.poi?.classifications?.[0]?.names?.[0]?.name || "";
    const added = this.planner.vias.some((v) => v.id === r.id);
    // Detours can be negative (the stop opens a quicker way); under ~15 s it is simply on the way.
    const detour = !Number.isFinite(r.detourTime) ? ""
      : r.detourTime <= 15 ? `<span>${ICONS.clock}<strong>No detour</strong>&nbsp;· on your way</span>`
      : `<span>${ICONS.clock}<strong>${formatDetour(r.detourTime)}</strong>&nbsp;detour</span>`;
    const detourDist = Number.isFinite(r.detourDistance) && r.detourDistance > 0 && r.detourTime > 15
      ? `<span>${ICONS.detour}${formatDetour0(r.detourDistance)}</span>` : "";
    const phone = r.poi?.phone ? `<span>${ICONS.phone}<a href="tel:${escapeHTML(r.poi.phone.replace(/\s/g, ""))}">${escapeHTML(r.poi.phone)}</a></span>` : "";
    return `<div class="popup" data-popup-poi="${i}">
      ${category ? `<p class="popup-kicker">${escapeHTML(category)}</p>` : ""}
      <p class="popup-title">${escapeHTML(name)}</p>
      ${r.address?.freeformAddress && r.address.freeformAddress !== name ? `<p class="popup-address">${escapeHTML(r.address.freeformAddress)}</p>` : ""}
      <p class="popup-meta">${detour}${detourDist}${phone}</p>
      <button type="button" class="btn btn-primary" data-add-stop="${i}" ${added ? "disabled" : ""}>
        ${added ? "On your route" : `${ICONS.plus} Add to my route`}</button>
    </div>`;
  }

  addToRoute(i) {
    const r = this.results[i];
    if (!r) return;
    const name = r.poi?.name || r.address?.freeformAddress || "Stop";
    const ok = this.planner.addVia({
      latlng: L.latLng(r.position.lat, r.position.lon), label: name,
      sub: r.address?.freeformAddress && r.address.freeformAddress !== name ? r.address.freeformAddress : "", id: r.id || `${r.position.lat},${r.position.lon}`,
    });
    if (ok) {
      this.map.closePopup();
      toast(`${name} added to your route.`, { timeout: 3500 });
    }
  }

  refreshAddedState() {
    for (const r of this.results) {
      const el = r._marker?.getElement?.()?.querySelector(".wf-poi");
      if (el) el.classList.toggle("is-added", this.planner.vias.some((v) => v.id === r.id));
    }
  }
}

function formatDetour0(meters) {
  const sign = meters < 0 ? "−" : "+";
  return sign + formatDistance(Math.abs(meters));
}

function guessKind(r) {
  const ids = (r?.poi?.categorySet || []).map((c) => Math.floor(Number(c.id) / (c.id > 9999 ? 1000 : 1)));
  const names = (r?.poi?.categories || []).join(" ").toLowerCase();
  if (ids.includes(7311) || /petrol|gas|fuel/.test(names)) return "gas";
  if (ids.includes(7315) || /restaurant|food/.test(names)) return "restaurant";
  if (ids.includes(7397) || /atm|cash/.test(names)) return "atm";
  return "other";
}
