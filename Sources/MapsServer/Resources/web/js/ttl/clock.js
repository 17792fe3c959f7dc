// Time to leave: the server's clock, and the countdown's arithmetic and wording of times.

import { formatDuration } from "../format.js";

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

/** 754 → "12:34", 4000 → "1:06:40", negatives → "0:00". */
export function formatCountdown(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (v) => String(v).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

/** "45 s", "2 min", "1 h 5 min": how late, or how much earlier (seconds count when small). */
export function formatSpan(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : formatDuration(s);
}

/** The server's detail in plain words: RFC 3339 times become clock times, first letter capitalised. */
export function humanDetail(detail) {
  if (!detail) return "";
  let t = detail.replace(/\d{4}-\d{2}-\d{2}T(\d{2}):(\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?/g, "$1:$2")
    .replace(/^the arrival time (\d{2}:\d{2}) has passed$/, "the arrival time you chose, $1, has already passed");
  t = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(t) ? t : t + ".";
}

/** Ends a sentence with a full stop unless it has one. */
export const sentence = (t) => (t && !/[.!?]$/.test(t) ? t + "." : t || "");

/** "2026-11-29" in `zone` for the device's date plus `days`. */
export function localDate(zone, days = 0) {
  const d = new Date(Date.now() + days * 86_400_000);
  try {
    return new Intl.DateTimeFormat("en-CA", { timeZone: zone || undefined, year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
  } catch {
    return new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
  }
}

/** [hours, minutes] in `zone` for the device's clock plus `minutes`. */
export function localTime(zone, minutes = 0) {
  const d = new Date(Date.now() + minutes * 60_000);
  const opts = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  let text;
  try { text = new Intl.DateTimeFormat("en-GB", { ...opts, timeZone: zone || undefined }).format(d); } catch { text = new Intl.DateTimeFormat("en-GB", opts).format(d); }
  const [h, m] = text.split(":").map(Number);
  return [h, m];
}
