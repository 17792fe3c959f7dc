// Local search (seed 002): places near the map centre, listed with names, addresses and phone
// numbers, each with "Directions from my location".

import * as api from "./api.js";
import { $, $$ } from "./ui.js";
import { fitTo, visibleCenter } from "./mapview.js";
import { escapeHTML, formatDistance, ICONS } from "./format.js";

/* global L */

export const PLACE_CATEGORIES = {
  restaurant: { query: "restaurant", categorySet: 7315, label: "restaurants" },
  cafe: { query: "cafe", categorySet: 9376, label: "cafés" },
  pharmacy: { query: "pharmacy", categorySet: 7326, label: "pharmacies" },
  atm: { query: "atm", categorySet: 7397, label: "ATMs" },
  hotel: { query: "hotel", categorySet: 7314, label: "hotels" },
  parking: { query: "parking", categorySet: 7369, label: "parking places" },
};

export class Places {
  /** directions(place) is called for "Directions from my location". */
  constructor(map, { directions }) {
    this.map = map;
    this.directions = directions;
    this.results = [];
    this.seq = 0;
    this.layer = L.layerGroup().addTo(map);
    this.activeIndex = -1;

    $("#places-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const q = $("#places-input").value.trim();
      if (q) this.search({ query: q });
    });
    for (const b of $$("[data-category]")) b.addEventListener("click", () => this.search({ category: b.dataset.category }));
    $("#places-list").addEventListener("click", (e) => {
      const show = e.target.closest("[data-show-place]");
      if (show) this.focus(Number(show.dataset.showPlace));
      const dir = e.target.closest("[data-directions]");
      if (dir) this.directions(this.place(Number(dir.dataset.directions)));
    });
    map.getContainer().addEventListener("click", (e) => {
      const dir = e.target.closest("[data-popup-directions]");
      if (dir) this.directions(this.place(Number(dir.dataset.popupDirections)));
    });
  }

  /** The result as the planner takes it. */
  place(i) {
    const r = this.results[i];
    const name = r.poi?.name || r.address?.freeformAddress || "Place";
    return {
      latlng: L.latLng(r.position.lat, r.position.lon), label: name,
      sub: r.address?.freeformAddress && r.address.freeformAddress !== name ? r.address.freeformAddress : "",
    };
  }

  setVisible(on) {
    if (on) this.layer.addTo(this.map); else this.layer.remove();
  }

  async search({ query, category }) {
    const cat = category ? PLACE_CATEGORIES[category] : null;
    const near = visibleCenter(this.map);
    const seq = ++this.seq;
    for (const b of $$("[data-category]")) b.setAttribute("aria-pressed", b.dataset.category === category ? "true" : "false");
    if (cat) $("#places-input").value = "";
    const status = $("#places-status");
    status.classList.remove("is-error");
    status.textContent = `Searching for ${cat ? cat.label : `“${query}”`} near the map centre…`;
    document.body.dataset.placesState = "loading";
    try {
      const data = cat
        ? await api.categorySearch(cat.query, { near, limit: 20, categorySet: cat.categorySet })
        : await api.search(query, { near, limit: 20 });
      if (seq !== this.seq) return;
      this.results = (data?.results || []).filter((r) => r.position);
      this.render(cat ? cat.label : `“${query}”`);
      document.body.dataset.placesState = "ready";
    } catch (err) {
      if (seq !== this.seq) return;
      this.results = [];
      this.render("");
      status.textContent = api.friendly(err, "search");
      status.classList.add("is-error");
      document.body.dataset.placesState = "error";
    }
    document.body.dataset.placesCount = String(this.results.length);
  }

  render(what) {
    const list = $("#places-list");
    this.layer.clearLayers();
    this.activeIndex = -1;
    const n = this.results.length;
    $("#places-status").textContent = what ? (n ? `${n} result${n === 1 ? "" : "s"} for ${what} near the map centre.` : `No ${what} found near the map centre. Move the map and try again.`) : "";
    list.innerHTML = this.results.map((r, i) => {
      const name = r.poi?.name || r.address?.freeformAddress || "Unnamed place";
      const category = r.poi?.categories?.[0] || (r.type && r.type !== "POI" ? r.type : "");
      const address = r.address?.freeformAddress && r.address.freeformAddress !== name ? r.address.freeformAddress : "";
      const phone = r.poi?.phone;
      return `<li class="place" data-place="${i}">
        <span class="wf-place" aria-hidden="true">${i + 1}</span>
        <div class="place-body">
          <button type="button" class="place-name" data-show-place="${i}" aria-label="Show ${escapeHTML(name)} on the map">${escapeHTML(name)}</button>
          ${category || Number.isFinite(r.dist) ? `<div class="place-cat">${category ? `<span class="cap">${escapeHTML(category)}</span>` : ""}${category && Number.isFinite(r.dist) ? " · " : ""}${Number.isFinite(r.dist) ? `${formatDistance(r.dist)} away` : ""}</div>` : ""}
          ${address ? `<div class="place-address">${escapeHTML(address)}</div>` : ""}
          ${phone ? `<div class="place-phone"><a href="tel:${escapeHTML(phone.replace(/\s/g, ""))}">${escapeHTML(phone)}</a></div>` : ""}
        </div>
        <div class="place-actions">
          <button type="button" class="btn btn-secondary btn-small" data-directions="${i}">${ICONS.directions} Directions from my location</button>
        </div>
      </li>`;
    }).join("");
    this.results.forEach((r, i) => {
      const name = r.poi?.name || r.address?.freeformAddress || "Place";
      const m = L.marker([r.position.lat, r.position.lon], {
        icon: L.divIcon({ className: "", iconSize: [26, 26], iconAnchor: [13, 13], popupAnchor: [0, -12], html: `<div class="wf-place">${i + 1}</div>` }),
        title: name, alt: name, riseOnHover: true,
      });
      m.bindPopup(() => this.popup(i), { maxWidth: 300, minWidth: 220 });
      m.on("popupopen", () => this.markActive(i, false));
      m.addTo(this.layer);
      r._marker = m;
    });
    if (n) fitTo(this.map, L.latLngBounds(this.results.map((r) => [r.position.lat, r.position.lon])), { maxZoom: 17 });
  }

  popup(i) {
    const r = this.results[i];
    const name = r.poi?.name || r.address?.freeformAddress || "Unnamed place";
    const address = r.address?.freeformAddress && r.address.freeformAddress !== name ? r.address.freeformAddress : "";
    const phone = r.poi?.phone;
    return `<div class="popup">
      ${r.poi?.categories?.[0] ? `<p class="popup-kicker">${escapeHTML(r.poi.categories[0])}</p>` : ""}
      <p class="popup-title">${escapeHTML(name)}</p>
      ${address ? `<p class="popup-address">${escapeHTML(address)}</p>` : ""}
      ${phone ? `<p class="popup-meta"><span>${ICONS.phone}<a href="tel:${escapeHTML(phone.replace(/\s/g, ""))}">${escapeHTML(phone)}</a></span></p>` : ""}
      <button type="button" class="btn btn-primary" data-popup-directions="${i}">${ICONS.directions} Directions from my location</button>
    </div>`;
  }

  focus(i) {
    const r = this.results[i];
    if (!r) return;
    this.map.setView([r.position.lat, r.position.lon], Math.max(this.map.getZoom(), 17));
    r._marker?.openPopup();
    this.markActive(i, true);
  }

  markActive(i) {
    this.activeIndex = i;
    for (const li of $$("#places-list .place")) li.classList.toggle("is-active", Number(li.dataset.place) === i);
    this.results.forEach((r, k) => r._marker?.getElement?.()?.querySelector(".wf-place")?.classList.toggle("is-active", k === i));
  }

  clear() {
    this.seq++;
    this.results = [];
    this.layer.clearLayers();
    $("#places-list").innerHTML = "";
    for (const b of $$("[data-category]")) b.setAttribute("aria-pressed", "false");
    $("#places-status").textContent = "Search for a name, an address or a kind of place near the centre of the map.";
    $("#places-status").classList.remove("is-error");
  }
}

// ---- the user's location ------------------------------------------------------------------------

/** Resolves to an L.LatLng, or rejects with a sentence saying why there is none. */
export function locate({ timeout = 8000 } = {}) {
  return new Promise((resolve, reject) => {
    if (!("geolocation" in navigator)) { reject(new Error("This browser can't tell where you are.")); return; }
    let settled = false;
    const timer = setTimeout(() => { if (!settled) { settled = true; reject(new Error("Finding your location took too long.")); } }, timeout + 500);
    navigator.geolocation.getCurrentPosition(
      (pos) => { if (settled) return; settled = true; clearTimeout(timer); resolve(L.latLng(pos.coords.latitude, pos.coords.longitude)); },
      (err) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(new Error(err.code === 1 ? "Location access is turned off for this site." : "Your location isn't available right now."));
      },
      { enableHighAccuracy: true, timeout, maximumAge: 60000 },
    );
  });
}

