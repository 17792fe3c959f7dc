// Time to leave (seed 001, TomTom's "Time to leave" app): departure and destination with
// typeahead, travel mode, route type, arrival and preparation time; then a countdown to the
// moment to leave that the server keeps true as traffic changes (Server-Sent Events), the route
// on the map, a toast for each change, and at zero "Time's UP! Time to leave!".
//
// Times come from the server: every watch document carries the server's `now`, and the
// countdown runs from there at the pace the server's clock runs (measured between documents),
// so a skewed device clock, or a test server whose clock runs fast, still counts down right.

import * as api from "./api.js";
import { $, $$, toast, sheet, revealInPanel } from "./ui.js";
import { fitTo } from "./mapview.js";
import { attachSuggest } from "./suggest.js";
import { locate } from "./places.js";
import { escapeHTML, formatDuration, formatDistance, formatClock } from "./format.js";

/* global L */

const MODE_WORDS = { car: "By car", taxi: "By taxi", bicycle: "By bike", pedestrian: "On foot" };
const TYPE_WORDS = { fastest: "fastest route", shortest: "shortest route", eco: "eco route", thrilling: "thrilling route" };
const STORAGE_KEY = "wayfinder.timeToLeave";
const TICK_MS = 200;

// ---- the server's clock -------------------------------------------------------------------------

/** The server's time, from the `now` of fresh watch documents, running at the server clock's pace. */
export class ServerClock {
  constructor() { this.reset(); }

  reset() { this.first = this.anchor = null; this.newest = -Infinity; this.rate = 1; }

  /** A document's `now` (RFC 3339, whole seconds), received just now. */
  observe(rfc3339) {
    const server = Date.parse(rfc3339);
    if (!Number.isFinite(server) || server <= this.newest) return; // not newer: a replayed event
    this.newest = server;
    const real = performance.now();
    if (!this.first) { this.first = this.anchor = { server, real }; return; }
    const dReal = (real - this.first.real) / 1000, dServer = (server - this.first.server) / 1000;
    if (dReal >= 1.5 && dServer > 0) {
      const rate = dServer / dReal;
      this.rate = Math.abs(rate - 1) < 0.1 ? 1 : rate; // documents carry whole seconds: near 1 is 1
    }
    // Keep counting from the running estimate unless it is off by more than the documents'
    // resolution, so that the countdown does not step back and forth by a second.
    const predicted = this.now();
    this.anchor = Math.abs(predicted - server) > 1500 ? { server, real } : { server: predicted, real };
  }

  /** Milliseconds since the epoch on the server's clock (the device's clock until a document came). */
  now() {
    if (!this.anchor) return Date.now();
    return this.anchor.server + (performance.now() - this.anchor.real) * this.rate;
  }
}

// ---- formatting ---------------------------------------------------------------------------------

/** 754 → "12:34", 4000 → "1:06:40", negatives → "0:00". */
export function formatCountdown(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (v) => String(v).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

/** "45 s", "2 min", "1 h 5 min": how late, or how much earlier (seconds count when small). */
function formatSpan(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : formatDuration(s);
}

/** The server's detail in plain words: RFC 3339 times become clock times, first letter capitalised. */
function humanDetail(detail) {
  if (!detail) return "";
  let t = detail.replace(/\d{4}-\d{2}-\d{2}T(\d{2}):(\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?/g, "$1:$2")
    .replace(/^the arrival time (\d{2}:\d{2}) has passed$/, "the arrival time you chose, $1, has already passed");
  t = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(t) ? t : t + ".";
}

/** Ends a sentence with a full stop unless it has one. */
const sentence = (t) => (t && !/[.!?]$/.test(t) ? t + "." : t || "");

/** "2026-11-29" in `zone` for the device's date plus `days`. */
function localDate(zone, days = 0) {
  const d = new Date(Date.now() + days * 86_400_000);
  try {
    return new Intl.DateTimeFormat("en-CA", { timeZone: zone || undefined, year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
  } catch {
    return new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
  }
}

/** [hours, minutes] in `zone` for the device's clock plus `minutes`. */
function localTime(zone, minutes = 0) {
  const d = new Date(Date.now() + minutes * 60_000);
  const opts = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  let text;
  try { text = new Intl.DateTimeFormat("en-GB", { ...opts, timeZone: zone || undefined }).format(d); } catch { text = new Intl.DateTimeFormat("en-GB", opts).format(d); }
  const [h, m] = text.split(":").map(Number);
  return [h, m];
}

// ---- the screen ---------------------------------------------------------------------------------

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

  // ---- wiring ---------------------------------------------------------------------------------

  bind() {
    for (const role of ["from", "to"]) {
      attachSuggest($(`#ttl-${role}-input`), $(`#ttl-${role}-suggestions`), {
        map: this.map,
        currentLabel: () => this[role]?.label,
        onPick: (place) => this.setPlace(role, place),
        onMyLocation: async () => {
          try {
            const me = await locate();
            this.showMe?.(me);
            this.setPlace(role, { latlng: me, label: "Your location", sub: "", mine: true });
          } catch (e) {
            toast(`${e.message} Type a place instead, or right-click the map.`, { kind: "error", title: "Location" });
          }
        },
      });
    }
    for (const b of $$("[data-ttl-clear]")) b.addEventListener("click", () => this.setPlace(b.dataset.ttlClear, null));
    $("#ttl-swap").addEventListener("click", () => {
      [this.from, this.to] = [this.to, this.from];
      this.sync();
      this.drawPreview();
    });
    $("#ttl-form").addEventListener("submit", (e) => { e.preventDefault(); this.start(); });
    for (const el of ["#ttl-arrive", "#ttl-day"]) $(el).addEventListener("change", () => this.showError(""));
    $("#ttl-cancel").addEventListener("click", () => this.stop({ message: "Countdown stopped." }));
    $("#ttl-again").addEventListener("click", () => this.backToForm());
    $("#ttl-accept").addEventListener("click", () => this.acceptOffer());
    $("#ttl-whatever").addEventListener("click", () => this.whatever());
    $("#ttl-on-my-way").addEventListener("click", () => this.onMyWay());
    $("#ttl-late-go").addEventListener("click", () => this.onMyWay());
    // Escape on the alarm means "not yet": the same as Whatever.
    $("#ttl-alarm").addEventListener("cancel", (e) => { e.preventDefault(); this.whatever(); });
    $("#ttl-late").addEventListener("cancel", (e) => { e.preventDefault(); this.onMyWay(); });
  }

  /** The dataset's time zone (from /health): arrival times are the dataset's local times. */
  setTimeZone(zone) {
    this.zone = zone || "";
    this.setDefaults();
  }

  /** Arrive in about half an hour (rounded up to 5 minutes) unless the user already chose. */
  setDefaults() {
    const input = $("#ttl-arrive");
    if (input.dataset.touched === "1") return;
    const [h, m] = localTime(this.zone, 30 + 4);
    const rounded = h * 60 + Math.floor(m / 5) * 5;
    const day = rounded >= 24 * 60 ? 1 : 0;
    const t = rounded % (24 * 60);
    input.value = `${String(Math.floor(t / 60)).padStart(2, "0")}:${String(t % 60).padStart(2, "0")}`;
    $("#ttl-day").value = String(day);
    if (!input.dataset.bound) {
      input.dataset.bound = "1";
      input.addEventListener("input", () => { input.dataset.touched = "1"; });
    }
  }

  setVisible(on) {
    this.visible = on;
    if (on) this.layer.addTo(this.map); else this.layer.remove();
    if (on && this.state === "form") this.drawPreview();
    else if (on) this.drawRoute({ fit: true });
  }

  /** A long press on the map while the form shows: departure first, then destination. */
  async press(latlng) {
    if (this.state !== "form") return false;
    const role = this.from ? "to" : "from";
    const place = await this.checkPlace(latlng);
    if (place) this.setPlace(role, place);
    return true;
  }

  setPlace(role, place) {
    this[role] = place;
    this.showError("");
    this.sync();
    this.drawPreview();
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

  showError(text, detail = "") {
    const el = $("#ttl-error");
    el.innerHTML = text ? `<strong>${escapeHTML(text)}</strong>${detail ? `<span>${escapeHTML(detail)}</span>` : ""}` : "";
    el.hidden = !text;
    document.body.dataset.ttlError = text ? "1" : "";
    if (text) revealInPanel(el);
  }

  options() {
    return {
      travelMode: document.querySelector('input[name="ttl-mode"]:checked')?.value || "car",
      routeType: $("#ttl-route-type").value,
      preparationTime: Number($("#ttl-prep").value) || 0,
    };
  }

  // ---- the form -> a watch ----------------------------------------------------------------------

  async start() {
    if (!this.from) { this.showError("Choose where you're leaving from."); $("#ttl-from-input").focus(); return; }
    if (!this.to) { this.showError("Choose where you're going."); $("#ttl-to-input").focus(); return; }
    const time = $("#ttl-arrive").value;
    if (!/^\d{2}:\d{2}$/.test(time)) { this.showError("Choose when you need to arrive."); $("#ttl-arrive").focus(); return; }
    const date = localDate(this.zone, Number($("#ttl-day").value) || 0);
    const o = this.options();
    const ll = (p) => ({ lat: +p.latlng.lat.toFixed(6), lon: +p.latlng.lng.toFixed(6) });
    const body = {
      origin: ll(this.from), destination: ll(this.to), arriveAt: `${date}T${time}`,
      travelMode: o.travelMode, routeType: o.routeType, preparationTime: o.preparationTime, traffic: true,
    };
    this.showError("");
    const button = $("#ttl-start");
    button.disabled = true;
    document.body.dataset.ttlState = "starting";
    try {
      const watch = await api.createWatch(body);
      this.trip = { from: this.from, to: this.to };
      this.begin(watch);
    } catch (err) {
      document.body.dataset.ttlState = "form";
      this.showError(...this.errorWords(err));
    } finally {
      button.disabled = false;
    }
  }

  /** [headline, detail] for a refused watch: the seed's sentence, and why in plain words. */
  errorWords(err) {
    if (!(err instanceof api.ApiError)) return ["Something went wrong. Please try again.", ""];
    if (/satisfying requested time/i.test(err.message)) return [err.message, humanDetail(err.detail)];
    if (err.status === 404) return ["This server doesn't offer Time to leave yet.", ""];
    const text = api.friendly(err, "route");
    return [text, humanDetail(err.detail)];
  }

  /** Shows the countdown for a watch document and follows its events. */
  begin(watch, { resumed = false } = {}) {
    this.closeEvents();
    this.clock.reset();
    this.clock.observe(watch.now);
    this.watch = watch;
    this.seenEvent = watch.lastEventId || 0;
    this.alarmDone = false;
    this.routeKey = "";
    this.state = "watch";
    this.outcome = "";
    this.lateWhenLeaving = 0;
    this.sync();
    this.remember();
    this.render();
    this.drawRoute({ fit: true });
    this.setStatus(resumed ? "Countdown resumed." : "Watching traffic: the time to leave is checked every minute.");
    clearInterval(this.timer);
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.openEvents();
    if (sheet.isPhone() && sheet.state() === "collapsed") sheet.set("normal");
  }

  openEvents() {
    const id = this.watch.id;
    const es = new EventSource(api.watchEventsURL(id));
    this.events = es;
    let opened = 0;
    es.addEventListener("open", () => {
      // After a reconnection, the document in hand may be stale: read the watch as it stands.
      if (opened++ > 0) api.getWatch(id).then((w) => this.update(w, null)).catch(() => {});
    });
    for (const type of ["plan", "traffic-change", "no-change", "time-to-leave", "late", "expired"]) {
      es.addEventListener(type, (e) => {
        if (this.events !== es) return;
        let doc;
        try { doc = JSON.parse(e.data); } catch { return; }
        this.update(doc, type);
      });
    }
    es.addEventListener("error", () => {
      // EventSource reconnects by itself; a 204 (the watch is over) closes it for good.
      if (es.readyState === EventSource.CLOSED && this.events === es && this.state === "watch") {
        api.getWatch(id).then((w) => this.update(w, null)).catch((err) => {
          if (err.status === 404) this.ended("This countdown has ended.");
        });
      }
    });
  }

  closeEvents() {
    this.events?.close();
    this.events = null;
  }

  /** A newer document: from an event (`type`) or a plain read (null). */
  update(doc, type) {
    if (!doc || this.state !== "watch" || doc.id !== this.watch?.id) return;
    const fresh = (doc.event?.id ?? doc.lastEventId ?? 0) > this.seenEvent;
    if (type && !fresh) return; // the current state, sent again when the stream (re)opens
    this.clock.observe(doc.now);
    this.watch = doc;
    if (type) this.seenEvent = doc.event.id;
    this.render();
    this.drawRoute({ fit: false });
    this.remember();
    const ev = doc.event || {};
    const at = formatClock(ev.at || doc.now);
    document.body.dataset.ttlEvents = String(Number(document.body.dataset.ttlEvents || 0) + (type ? 1 : 0));
    switch (type) {
      case "traffic-change":
        // The seed's toast, word for word, with what it means beside it.
        toast(sentence(ev.friendlyMessage), { kind: "traffic", title: ev.message, timeout: 8000 });
        this.setStatus(`Traffic changed at ${at}. ${sentence(ev.friendlyMessage)}`);
        document.body.dataset.ttlTrafficChanges = String(Number(document.body.dataset.ttlTrafficChanges || 0) + 1);
        break;
      case "no-change":
        this.setStatus(`Traffic checked at ${at}: no change.`);
        break;
      case "late":
        toast(sentence(ev.friendlyMessage), { kind: "traffic", title: ev.message, timeout: 8000 });
        this.setStatus(`Checked at ${at}: ${sentence(ev.message)}`);
        break;
      case "plan":
        if (ev.routeChanged) this.setStatus(`${sentence(ev.message)} ${sentence(ev.friendlyMessage)}`);
        break;
      case "time-to-leave":
        this.alarm();
        break;
      case "expired":
        this.ended(sentence(ev.friendlyMessage) || "The arrival time has passed.");
        break;
      default:
        break;
    }
  }

  setStatus(text) { $("#ttl-status").textContent = text; }

  // ---- the countdown ----------------------------------------------------------------------------

  secondsLeft() {
    const w = this.watch;
    if (!w?.departureTime) return 0;
    return (Date.parse(w.departureTime) - this.clock.now()) / 1000;
  }

  tick() {
    if (this.state !== "watch") return;
    this.renderClock();
    if (!this.alarmDone && this.watch?.departureTime && this.secondsLeft() <= 0) this.alarm();
    if ($("#ttl-late").open) this.renderLate();
  }

  render() {
    const w = this.watch;
    if (!w) return;
    const mode = w.travelMode;
    $("#ttl-travel").textContent = w.travelTimeInSeconds != null ? formatDuration(w.travelTimeInSeconds) : "–";
    const delay = w.trafficDelayInSeconds || 0;
    const delayEl = $("#ttl-delay");
    if (mode === "pedestrian" || mode === "bicycle") {
      delayEl.textContent = "No traffic";
      delayEl.className = "";
    } else {
      delayEl.textContent = delay >= 30 ? `+${formatDuration(delay)}` : "None";
      delayEl.className = delay >= 60 ? "has-delay" : "no-delay";
    }
    $("#ttl-distance").textContent = w.lengthInMeters != null ? formatDistance(w.lengthInMeters) : "–";
    const arrive = formatClock(w.arriveAt);
    const expected = this.expectedArrival();
    $("#ttl-leave-at").innerHTML = this.outcome === "on-my-way" && this.state === "done"
      ? (expected.late ? `Arriving around <strong>${expected.at}</strong>, ${formatSpan(expected.late)} late`
        : `Arriving by <strong>${arrive}</strong>`)
      : w.status === "late" && w.lateBySeconds
        ? `Leave now to arrive around <strong>${this.expectedArrival(1).at}</strong>, not by <strong>${arrive}</strong>`
        : w.departureTime
        ? `Leave at <strong>${formatClock(w.departureTime)}</strong> to arrive by <strong>${arrive}</strong>`
        : `Arrive by <strong>${arrive}</strong>`;
    $("#ttl-ready-at").textContent = w.preparationTime > 0 && w.prepareBy && this.state === "watch" && w.status !== "late"
      ? `Start getting ready at ${formatClock(w.prepareBy)}` : "";
    $("#ttl-trip-from").textContent = this.trip?.from?.label || w.origin?.name || "Departure";
    $("#ttl-trip-to").textContent = this.trip?.to?.label || w.destination?.name || "Destination";
    $("#ttl-trip-meta").textContent = `${MODE_WORDS[mode] || mode}, ${TYPE_WORDS[w.routeType] || w.routeType}` +
      (w.arrivalTime ? ` · arriving ${formatClock(w.arrivalTime)}` : "");
    const offer = this.state === "watch" ? w.betterRoute : null;
    $("#ttl-offer").hidden = !offer;
    if (offer) $("#ttl-offer-text").textContent = `${offer.message} (${formatDuration(offer.travelTimeInSeconds)} on the road).`;
    document.title = w.departureTime ? `Leave at ${formatClock(w.departureTime)} · Wayfinder` : "Wayfinder";
    document.body.dataset.ttlStatus = w.status || "";
    this.renderClock();
  }

  renderClock() {
    const w = this.watch;
    if (!w) return;
    const card = $("#ttl-card");
    const left = this.secondsLeft();
    const nowMs = this.clock.now();
    const prepLeft = w.prepareBy ? (Date.parse(w.prepareBy) - nowMs) / 1000 : 0;
    let status, kicker;
    if (this.state === "done" && this.outcome === "on-my-way") { status = "done"; kicker = "Safe travels!"; }
    else if (this.state === "done" || w.status === "expired") { status = "expired"; kicker = "This trip has ended"; }
    else if (w.status === "late" && w.lateBySeconds) { status = "late"; kicker = `Leave now: you'll be ${formatSpan(this.lateSeconds())} late`; }
    else if (left <= 0) { status = "leave"; kicker = "Time to leave!"; }
    else if (w.preparationTime > 0 && prepLeft <= 0) { status = "ready"; kicker = "Get ready · leave in"; }
    else { status = "waiting"; kicker = "Leave in"; }
    card.dataset.status = status;
    $("#ttl-kicker").textContent = kicker;
    const text = status === "done" ? "On your way" : status === "expired" ? "Ended" : formatCountdown(left);
    const clock = $("#ttl-clock");
    if (clock.textContent !== text) {
      clock.textContent = text;
      clock.setAttribute("aria-label", status === "done" || status === "expired" ? text : left > 0 ? `Leave in ${formatDuration(left)}` : "Leave now");
    }
    document.body.dataset.ttlSecondsLeft = String(Math.max(0, Math.round(left)));
  }

  // ---- the map ----------------------------------------------------------------------------------

  routeLatLngs(route) {
    const out = [];
    for (const leg of route?.legs || []) {
      for (const p of leg.points || []) {
        const last = out[out.length - 1];
        if (!last || last.lat !== p.latitude || last.lng !== p.longitude) out.push(L.latLng(p.latitude, p.longitude));
      }
    }
    return out;
  }

  pin(role, latlng, title) {
    const html = role === "from"
      ? '<svg viewBox="0 0 26 26" width="26" height="26"><circle cx="13" cy="13" r="9.5" fill="#fff" stroke="#0f9d58" stroke-width="5"/></svg>'
      : '<svg viewBox="0 0 30 40" width="30" height="40"><path d="M15 39s12-12.4 12-23.5a12 12 0 0 0-24 0C3 26.6 15 39 15 39z" fill="#d93025" stroke="#fff" stroke-width="2"/><circle cx="15" cy="15.5" r="4.6" fill="#fff"/></svg>';
    const icon = role === "from"
      ? L.divIcon({ className: "wf-pin wf-ttl-from", iconSize: [26, 26], iconAnchor: [13, 13], html })
      : L.divIcon({ className: "wf-pin wf-ttl-to", iconSize: [30, 40], iconAnchor: [15, 38], html });
    return L.marker(latlng, { icon, title, alt: title, keyboard: false, zIndexOffset: role === "from" ? 1000 : 1100 });
  }

  /** The chosen places, before there is a route. */
  drawPreview() {
    if (this.state !== "form") return;
    this.layer.clearLayers();
    const pts = [];
    if (this.from) { this.pin("from", this.from.latlng, `Leaving from ${this.from.label}`).addTo(this.layer); pts.push(this.from.latlng); }
    if (this.to) { this.pin("to", this.to.latlng, `Going to ${this.to.label}`).addTo(this.layer); pts.push(this.to.latlng); }
    if (this.visible && pts.length === 2) fitTo(this.map, L.latLngBounds(pts), { maxZoom: 16 });
    else if (this.visible && pts.length === 1) this.map.panTo(pts[0]);
  }

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
  }

  // ---- better route -----------------------------------------------------------------------------

  async acceptOffer() {
    if (!this.watch) return;
    try {
      const w = await api.acceptBetterRoute(this.watch.id);
      this.update(w, null);
      this.drawRoute({ fit: true });
      toast("You're on the new route.", { timeout: 4000 });
    } catch (err) {
      toast(api.friendly(err), { kind: "error", title: "Route not changed" });
    }
  }

  // ---- zero: Time's UP! ------------------------------------------------------------------------

  alarm() {
    if (this.alarmDone || this.state !== "watch") return;
    this.alarmDone = true;
    this.renderClock();
    const w = this.watch;
    $("#ttl-alarm-sub").textContent = w?.arriveAt
      ? `Leave now to arrive at ${this.trip?.to?.label || "your destination"} by ${formatClock(w.arriveAt)}.` : "";
    const dialog = $("#ttl-alarm");
    if (!dialog.open) dialog.showModal();
    document.body.dataset.ttlAlarm = "1";
  }

  /** "Whatever": not leaving yet — how late will that be? */
  whatever() {
    $("#ttl-alarm").close();
    this.renderLate();
    const dialog = $("#ttl-late");
    if (!dialog.open) dialog.showModal();
  }

  /** How late leaving now arrives: the server's figure when it has one, counted on from then. */
  lateSeconds() {
    const w = this.watch;
    if (!w?.departureTime) return 0;
    const now = this.clock.now();
    if (w.lateBySeconds) return w.lateBySeconds + Math.max(0, (now - Date.parse(w.now)) / 1000);
    return Math.max(0, (now - Date.parse(w.departureTime)) / 1000);
  }

  /** {late: seconds (0 when on time), at: "HH:MM"}: when the user, leaving now (or when they left), gets there. */
  expectedArrival(minLate = 30) {
    const w = this.watch;
    const late = this.state === "done" ? this.lateWhenLeaving || 0 : this.lateSeconds();
    if (!w?.arriveAt || late < minLate) return { late: 0, at: formatClock(w?.arriveAt) };
    const at = new Date(Date.parse(w.arriveAt) + late * 1000);
    let text;
    try {
      text = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: this.zone || undefined }).format(at);
    } catch {
      text = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
    }
    return { late, at: text };
  }

  renderLate() {
    const w = this.watch;
    const late = this.lateSeconds();
    const el = $("#ttl-late-by");
    const text = late < 1 ? "Not late yet" : late < 60 ? `${Math.floor(late)} s late` : `${formatCountdown(late)} late`;
    if (el.textContent !== text) el.textContent = text;
    $("#ttl-late-text").textContent = late < 1
      ? "Leave now and you'll still make it."
      : `Leave now and you'll reach ${this.trip?.to?.label || "your destination"} around ${this.expectedArrival(1).at}, ${formatSpan(late)} after ${formatClock(w.arriveAt)}. The longer you wait, the later you'll be.`;
    document.body.dataset.ttlLateSeconds = String(Math.round(late));
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

  // ---- surviving a reload -------------------------------------------------------------------------

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
