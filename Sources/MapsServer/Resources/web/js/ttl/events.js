// Time to leave, the events: the watch document followed over Server-Sent Events, a toast for
// each traffic change, and the better route taken when offered.

import * as api from "../api.js";
import { $, toast, sheet } from "../ui.js";
import { formatClock } from "../format.js";
import { sentence } from "./clock.js";

const TICK_MS = 200;

export const beginMethods = {
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
  },

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
  },

  closeEvents() {
    this.events?.close();
    this.events = null;
  },

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
  },

  setStatus(text) { $("#ttl-status").textContent = text; },

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
  },
};
