// Time to leave, the countdown: seconds to the moment to leave by the server's clock, "Time's UP!"
// at zero, and how late "Whatever" makes the traveller.

import { $ } from "../ui.js";
import { formatDuration, formatClock } from "../format.js";
import { formatCountdown, formatSpan } from "./clock.js";

export const secondsLeftMethods = {
  secondsLeft() {
    const w = this.watch;
    if (!w?.departureTime) return 0;
    return (Date.parse(w.departureTime) - this.clock.now()) / 1000;
  },

  tick() {
    if (this.state !== "watch") return;
    this.renderClock();
    if (!this.alarmDone && this.watch?.departureTime && this.secondsLeft() <= 0) this.alarm();
    if ($("#ttl-late").open) this.renderLate();
  },

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
  },

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
  },

  /** "Whatever": not leaving yet — how late will that be? */
  whatever() {
    $("#ttl-alarm").close();
    this.renderLate();
    const dialog = $("#ttl-late");
    if (!dialog.open) dialog.showModal();
  },

  /** How late leaving now arrives: the server's figure when it has one, counted on from then. */
  lateSeconds() {
    const w = this.watch;
    if (!w?.departureTime) return 0;
    const now = this.clock.now();
    if (w.lateBySeconds) return w.lateBySeconds + Math.max(0, (now - Date.parse(w.now)) / 1000);
    return Math.max(0, (now - Date.parse(w.departureTime)) / 1000);
  },

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
  },

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
  },
};
