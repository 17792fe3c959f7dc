// Time to leave on the map: the chosen places, then the watched route and the offered one.

import { fitTo } from "../mapview.js";

/* global L */

export const routeLatLngsMethods = {
  routeLatLngs(route) {
    const out = [];
    for (const leg of route?.legs || []) {
      for (const p of leg.points || []) {
        const last = out[out.length - 1];
        if (!last || last.lat !== p.latitude || last.lng !== p.longitude) out.push(L.latLng(p.latitude, p.longitude));
      }
    }
    return out;
  },

  pin(role, latlng, title) {
    const html = role === "from"
      ? '<svg viewBox="0 0 26 26" width="26" height="26"><circle cx="13" cy="13" r="9.5" fill="#fff" stroke="#0f9d58" stroke-width="5"/></svg>'
      : '<svg viewBox="0 0 30 40" width="30" height="40"><path d="M15 39s12-12.4 12-23.5a12 12 0 0 0-24 0C3 26.6 15 39 15 39z" fill="#d93025" stroke="#fff" stroke-width="2"/><circle cx="15" cy="15.5" r="4.6" fill="#fff"/></svg>';
    const icon = role === "from"
      ? L.divIcon({ className: "wf-pin wf-ttl-from", iconSize: [26, 26], iconAnchor: [13, 13], html })
      : L.divIcon({ className: "wf-pin wf-ttl-to", iconSize: [30, 40], iconAnchor: [15, 38], html });
    return L.marker(latlng, { icon, title, alt: title, keyboard: false, zIndexOffset: role === "from" ? 1000 : 1100 });
  },

  /** The chosen places, before there is a route. */
  drawPreview() {
    if (this.state !== "form") return;
    this.layer.clearLayers();
    const pts = [];
    if (this.from) { this.pin("from", this.from.latlng, `Leaving from ${this.from.label}`).addTo(this.layer); pts.push(this.from.latlng); }
    if (this.to) { this.pin("to", this.to.latlng, `Going to ${this.to.label}`).addTo(this.layer); pts.push(this.to.latlng); }
    if (this.visible && pts.length === 2) fitTo(this.map, L.latLngBounds(pts), { maxZoom: 16 });
    else if (this.visible && pts.length === 1) this.map.panTo(pts[0]);
  },

  drawRoute({ fit }) {
    const w = this.watch;
    const line = this.routeLatLngs(w?.route);
    const offer = this.state === "watch" ? this.routeLatLngs(w?.betterRoute?.route) : [];
    const key = `${line.length}:${line[0]?.lat}:${line[line.length - 1]?.lng}:${w?.route?.summary?.lengthInMeters}:${offer.length}`;
    if (key === this.routeKey && !fit) return;
    this.routeKey = key;
    this.layer.clearLayers();
    if (offer.length > 1) {
      L.polyline(offer, { pane: "routes", color: "#ffffff", weight: 9, opacity: 1, interactive: false, lineCap: "round", lineJoin: "round" }).addTo(this.layer);
      L.polyline(offer, { pane: "routes", color: "#8c9ab3", weight: 5.5, opacity: 1, interactive: false, lineCap: "round", lineJoin: "round", dashArray: "1 9", className: "wf-ttl-offer" }).addTo(this.layer);
    }
    if (line.length > 1) {
      L.polyline(line, { pane: "routes", color: "#ffffff", weight: 11, opacity: 1, interactive: false, lineCap: "round", lineJoin: "round", className: "wf-ttl-casing" }).addTo(this.layer);
      L.polyline(line, { pane: "routes", color: "#2453d6", weight: 6.5, opacity: 1, interactive: false, lineCap: "round", lineJoin: "round", className: "wf-ttl-route" }).addTo(this.layer);
    }
    const from = this.trip?.from?.latlng || (w?.origin && L.latLng(w.origin.lat, w.origin.lon));
    const to = this.trip?.to?.latlng || (w?.destination && L.latLng(w.destination.lat, w.destination.lon));
    if (from) this.pin("from", from, `Leaving from ${this.trip?.from?.label || "the departure"}`).addTo(this.layer);
    if (to) this.pin("to", to, `Going to ${this.trip?.to?.label || "the destination"}`).addTo(this.layer);
    document.body.dataset.ttlRoutePoints = String(line.length);
    if (fit && this.visible) {
      const all = line.concat(offer);
      if (from) all.push(from);
      if (to) all.push(to);
      if (all.length) fitTo(this.map, L.latLngBounds(all), { maxZoom: 17 });
    }
  },
};
