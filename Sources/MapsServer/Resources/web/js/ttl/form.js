// Time to leave, the form: departure and destination with typeahead, travel mode, route type,
// arrival and preparation time; its checks, and the request that starts a watch.

import * as api from "../api.js";
import { $, $$, toast, revealInPanel } from "../ui.js";
import { attachSuggest } from "../suggest.js";
import { locate } from "../places.js";
import { escapeHTML } from "../format.js";
import { humanDetail, localDate, localTime } from "./clock.js";

export const bindMethods = {
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
  },

  /** The dataset's time zone (from /health): arrival times are the dataset's local times. */
  setTimeZone(zone) {
    this.zone = zone || "";
    this.setDefaults();
  },

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
  },

  /** A long press on the map while the form shows: departure first, then destination. */
  async press(latlng) {
    if (this.state !== "form") return false;
    const role = this.from ? "to" : "from";
    const place = await this.checkPlace(latlng);
    if (place) this.setPlace(role, place);
    return true;
  },

  setPlace(role, place) {
    this[role] = place;
    this.showError("");
    this.sync();
    this.drawPreview();
  },

  showError(text, detail = "") {
    const el = $("#ttl-error");
    el.innerHTML = text ? `<strong>${escapeHTML(text)}</strong>${detail ? `<span>${escapeHTML(detail)}</span>` : ""}` : "";
    el.hidden = !text;
    document.body.dataset.ttlError = text ? "1" : "";
    if (text) revealInPanel(el);
  },

  options() {
    return {
      travelMode: document.querySelector('input[name="ttl-mode"]:checked')?.value || "car",
      routeType: $("#ttl-route-type").value,
      preparationTime: Number($("#ttl-prep").value) || 0,
    };
  },

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
  },

  /** [headline, detail] for a refused watch: the seed's sentence, and why in plain words. */
  errorWords(err) {
    if (!(err instanceof api.ApiError)) return ["Something went wrong. Please try again.", ""];
    if (/satisfying requested time/i.test(err.message)) return [err.message, humanDetail(err.detail)];
    if (err.status === 404) return ["This server doesn't offer Time to leave yet.", ""];
    const text = api.friendly(err, "route");
    return [text, humanDetail(err.detail)];
  },
};
