// Time to leave, the card: travel time, traffic delay, distance, when to leave and get ready.

import { $ } from "../ui.js";
import { formatDuration, formatDistance, formatClock } from "../format.js";
import { formatSpan } from "./clock.js";

const MODE_WORDS = { car: "By car", taxi: "By taxi", bicycle: "By bike", pedestrian: "On foot" };
const TYPE_WORDS = { fastest: "fastest route", shortest: "shortest route", eco: "eco route", thrilling: "thrilling route" };

export const renderMethods = {
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
  },
};
