// Page chrome: the loading indicator, toasts, tabs, the bottom sheet on phones, the help dialog.

import { escapeHTML, ICONS } from "./format.js";

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

// ---- loading indicator ------------------------------------------------------------------------

let inFlight = 0;
/** Marks one request as running; returns the function that marks it done. */
export function busy() {
  inFlight++;
  sync();
  let done = false;
  return () => { if (!done) { done = true; inFlight--; sync(); } };
}
function sync() {
  document.body.classList.toggle("is-busy", inFlight > 0);
  document.body.dataset.busy = inFlight > 0 ? "1" : "0";
  $("#panel")?.setAttribute("aria-busy", inFlight > 0 ? "true" : "false");
}

// ---- toasts -----------------------------------------------------------------------------------

/** Shows a message at the top of the map. kind: "info" | "error". Returns a function that hides it. */
export function toast(text, { kind = "info", title = "", timeout = 6000, action } = {}) {
  if (!text) return () => {};
  const host = $("#toasts");
  // One message of a kind at a time: a newer error replaces an older one.
  for (const old of $$(`.toast[data-kind="${kind}"]`, host)) old.remove();
  const el = document.createElement("div");
  el.className = `toast ${kind === "error" ? "is-error" : ""}`;
  el.dataset.kind = kind;
  el.setAttribute("role", kind === "error" ? "alert" : "status");
  el.innerHTML = `<span class="toast-icon">${kind === "error" ? ICONS.error : ICONS.info}</span>
    <span class="toast-text">${title ? `<span class="toast-title">${escapeHTML(title)}</span>` : ""}${escapeHTML(text)}</span>
    ${action ? `<button type="button" class="toast-action">${escapeHTML(action.label)}</button>` : ""}
    <button type="button" class="toast-close" aria-label="Dismiss">${ICONS.close}</button>`;
  const hide = () => el.remove();
  el.querySelector(".toast-close").addEventListener("click", hide);
  if (action) el.querySelector(".toast-action").addEventListener("click", () => { hide(); action.run(); });
  host.appendChild(el);
  if (timeout) setTimeout(hide, timeout);
  return hide;
}

// ---- tabs (WAI-ARIA tabs pattern: arrow keys move between tabs) ---------------------------------

export function initTabs(onChange) {
  const tabs = $$('[role="tab"]');
  const select = (tab, focus = false) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
      $("#" + t.getAttribute("aria-controls")).hidden = !on;
    }
    if (focus) tab.focus();
    onChange?.(tab.id.replace("tab-", ""));
  };
  for (const t of tabs) {
    t.addEventListener("click", () => select(t));
    t.addEventListener("keydown", (e) => {
      const i = tabs.indexOf(t);
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      select(tabs[(next + tabs.length) % tabs.length], true);
    });
  }
  return { show: (name) => select($(`#tab-${name}`)) };
}

// ---- bottom sheet (phones) --------------------------------------------------------------------

export const sheet = {
  isPhone: () => window.matchMedia("(max-width: 720px)").matches,
  set(state) { // "collapsed" | "normal" | "expanded"
    const panel = $("#panel"), handle = $("#sheet-handle");
    panel.classList.toggle("is-expanded", state === "expanded");
    panel.classList.toggle("is-collapsed", state === "collapsed");
    handle.setAttribute("aria-expanded", state === "expanded" ? "true" : "false");
    handle.setAttribute("aria-label", state === "expanded" ? "Shrink the panel" : "Expand the panel");
  },
  state() {
    const panel = $("#panel");
    return panel.classList.contains("is-expanded") ? "expanded" : panel.classList.contains("is-collapsed") ? "collapsed" : "normal";
  },
};

export function initSheet(onResize) {
  const panel = $("#panel");
  $("#sheet-handle").addEventListener("click", () => {
    sheet.set({ normal: "expanded", expanded: "collapsed", collapsed: "normal" }[sheet.state()]);
  });
  // Keep the map's bottom controls (attribution) above the sheet.
  const update = () => {
    const h = sheet.isPhone() ? panel.getBoundingClientRect().height : 0;
    document.documentElement.style.setProperty("--sheet-h", `${Math.round(h)}px`);
    onResize?.();
  };
  new ResizeObserver(update).observe(panel);
  window.addEventListener("resize", update);
  update();
}

/** Scrolls the panel (not the page) so that `el` is in view. */
export function revealInPanel(el, { block = "nearest" } = {}) {
  const body = $("#panel-body");
  if (!el || !body) return;
  const r = el.getBoundingClientRect(), b = body.getBoundingClientRect();
  let top = body.scrollTop;
  if (block === "start" || r.top < b.top) top += r.top - b.top - 8;
  else if (r.bottom > b.bottom) top += r.bottom - b.bottom + 12;
  else return;
  body.scrollTo({ top, behavior: "smooth" });
}

// ---- help dialog ------------------------------------------------------------------------------

export function initHelp() {
  const dialog = $("#help-dialog");
  $("#help-btn").addEventListener("click", () => dialog.showModal());
  dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); }); // backdrop
}
