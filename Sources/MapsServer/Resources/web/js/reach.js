// The Reach tab: how far one gets from a pressed point within a budget (minutes or km), as
// isochrones from the server's /isochrone (Valhalla's shape), redrawn as the budget slider moves.

import * as api from "./api.js";
import { $ } from "./ui.js";
import { icons } from "./mapview.js";
import { escapeHTML } from "./format.js";

/* global L */

const COLORS = ["#d7301f", "#fc8d59", "#fdcc8a"]; // nearest ring first

export class Reach {
  constructor(map) {
    this.map = map;
    this.origin = null;
    this.marker = null;
    this.layer = L.layerGroup();
    this.pending = null; // AbortController of the request in flight
    this.timer = null;
    this.visible = false;
    const value = $("#reach-value"), kind = $("#reach-kind");
    const relabel = () => {
      const v = Number(value.value);
      $("#reach-value-label").textContent = kind.value === "time" ? `${v} min` : `${v} km`;
    };
    value.addEventListener("input", () => { relabel(); this.schedule(120); });
    kind.addEventListener("change", () => {
      value.max = kind.value === "time" ? "60" : "50";
      if (Number(value.value) > Number(value.max)) value.value = value.max;
      relabel();
      this.schedule(0);
    });
    for (const el of document.querySelectorAll('input[name="reach-mode"], #reach-steps, #reach-depart')) {
      el.addEventListener("change", () => this.schedule(0));
    }
    relabel();
  }

  setVisible(on) {
    this.visible = on;
    if (on) { this.layer.addTo(this.map); this.marker?.addTo(this.map); } else { this.layer.remove(); this.marker?.remove(); }
  }

  /** A long press sets the starting point and draws the reach from it. */
  press(latlng) {
    this.origin = latlng;
    this.marker?.remove();
    this.marker = L.marker(latlng, { icon: icons.from(), keyboard: false }).addTo(this.map);
    $("#reach-origin").textContent = `From ${latlng.lat.toFixed(5)}, ${latlng.lng.toFixed(5)}`;
    this.schedule(0);
  }

  schedule(delay) {
    clearTimeout(this.timer);
    if (!this.origin) return;
    this.timer = setTimeout(() => this.compute(), delay);
  }

  levels() {
    const v = Number($("#reach-value").value);
    const steps = $("#reach-steps").checked && v >= 3 ? [Math.round(v / 3), Math.round(2 * v / 3), v] : [v];
    return [...new Set(steps)].filter((x) => x > 0);
  }

  async compute() {
    this.pending?.abort();
    const controller = new AbortController();
    this.pending = controller;
    const kind = $("#reach-kind").value;
    const levels = this.levels();
    const mode = document.querySelector('input[name="reach-mode"]:checked').value;
    const costing = { car: "auto", bicycle: "bicycle", pedestrian: "pedestrian" }[mode];
    const body = {
      locations: [{ lat: this.origin.lat, lon: this.origin.lng }], costing, polygons: true, denoise: 0.2,
      contours: levels.map((x, i) => ({ [kind]: x, color: COLORS[levels.length - 1 - i].slice(1) })),
    };
    const depart = $("#reach-depart").value;
    if (depart) body.date_time = { type: 1, value: depart };
    const error = $("#reach-error");
    try {
      const started = performance.now();
      const answer = await api.isochrone(body, { signal: controller.signal });
      if (controller !== this.pending) return;
      error.hidden = true;
      this.draw(answer, kind, Math.round(performance.now() - started));
    } catch (e) {
      if (e.kind === "aborted") return;
      error.textContent = e.message;
      error.hidden = false;
      document.body.dataset.reachError = e.message;
    }
  }

  draw(answer, kind, ms) {
    this.layer.clearLayers();
    const features = answer.features.filter((f) => f.properties.contour !== undefined);
    // Largest first (as the server sends them), so the smaller rings are drawn on top.
    for (const f of features) {
      L.geoJSON(f, { style: { color: f.properties.color, weight: 1.5, fillColor: f.properties.color, fillOpacity: 0.28 } }).addTo(this.layer);
    }
    const unit = kind === "time" ? "min" : "km";
    const rows = features.slice().reverse().map((f) =>
      `<li><span class="swatch" style="background:${escapeHTML(f.properties.color)}"></span>within ${f.properties.contour} ${unit}</li>`);
    $("#reach-legend").innerHTML = `<ul>${rows.join("")}</ul><p class="muted small">Drawn in ${ms} ms.</p>`;
    document.body.dataset.reachContours = String(features.length);
    if (features.length) {
      const bounds = L.geoJSON(features[0]).getBounds();
      if (bounds.isValid() && !this.map.getBounds().contains(bounds)) this.map.fitBounds(bounds, { padding: [20, 20] });
    }
  }

  clear() {
    this.origin = null;
    this.marker?.remove();
    this.marker = null;
    this.layer.clearLayers();
    $("#reach-legend").innerHTML = "";
  }
}
