// The route planner's drawing and directions panel: the routes on the map (alternatives
// selectable), the summary and advisory notices, and turn-by-turn steps that highlight their
// stretch of the route.

import { $, revealInPanel } from "../ui.js";
import { fitTo } from "../mapview.js";
import { escapeHTML, formatDuration, formatDistance, formatClock, maneuverIcon, maneuverKind } from "../format.js";

/* global L */

const BEST_LABEL = { fastest: "Fastest", shortest: "Shortest", eco: "Most economical", thrilling: "Most thrilling" };
export const COLORS = { selected: "#2453d6", alt: "#8c9ab3", casing: "#ffffff", highlight: "#f2a900", walked: "#ffffff" };

export const drawMethods = {
  draw() {
    this.routeLayer.clearLayers();
    this.highlightLayer.clearLayers();
    const order = this.routes.map((_, i) => i).filter((i) => i !== this.selected).concat([this.selected]);
    for (const i of order) {
      const line = this.routeLatLngs(this.routes[i]);
      const selected = i === this.selected;
      L.polyline(line, {
        pane: "routes", color: COLORS.casing, weight: selected ? 11 : 9, opacity: 1, interactive: false,
        lineCap: "round", lineJoin: "round", className: "wf-route-casing",
      }).addTo(this.routeLayer);
      const pl = L.polyline(line, {
        pane: "routes", color: selected ? COLORS.selected : COLORS.alt, weight: selected ? 6.5 : 5.5, opacity: 1,
        lineCap: "round", lineJoin: "round",
        className: `wf-route ${selected ? "wf-route-selected" : "wf-route-alt"}`,
      }).addTo(this.routeLayer);
      pl.getElement?.()?.setAttribute("data-route", String(i));
      if (selected) this.drawWalked(this.routes[i], line);
      if (!selected) {
        const s = this.routes[i].summary;
        pl.bindTooltip(`${formatDuration(s.travelTimeInSeconds)} · ${formatDistance(s.lengthInMeters)}`, { sticky: true, direction: "top", className: "wf-tip" });
        pl.on("click", (e) => { L.DomEvent.stopPropagation(e); this.select(i); });
      }
    }
    // Dashed connectors from where the user pressed to where the route starts or ends.
    this.snapLayer.clearLayers();
    const wps = this.response?.waypoints || [];
    const given = [this.from, ...this.vias, this.to];
    wps.forEach((w, k) => {
      const p = given[k];
      if (!p || !w?.snapped || !(w.distanceInMeters > 8)) return;
      L.polyline([p.latlng, [w.snapped.latitude, w.snapped.longitude]], {
        pane: "routes", color: "#5f6b7d", weight: 2.5, dashArray: "2 6", lineCap: "round", interactive: false, className: "wf-snap-line",
      }).addTo(this.snapLayer);
    });
  },

  /** Where the bicycle is walked (TomTom's `pedestrian` travel-mode sections): dashed over the route. */
  drawWalked(route, line) {
    for (const s of route.sections || []) {
      if (s.sectionType !== "TRAVEL_MODE" || s.travelMode !== "pedestrian") continue;
      const piece = line.slice(s.startPointIndex, s.endPointIndex + 1);
      if (piece.length < 2) continue;
      L.polyline(piece, {
        pane: "routes", color: COLORS.walked, weight: 6.5, opacity: 1, dashArray: "1 9", lineCap: "round", interactive: false,
        className: "wf-route-walked",
      }).bindTooltip("Walk your bike", { sticky: true, className: "wf-tip" }).addTo(this.routeLayer);
    }
  },

  select(i) {
    if (i === this.selected || !this.routes[i]) return;
    this.selected = i;
    this.draw();
    for (const b of document.querySelectorAll("#alternatives .alt")) {
      b.setAttribute("aria-pressed", Number(b.dataset.route) === i ? "true" : "false");
    }
    this.renderSelected();
    this.fitRoute();
    this.emit("select");
  },

  // ---- the directions panel ------------------------------------------------------------------

  renderResults() {
    $("#route-results").hidden = false;
    $("#route-empty").hidden = true;
    const { mode, routeType } = this.options();
    $("#alternatives").innerHTML = this.routes.map((r, i) => {
      const s = r.summary;
      const delay = s.trafficDelayInSeconds || 0;
      const first = this.routes[0].summary;
      const diff = Math.round(s.travelTimeInSeconds / 60) - Math.round(first.travelTimeInSeconds / 60);
      const best = mode === "bicycle" && routeType === "eco" ? "Quietest" : BEST_LABEL[routeType];
      const label = this.routes.length === 1 ? "" : i === 0 ? best || "Recommended"
        : diff >= 1 ? `Alternative · ${formatDuration(diff * 60)} slower`
        : diff <= -1 ? `Alternative · ${formatDuration(-diff * 60)} faster` : "Alternative · similar time";
      const traffic = mode === "car" || mode === "taxi"
        ? `<span class="alt-traffic ${delay >= 60 ? "has-delay" : ""}">${delay >= 30 ? `${formatDuration(delay)} traffic delay` : "No traffic delays"}</span>`
        : "";
      return `<li><button type="button" class="alt" data-route="${i}" aria-pressed="${i === this.selected}"
          aria-label="Route ${i + 1}: ${formatDuration(s.travelTimeInSeconds)}, ${formatDistance(s.lengthInMeters)}${viaName(r) ? ", via " + escapeHTML(viaName(r)) : ""}">
        ${label ? `<span class="alt-label">${escapeHTML(label)}</span>` : ""}
        <span class="alt-time" data-testid="travel-time">${formatDuration(s.travelTimeInSeconds)}</span>
        <span class="alt-dist" data-testid="distance">${formatDistance(s.lengthInMeters)}</span>
        <span class="alt-via">${viaName(r) ? "via " + escapeHTML(viaName(r)) : "&nbsp;"}</span>
        <span class="alt-arrive">${s.arrivalTime ? "Arrive " + formatClock(s.arrivalTime) : ""}</span>
        ${traffic}
      </button></li>`;
    }).join("");
    this.renderSelected();
    const s0 = this.routes[this.selected].summary;
    document.title = `${formatDuration(s0.travelTimeInSeconds)} to ${this.to?.label || "destination"} · Wayfinder`;
  },

  /** Notices and steps of the selected route. */
  renderSelected() {
    const notices = this.route.advisoryNotices || [];
    const ul = $("#notices");
    ul.innerHTML = notices.map((n) => `<li>${escapeHTML(typeof n === "string" ? n : n.message || n.text || JSON.stringify(n))}</li>`).join("");
    ul.hidden = notices.length === 0;

    const steps = this.steps();
    $("#steps").innerHTML = steps.map((st, i) => {
      const kind = maneuverKind(st.maneuver);
      const meta = st.distanceInMeters > 0
        ? formatDistance(st.distanceInMeters) + (st.travelTimeInSeconds >= 60 ? ` · ${formatDuration(st.travelTimeInSeconds)}` : "") : "";
      return `<li><button type="button" class="step-btn" data-step="${i}">
        <span class="step-icon is-${kind}">${maneuverIcon(st.maneuver)}</span>
        <span class="step-text">${escapeHTML(st.instruction)}${meta ? `<span class="step-meta">${meta}</span>` : ""}</span>
      </button></li>`;
    }).join("");
    this.syncInputs();
  },

  /** Steps with their own polylines (Wayfinder's `steps[]`), or built from guidance instructions. */
  steps(route = this.route) {
    if (!route) return [];
    if (Array.isArray(route.steps) && route.steps.length) return route.steps;
    const ins = route.guidance?.instructions || [];
    const line = this.routeLatLngs(route);
    return ins.map((it, i) => {
      const next = ins[i + 1];
      const pts = line.slice(it.pointIndex ?? 0, (next?.pointIndex ?? it.pointIndex ?? 0) + 1)
        .map((p) => ({ latitude: p.lat, longitude: p.lng }));
      return {
        instruction: it.message || it.maneuver, maneuver: it.maneuver, points: pts,
        distanceInMeters: next ? next.routeOffsetInMeters - it.routeOffsetInMeters : 0,
        travelTimeInSeconds: next ? next.travelTimeInSeconds - it.travelTimeInSeconds : 0,
      };
    });
  },

  highlightStep(i) {
    const st = this.steps()[i];
    if (!st) return;
    for (const b of document.querySelectorAll("#steps .step-btn")) {
      if (Number(b.dataset.step) === i) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    }
    this.highlightLayer.clearLayers();
    const pts = (st.points || []).map((p) => L.latLng(p.latitude, p.longitude));
    if (!pts.length) return;
    if (pts.length > 1) {
      L.polyline(pts, { pane: "highlight", color: "#ffffff", weight: 13, opacity: 1, interactive: false, lineCap: "round" }).addTo(this.highlightLayer);
      L.polyline(pts, { pane: "highlight", color: COLORS.highlight, weight: 8, opacity: 1, interactive: false, lineCap: "round", className: "wf-step-highlight" }).addTo(this.highlightLayer);
    }
    L.circleMarker(pts[0], { pane: "highlight", radius: 7, color: "#1b2333", weight: 3, fillColor: "#fff", fillOpacity: 1, interactive: false, className: "wf-step-point" })
      .addTo(this.highlightLayer);
    if (pts.length > 1) fitTo(this.map, L.latLngBounds(pts), { maxZoom: 18 });
    else this.map.setView(pts[0], Math.max(this.map.getZoom(), 17));
    document.body.dataset.highlightedStep = String(i);
  },

  syncDebug() {
    document.body.dataset.routeCount = String(this.routes.length);
    document.body.dataset.routePoints = String(this.routeLatLngs().length);
    document.body.dataset.routeLength = String(this.route?.summary?.lengthInMeters ?? 0);
    document.body.dataset.selectedRoute = String(this.selected);
    document.body.dataset.stops = String(this.vias.length);
  },
};

/** The street that carries most of the route, to tell alternatives apart ("via Boulevard …"). */
function viaName(route) {
  const byStreet = new Map();
  for (const st of route.steps || []) {
    if (!st.street) continue;
    byStreet.set(st.street, (byStreet.get(st.street) || 0) + (st.distanceInMeters || 0));
  }
  let best = "", len = 0;
  for (const [k, v] of byStreet) if (v > len) { best = k; len = v; }
  return best;
}
