// Typeahead for the starting point and destination boxes (TomTom's "Time to leave" pattern: three
// characters or more, plus "Your location"). Follows the WAI-ARIA combobox pattern.

import * as api from "./api.js";
import { visibleCenter } from "./mapview.js";
import { escapeHTML, ICONS } from "./format.js";

/* global L */

const MIN_CHARS = 3;

export function attachSuggest(input, list, { map, onPick, onMyLocation, currentLabel }) {
  let items = [], active = -1, timer = 0, seq = 0;

  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  };
  const render = (note = "") => {
    list.innerHTML = items.map((it, i) => `<li role="option" id="${list.id}-${i}" data-i="${i}" aria-selected="${i === active}">
        <span class="sg-icon">${it.icon}</span><span><span class="sg-main">${escapeHTML(it.main)}</span>
        ${it.sub ? `<span class="sg-sub"><br>${escapeHTML(it.sub)}</span>` : ""}</span></li>`).join("") +
      (note ? `<li class="sg-empty" role="presentation">${escapeHTML(note)}</li>` : "");
    list.hidden = items.length === 0 && !note;
    input.setAttribute("aria-expanded", list.hidden ? "false" : "true");
    if (active >= 0) input.setAttribute("aria-activedescendant", `${list.id}-${active}`);
    else input.removeAttribute("aria-activedescendant");
  };
  const myLocation = () => ("geolocation" in navigator ? [{ main: "Your location", sub: "", icon: ICONS.locate, mine: true }] : []);

  const query = async () => {
    const q = input.value.trim();
    const mine = seq;
    if (q.length < MIN_CHARS) { items = myLocation(); active = -1; render(q ? "Type at least 3 characters" : ""); return; }
    try {
      const data = await api.search(q, { near: visibleCenter(map), limit: 6, typeahead: true }, { quiet: true });
      if (mine !== seq) return;
      items = myLocation().concat((data?.results || []).filter((r) => r.position).map((r) => {
        const name = r.poi?.name;
        const addr = r.address?.freeformAddress || "";
        const [first, ...rest] = addr.split(",");
        return {
          main: name || first.trim() || q, sub: name ? addr : rest.join(",").trim(),
          icon: ICONS.pin, latlng: L.latLng(r.position.lat, r.position.lon),
        };
      }));
      active = items.length > 1 ? 1 : -1;
      render(items.length <= myLocation().length ? "No matching places or addresses" : "");
    } catch (err) {
      if (mine !== seq) return;
      items = myLocation();
      active = -1;
      render(api.friendly(err, "search"));
    }
  };

  const pick = (i) => {
    const it = items[i];
    if (!it) return;
    close();
    if (it.mine) { onMyLocation(); return; }
    input.value = it.main;
    onPick({ latlng: it.latlng, label: it.main, sub: it.sub });
  };

  input.addEventListener("input", () => { seq++; clearTimeout(timer); timer = setTimeout(query, 220); });
  input.addEventListener("focus", () => { input.select(); if (!input.value) { items = myLocation(); render(); } });
  input.addEventListener("blur", () => { setTimeout(() => { close(); input.value = currentLabel() || ""; }, 150); });
  input.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (list.hidden) { query(); return; }
      const n = items.length;
      if (!n) return;
      active = e.key === "ArrowDown" ? (active + 1) % n : (active - 1 + n) % n;
      render();
      list.querySelector(`[data-i="${active}"]`)?.scrollIntoView({ block: "nearest" });
    } else if (e.key === "Enter") {
      if (!list.hidden && active >= 0) { e.preventDefault(); pick(active); }
    } else if (e.key === "Escape") {
      close();
      input.value = currentLabel() || "";
    }
  });
  list.addEventListener("mousedown", (e) => e.preventDefault()); // keep focus in the input
  list.addEventListener("click", (e) => {
    const li = e.target.closest("[data-i]");
    if (li) pick(Number(li.dataset.i));
  });
}
