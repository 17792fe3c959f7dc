// Formatting and small drawing helpers: durations, distances, clock times, HTML escaping,
// maneuver and category icons (inline SVG).

export function escapeHTML(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** 253 → "4 min", 3900 → "1 h 5 min", 40 → "1 min" (never "0 min" for a real trip). */
export function formatDuration(seconds) {
  const s = Math.max(0, Math.round(seconds || 0));
  if (s < 45) return s === 0 ? "0 min" : "1 min";
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60), m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}

/** 1467 → "1.5 km" ("1,5 km" where the page's language writes a decimal comma), 850 → "850 m", 12 → "12 m", 23456 → "23 km". */
export function formatDistance(meters) {
  const m = Math.max(0, Math.round(meters || 0));
  if (m < 950) return `${m < 100 ? m : Math.round(m / 10) * 10} m`;
  const km = m / 1000;
  if (km >= 20) return `${Math.round(km)} km`;
  const lang = document.documentElement.lang || "en";
  return `${km.toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} km`;
}

/** Signed detour: "+2 min", "−30 s"; detours are small, so seconds count here. */
export function formatDetour(seconds) {
  const s = Math.round(seconds || 0);
  const sign = s < 0 ? "−" : "+";
  const a = Math.abs(s);
  if (a < 60) return `${sign}${a} s`;
  return `${sign}${formatDuration(a)}`;
}

/** The wall-clock time written in an RFC 3339 string, in the dataset's own time zone: "16:16". */
export function formatClock(rfc3339) {
  const m = /T(\d{2}):(\d{2})/.exec(rfc3339 || "");
  return m ? `${m[1]}:${m[2]}` : "";
}

export function formatCoords(latlng) {
  return `${latlng.lat.toFixed(5)}, ${latlng.lng.toFixed(5)}`;
}

// ---- maneuver icons ---------------------------------------------------------------------------
// 24×24 stroked paths; left-hand variants are mirrored.

const ARROWS = {
  straight: '<path d="M12 20V4.5M7 9.5l5-5 5 5"/>',
  right: '<path d="M7 20v-7.5A3.5 3.5 0 0 1 10.5 9H19M15 5l4 4-4 4"/>',
  slight: '<path d="M9 20v-6.2L16.6 6.2M11 6h5.8v5.8"/>',
  sharp: '<path d="M8 4v9.5l8 6.5M11 20.2h5.2V15"/>',
  uturn: '<path d="M7 20V9.5a4.5 4.5 0 0 1 9 0V18M12.5 14.5 16 18l3.5-3.5"/>',
  keep: '<path d="M10 20v-6l4.5-4.5V4M10.5 7.5 14.5 3.5l4 4M10 14 6 10"/>',
  roundabout: '<circle cx="12" cy="9" r="4"/><path d="M12 20v-7M15 6l3.5-3.5M14.5 2.5h4v4"/>',
  depart: '<circle cx="12" cy="12" r="4.5"/><circle cx="12" cy="12" r="1.5" class="fill"/>',
  arrive: '<path d="M12 21s-6-5.3-6-10.2a6 6 0 0 1 12 0C18 15.7 12 21 12 21z"/><circle cx="12" cy="10.6" r="2"/>',
  waypoint: '<circle cx="12" cy="12" r="6"/><path d="M12 9v6M9 12h6"/>',
  ferry: '<path d="M4 15.5 6 19h12l2-3.5H4zM7 15.5V10h10v5.5M12 10V5"/><path d="M3 21c2 0 2-1 4.5-1s2.5 1 4.5 1 2-1 4.5-1 2.5 1 4.5 1"/>',
};

function arrowFor(maneuver) {
  const m = String(maneuver || "").toUpperCase();
  if (m === "DEPART") return ["depart", false];
  if (m.startsWith("ARRIVE")) return ["arrive", false];
  if (m.startsWith("WAYPOINT")) return ["waypoint", false];
  if (m === "TAKE_FERRY") return ["ferry", false];
  if (m.startsWith("ROUNDABOUT")) return ["roundabout", m.endsWith("LEFT") || m.endsWith("BACK")];
  if (m.includes("UTURN") || m === "MAKE_UTURN") return ["uturn", false];
  const left = m.endsWith("LEFT");
  if (m.startsWith("SHARP")) return ["sharp", left];
  if (m.startsWith("TURN")) return ["right", left];
  if (m.startsWith("BEAR") || m.startsWith("MOTORWAY_EXIT") || m === "TAKE_EXIT") return ["slight", left];
  if (m.startsWith("KEEP")) return ["keep", left];
  return ["straight", false];
}

export function maneuverIcon(maneuver) {
  const [name, mirror] = arrowFor(maneuver);
  const t = mirror ? ' transform="matrix(-1 0 0 1 24 0)"' : "";
  return `<svg viewBox="0 0 24 24" aria-hidden="true"><g${t}>${ARROWS[name]}</g></svg>`;
}

export function maneuverKind(maneuver) {
  return arrowFor(maneuver)[0];
}

// ---- category icons (POI markers) -------------------------------------------------------------

export const CATEGORY_ICONS = {
  gas: '<path d="M5 20V5.5A1.5 1.5 0 0 1 6.5 4h6A1.5 1.5 0 0 1 14 5.5V20M4 20h11M5 10h9M14 8.5l2.5 2v6a1.5 1.5 0 0 0 3 0V8l-3-3"/>',
  restaurant: '<path d="M7 3v7.5M4.5 3v5a2.5 2.5 0 0 0 5 0V3M7 10.5V21M16.5 21V3c-2.2 1.2-3.5 4-3.5 7.5V13h3.5"/>',
  atm: '<rect x="3" y="6" width="18" height="12" rx="2"/><circle cx="12" cy="12" r="2.5"/><path d="M6.5 9.5v5M17.5 9.5v5"/>',
  other: '<circle cx="12" cy="10" r="3"/><path d="M12 21s-7-5.6-7-11a7 7 0 0 1 14 0c0 5.4-7 11-7 11z"/>',
};

export function categoryIcon(kind) {
  return `<svg viewBox="0 0 24 24" aria-hidden="true">${CATEGORY_ICONS[kind] || CATEGORY_ICONS.other}</svg>`;
}

export const ICONS = {
  phone: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6.6 3.5h2.6l1.3 4.2-2 1.4a12 12 0 0 0 6.4 6.4l1.4-2 4.2 1.3v2.6a2 2 0 0 1-2.2 2A16.5 16.5 0 0 1 4.6 5.7a2 2 0 0 1 2-2.2z"/></svg>',
  clock: '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="8.5"/><path d="M12 7.5V12l3 2"/></svg>',
  detour: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 20V9a4 4 0 0 1 8 0v6a4 4 0 0 0 8 0V4M18 7l3-3 3 3"/></svg>',
  plus: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 5v14M5 12h14"/></svg>',
  directions: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2.8 21.2 12 12 21.2 2.8 12z"/><path d="M9 14.5V12a1.5 1.5 0 0 1 1.5-1.5H15M13 8.5l2 2-2 2"/></svg>',
  pin: '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="10" r="3"/><path d="M12 21s-7-5.6-7-11a7 7 0 0 1 14 0c0 5.4-7 11-7 11z"/></svg>',
  locate: '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="6.5"/><circle cx="12" cy="12" r="2" class="fill"/><path d="M12 2.5v3M12 18.5v3M2.5 12h3M18.5 12h3"/></svg>',
  error: '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="9"/><path d="M12 7.5v5.5"/><circle cx="12" cy="16.3" r=".8" class="fill"/></svg>',
  info: '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="9"/><path d="M12 11v5.5"/><circle cx="12" cy="7.8" r=".8" class="fill"/></svg>',
  close: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="m7 7 10 10M17 7 7 17"/></svg>',
};
