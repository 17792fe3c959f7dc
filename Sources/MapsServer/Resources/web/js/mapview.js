// The Leaflet map: base tiles, long-press detection (touch and mouse) with right-click as its
// desktop twin, fitting to what the panel leaves visible, marker icons, the first view.

import { sheet } from "./ui.js";
import { ICONS } from "./format.js";
import { withKey } from "./api.js";

/* global L */

const LONG_PRESS_MS = 550;
const MOVE_TOLERANCE_PX = 10;

export function createMap(el) {
  const map = L.map(el, {
    zoomControl: false,
    attributionControl: false,
    worldCopyJump: true,
    minZoom: 2,
    maxZoom: 19,
    tap: false,            // long press is handled here (Leaflet's tap handler would fake a contextmenu too)
    keyboard: true,
    zoomSnap: 0.25,
  });
  L.control.zoom({ position: "topright", zoomInTitle: "Zoom in", zoomOutTitle: "Zoom out" }).addTo(map);
  L.control.attribution({ position: "bottomright", prefix: false })
    .addAttribution('Map data © <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener">OpenStreetMap contributors</a>')
    .addTo(map);
  L.tileLayer(withKey("/tiles/{z}/{x}/{y}.png"), { maxZoom: 19, maxNativeZoom: 19, tileSize: 256, crossOrigin: false, keepBuffer: 4 }).addTo(map);

  map.createPane("routes").style.zIndex = 410;
  map.createPane("highlight").style.zIndex = 420;

  // Leaflet's container is focusable for keyboard panning; say so to screen readers too.
  el.setAttribute("tabindex", "0");
  return map;
}

/** A "locate me" button under the zoom control. */
export function addLocateControl(map, onClick) {
  const Ctl = L.Control.extend({
    options: { position: "topright" },
    onAdd() {
      const div = L.DomUtil.create("div", "leaflet-bar leaflet-control locate-control");
      const a = L.DomUtil.create("a", "", div);
      a.href = "#";
      a.setAttribute("role", "button");
      a.setAttribute("aria-label", "Show my location");
      a.title = "Show my location";
      a.innerHTML = ICONS.locate;
      L.DomEvent.disableClickPropagation(div);
      L.DomEvent.on(a, "click", (e) => { L.DomEvent.preventDefault(e); onClick(); });
      return div;
    },
  });
  new Ctl().addTo(map);
}

/**
 * Long press (touch or mouse held still) and right-click both call onLongPress(latlng). The
 * click that browsers still fire after a long press never reaches onClick (TOOLCHAIN §5 pitfall).
 * Enter on the focused map acts on the centre of the map (keyboard users).
 */
export function installPressHandlers(map, { onLongPress, onClick }) {
  const el = map.getContainer();
  let timer = 0, start = null, pointerId = null;
  let suppressClickUntil = 0, lastLongPress = 0, holding = false;

  const fire = (latlng) => {
    const now = performance.now();
    if (now - lastLongPress < 800) return; // contextmenu and our own timer can both fire for one press
    lastLongPress = now;
    onLongPress(latlng);
  };
  const cancel = () => { clearTimeout(timer); timer = 0; start = null; };

  el.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    if (e.target.closest(".leaflet-marker-icon, .leaflet-popup, .leaflet-control, .marker-cluster")) return;
    if (!e.isPrimary) { cancel(); return; } // a second finger: pinch, not a press
    start = { x: e.clientX, y: e.clientY };
    pointerId = e.pointerId;
    holding = false;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!start) return;
      holding = true;
      suppressClickUntil = Infinity;
      fire(map.mouseEventToLatLng({ clientX: start.x, clientY: start.y }));
      start = null;
    }, LONG_PRESS_MS);
  }, { capture: true });
  el.addEventListener("pointermove", (e) => {
    if (!start || e.pointerId !== pointerId) return;
    if (Math.hypot(e.clientX - start.x, e.clientY - start.y) > MOVE_TOLERANCE_PX) cancel();
  }, { capture: true });
  const up = () => {
    cancel();
    if (holding) { holding = false; suppressClickUntil = performance.now() + 400; }
  };
  el.addEventListener("pointerup", up, { capture: true });
  el.addEventListener("pointercancel", up, { capture: true });

  // The click after a long press can also land on the marker the press just created (touch
  // devices send it to whatever is under the finger): swallow it before Leaflet sees it.
  el.addEventListener("click", (e) => {
    if (performance.now() < suppressClickUntil) {
      suppressClickUntil = 0;
      e.stopPropagation();
      e.preventDefault();
    }
  }, { capture: true });

  map.on("contextmenu", (e) => {
    L.DomEvent.preventDefault(e.originalEvent);
    cancel();
    fire(e.latlng);
  });
  map.on("click", (e) => {
    if (performance.now() < suppressClickUntil) { suppressClickUntil = 0; return; }
    onClick?.(e.latlng);
  });
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && e.target === el) { e.preventDefault(); fire(map.getCenter()); } // the crosshair
  });
}

// ---- what the panel leaves visible ------------------------------------------------------------

export function fitPadding(map) {
  const panel = document.getElementById("panel");
  if (sheet.isPhone()) {
    const h = panel.getBoundingClientRect().height;
    return { paddingTopLeft: [24, 56], paddingBottomRight: [24, Math.min(h, map.getSize().y * 0.6) + 24] };
  }
  const r = panel.getBoundingClientRect();
  return { paddingTopLeft: [r.right + 32, 40], paddingBottomRight: [72, 40] };
}

export function fitTo(map, bounds, { maxZoom = 17, animate = true } = {}) {
  if (!bounds || !bounds.isValid()) return;
  map.fitBounds(bounds, { ...fitPadding(map), maxZoom, animate });
}

/** Balloons pan the map to stay clear of the panel (or the bottom sheet on phones). Leaflet
 *  popups inherit their options from the prototype, so this reaches every balloon. */
export function syncPopupPadding(map) {
  const p = fitPadding(map);
  L.Popup.prototype.options.autoPanPaddingTopLeft = L.point(p.paddingTopLeft[0] - 16, 16);
  L.Popup.prototype.options.autoPanPaddingBottomRight = L.point(56, p.paddingBottomRight[1] - 8);
}

/** The part of the map that the panel doesn't cover, as lat/lon bounds. */
export function visibleBounds(map) {
  const p = fitPadding(map);
  const size = map.getSize();
  return L.latLngBounds(
    map.containerPointToLatLng(p.paddingTopLeft),
    map.containerPointToLatLng([size.x - p.paddingBottomRight[0], size.y - p.paddingBottomRight[1]]));
}

/** The centre of the part of the map that the panel doesn't cover. */
export function visibleCenter(map) {
  const p = fitPadding(map);
  const size = map.getSize();
  const x = (p.paddingTopLeft[0] + size.x - p.paddingBottomRight[0]) / 2;
  const y = (p.paddingTopLeft[1] + size.y - p.paddingBottomRight[1]) / 2;
  return map.containerPointToLatLng([x, y]);
}

// ---- the first view ---------------------------------------------------------------------------

// Last resort when /health carries no bounding box: the two samples the project ships.
const KNOWN_SAMPLES = [
  { match: /monaco/i, bbox: [7.4064, 43.7233, 7.4432, 43.7518] },
  { match: /helsinki/i, bbox: [24.9352, 60.1642, 24.9534, 60.1791] },
];

function toBounds(b) {
  // [minLon, minLat, maxLon, maxLat] (the manifest's order) or {minLat,…}/{south,…}
  if (Array.isArray(b) && b.length === 4) return L.latLngBounds([b[1], b[0]], [b[3], b[2]]);
  if (b && typeof b === "object") {
    const s = b.minLat ?? b.south ?? b.btmRightPoint?.lat, n = b.maxLat ?? b.north ?? b.topLeftPoint?.lat;
    const w = b.minLon ?? b.west ?? b.topLeftPoint?.lon, e = b.maxLon ?? b.east ?? b.btmRightPoint?.lon;
    if ([s, n, w, e].every(Number.isFinite)) return L.latLngBounds([s, w], [n, e]);
  }
  return null;
}

/** Fits the map to the dataset. Returns how: "bbox" | "saved" | "sample" | "world". */
export function showDataset(map, health) {
  const bounds = toBounds(health?.boundingBox ?? health?.bbox ?? health?.bounds);
  if (bounds && bounds.isValid()) { fitTo(map, bounds, { maxZoom: 16, animate: false }); return "bbox"; }
  const sample = KNOWN_SAMPLES.find((s) => s.match.test(health?.source || ""));
  if (sample) { fitTo(map, toBounds(sample.bbox), { maxZoom: 16, animate: false }); return "sample"; }
  const key = `wayfinder.view.${health?.dataset || "default"}`;
  try {
    const saved = JSON.parse(localStorage.getItem(key) || "null");
    if (saved && Number.isFinite(saved.lat)) { map.setView([saved.lat, saved.lng], saved.zoom, { animate: false }); return "saved"; }
  } catch { /* ignore */ }
  map.setView([30, 10], 3, { animate: false });
  return "world";
}

/** Remembers the view per dataset, for the next visit when nothing else says where the data is. */
export function rememberView(map, health) {
  const key = `wayfinder.view.${health?.dataset || "default"}`;
  map.on("moveend", () => {
    const c = map.getCenter();
    try { localStorage.setItem(key, JSON.stringify({ lat: c.lat, lng: c.lng, zoom: map.getZoom() })); } catch { /* ignore */ }
  });
}

// ---- marker icons -----------------------------------------------------------------------------

export const icons = {
  from: () => L.divIcon({
    className: "wf-pin wf-pin-from", iconSize: [26, 26], iconAnchor: [13, 13], popupAnchor: [0, -12],
    html: '<svg viewBox="0 0 26 26" width="26" height="26"><circle cx="13" cy="13" r="9.5" fill="#fff" stroke="#0f9d58" stroke-width="5"/></svg>',
  }),
  to: () => L.divIcon({
    className: "wf-pin wf-pin-to", iconSize: [30, 40], iconAnchor: [15, 38], popupAnchor: [0, -34],
    html: '<svg viewBox="0 0 30 40" width="30" height="40"><path d="M15 39s12-12.4 12-23.5a12 12 0 0 0-24 0C3 26.6 15 39 15 39z" fill="#d93025" stroke="#fff" stroke-width="2"/><circle cx="15" cy="15.5" r="4.6" fill="#fff"/></svg>',
  }),
  pending: () => L.divIcon({
    className: "wf-pin is-pending", iconSize: [30, 40], iconAnchor: [15, 38],
    html: '<svg viewBox="0 0 30 40" width="30" height="40"><path d="M15 39s12-12.4 12-23.5a12 12 0 0 0-24 0C3 26.6 15 39 15 39z" fill="#5f6b7d" stroke="#fff" stroke-width="2"/><circle cx="15" cy="15.5" r="4.6" fill="#fff"/></svg>',
  }),
  via: (n) => L.divIcon({ className: "", iconSize: [24, 24], iconAnchor: [12, 12], popupAnchor: [0, -12], html: `<div class="wf-via">${n}</div>` }),
  me: () => L.divIcon({ className: "", iconSize: [18, 18], iconAnchor: [9, 9], html: '<div class="wf-me"></div>' }),
};
