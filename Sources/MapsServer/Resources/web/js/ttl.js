// Time to leave (seed 001, TomTom's "Time to leave" app): departure and destination with
// typeahead, travel mode, route type, arrival and preparation time; then a countdown to the
// moment to leave that the server keeps true as traffic changes (Server-Sent Events), the route
// on the map, a toast for each change, and at zero "Time's UP! Time to leave!".
//
// Times come from the server: every watch document carries the server's `now`, and the
// countdown runs from there at the pace the server's clock runs (measured between documents),
// so a skewed device clock, or a test server whose clock runs fast, still counts down right.
//
// The screen is one object whose methods live by job: ttl/form.js (the form), ttl/events.js (the
// event stream), ttl/countdown.js (the countdown and the alarm), ttl/maplayer.js (the map) and
// ttl/view.js (the card); this file holds its state and its life from form to trip.

import * as api from "./api.js";
import { $, $$, toast } from "./ui.js";
import { formatClock } from "./format.js";
import { ServerClock } from "./ttl/clock.js";
import { bindMethods } from "./ttl/form.js";
import { beginMethods } from "./ttl/events.js";
import { secondsLeftMethods } from "./ttl/countdown.js";
import { routeLatLngsMethods } from "./ttl/maplayer.js";
import { renderMethods } from "./ttl/view.js";

export { ServerClock, formatCountdown } from "./ttl/clock.js";

/* global L */

const STORAGE_KEY = "wayfinder.timeToLeave";

export class TimeToLeave {
  /**
   * checkPlace(latlng) → {latlng, label, sub} or null: a pressed point, named (app.js's press handling).
   * showMe(latlng): draws the user's position.
   */
  constructor(map, { checkPlace, showMe }) {
    this.map = map;
    this.checkPlace = checkPlace;
    this.showMe = showMe;
    this.zone = "";
    this.from = null;           // {latlng, label, sub}
    this.to = null;
    this.watch = null;          // the newest watch document
    this.trip = null;           // {from, to} labels of the watched trip
    this.events = null;         // EventSource
    this.seenEvent = 0;         // newest event id handled
    this.clock = new ServerClock();
    this.timer = 0;
    this.alarmDone = false;     // "Time's UP!" shown for this trip
    this.state = "form";        // "form" | "watch" | "done"
    this.outcome = "";          // when done: "on-my-way" | "ended"
    this.lateWhenLeaving = 0;   // seconds late when the user said "On My Way!"
    this.visible = false;
    this.layer = L.layerGroup();
    this.routeKey = "";

    this.bind();
    this.setDefaults();
    this.sync();
  }

  setVisible(on) {
    this.visible = on;
    if (on) this.layer.addTo(this.map); else this.layer.remove();
    if (on && this.state === "form") this.drawPreview();
    else if (on) this.drawRoute({ fit: true });
  }

  sync() {
    for (const role of ["from", "to"]) {
      const input = $(`#ttl-${role}-input`);
      if (document.activeElement !== input) input.value = this[role]?.label || "";
      $(`[data-ttl-clear="${role}"]`).hidden = !this[role];
    }
    $("#ttl-form").hidden = this.state !== "form";
    $("#ttl-watch").hidden = this.state === "form";
    document.body.dataset.ttlState = this.state;
  }

  /** "On My Way!": the trip has started; stop watching. */
  async onMyWay() {
    for (const id of ["#ttl-alarm", "#ttl-late"]) if ($(id).open) $(id).close();
    const w = this.watch;
    this.lateWhenLeaving = this.lateSeconds();
    this.closeEvents();
    clearInterval(this.timer);
    this.state = "done";
    this.outcome = "on-my-way";
    for (const el of $$('.toast[data-kind="traffic"]')) el.remove();
    this.sync();
    this.render();
    this.drawRoute({ fit: false });
    $("#ttl-cancel").hidden = true;
    $("#ttl-again").hidden = false;
    const expected = this.expectedArrival();
    const place = this.trip?.to?.label || "your destination";
    this.setStatus(!w?.arriveAt ? "Safe travels!" : expected.late ? `Safe travels! You should reach ${place} around ${expected.at}.`
      : `Safe travels! You should reach ${place} by ${formatClock(w.arriveAt)}.`);
    toast("Have a good trip.", { title: "Safe travels!", timeout: 4000 });
    this.forget();
    if (w) await api.deleteWatch(w.id).catch(() => {});
  }

  ended(message) {
    this.closeEvents();
    clearInterval(this.timer);
    this.state = "done";
    this.outcome = "ended";
    this.sync();
    this.render();
    this.drawRoute({ fit: false });
    $("#ttl-cancel").hidden = true;
    $("#ttl-again").hidden = false;
    this.setStatus(message);
    this.forget();
  }

  /** "Stop the countdown". */
  async stop({ message = "" } = {}) {
    const w = this.watch;
    this.backToForm();
    if (message) toast(message, { timeout: 2500 });
    if (w) await api.deleteWatch(w.id).catch(() => {});
  }

  backToForm() {
    this.closeEvents();
    clearInterval(this.timer);
    for (const id of ["#ttl-alarm", "#ttl-late"]) if ($(id).open) $(id).close();
    this.watch = null;
    this.trip = null;
    this.state = "form";
    $("#ttl-cancel").hidden = false;
    $("#ttl-again").hidden = true;
    document.title = "Wayfinder";
    this.forget();
    this.sync();
    this.layer.clearLayers();
    this.drawPreview();
  }

  remember() {
    if (!this.watch || !this.trip) return;
    const p = (x) => x && { lat: x.latlng.lat, lng: x.latlng.lng, label: x.label, sub: x.sub || "" };
    try { localStorage.setItem(STORAGE_KEY, JSON.stringify({ id: this.watch.id, from: p(this.trip.from), to: p(this.trip.to) })); } catch { /* private mode */ }
  }

  forget() { try { localStorage.removeItem(STORAGE_KEY); } catch { /* ignore */ } }

  /** Picks up a countdown left running in this browser. True when one was resumed. */
  async resume() {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null"); } catch { /* ignore */ }
    if (!saved?.id) return false;
    try {
      const w = await api.getWatch(saved.id);
      if (!w || w.status === "expired") { this.forget(); return false; }
      const place = (x) => x && { latlng: L.latLng(x.lat, x.lng), label: x.label, sub: x.sub };
      this.from = place(saved.from);
      this.to = place(saved.to);
      this.trip = { from: this.from, to: this.to };
      this.begin(w, { resumed: true });
      return true;
    } catch {
      this.forget();
      return false;
    }
  }
}

Object.assign(TimeToLeave.prototype, bindMethods, beginMethods, secondsLeftMethods, routeLatLngsMethods, renderMethods);
