// The Wayfinder HTTP API as the web app uses it: TomTom-shaped routing and search, plus /health
// and OSRM's /nearest. Every call resolves to parsed JSON or rejects with an ApiError whose
// `friendly` text can be shown to people as it is.

import { busy } from "./ui.js";

export class ApiError extends Error {
  constructor({ status = 0, code = "", message = "", target = "", kind = "http", detail = "" }) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.target = target;
    this.detail = detail; // what the message does not say (time to leave: "the arrival time … has passed")
    this.kind = kind; // "http" | "network" | "aborted"
  }
}

// When the server wants API keys (`serve --api-keys`), the page is opened as /?key=…: every
// request, tile and event stream carries it on.
const apiKey = new URLSearchParams(location.search).get("key");
export const hasKey = () => Boolean(apiKey);
export function withKey(url) {
  if (!apiKey) return url;
  return url + (url.includes("?") ? "&" : "?") + "key=" + encodeURIComponent(apiKey);
}

async function request(url, { method = "GET", body, signal, quiet = false } = {}) {
  url = withKey(url);
  const init = { method, signal, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const done = quiet ? () => {} : busy();
  let response;
  try {
    response = await fetch(url, init);
  } catch (e) {
    done();
    if (e.name === "AbortError") throw new ApiError({ kind: "aborted", message: "aborted" });
    throw new ApiError({ kind: "network", message: String(e.message || e) });
  }
  let data = null;
  try {
    const text = await response.text();
    data = text ? JSON.parse(text) : null;
  } catch (e) {
    if (e.name === "AbortError") { done(); throw new ApiError({ kind: "aborted", message: "aborted" }); }
    data = null;
  }
  done();
  if (!response.ok) {
    // TomTom routing: {error:{description}, detailedError{code,message,target}}
    // TomTom search:  {error|errorText, detailedError{code,message,target}}; OSRM: {code,message}
    const detailed = data?.detailedError || {};
    const message = (typeof data?.error === "object" ? data.error.description : data?.error) ||
      data?.errorText || detailed.message || data?.message || response.statusText;
    throw new ApiError({ status: response.status, code: detailed.code || data?.code || "", message, target: detailed.target || "",
      detail: typeof data?.detail === "string" ? data.detail : "" });
  }
  return data;
}

// ---- instruction language ----------------------------------------------------------------------
// Directions follow the browser's language: the first of its preferred languages the server has
// instructions in (/health lists them), else English.

let instructionLanguage = "en-GB";
export const language = () => instructionLanguage;
export function chooseLanguage(supported = [], preferred = navigator.languages || [navigator.language]) {
  const bases = new Set(supported.map((l) => l.toLowerCase()));
  const norwegian = (b) => (b === "no" || b === "nn" ? "nb" : b);
  for (const tag of preferred) {
    const base = norwegian(String(tag || "").toLowerCase().split("-")[0]);
    if (bases.has(base)) {
      instructionLanguage = tag.includes("-") ? tag : base;
      document.documentElement.lang = instructionLanguage;
      return instructionLanguage;
    }
  }
  instructionLanguage = "en-GB";
  return instructionLanguage;
}

// ---- endpoints --------------------------------------------------------------------------------

export const health = (opts) => request("/health", { ...opts, quiet: true });

const ll = (p) => `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`;

/** points: [L.LatLng…] (≥2); options: {mode, routeType, alternatives, traffic, avoid[]} */
export function calculateRoute(points, options = {}, opts) {
  const q = new URLSearchParams({
    travelMode: options.mode || "car",
    routeType: options.routeType || "fastest",
    maxAlternatives: String(options.alternatives ?? 2),
    instructionsType: "text",
    traffic: options.traffic === false ? "false" : "true",
    language: instructionLanguage,
  });
  for (const a of options.avoid || []) q.append("avoid", a);
  if (options.departAt) q.set("departAt", options.departAt);
  return request(`/routing/1/calculateRoute/${points.map(ll).join(":")}/json?${q}`, opts);
}

export function reverseGeocode(latlng, opts) {
  return request(`/search/2/reverseGeocode/${ll(latlng)}.json`, { ...opts, quiet: true });
}

/** OSRM /nearest: used to tell at once whether a pressed point is near a road. */
export function nearest(latlng, mode, opts) {
  const profile = { car: "driving", taxi: "taxi", bicycle: "cycling", pedestrian: "walking" }[mode] || "driving";
  return request(`/nearest/v1/${profile}/${latlng.lng.toFixed(6)},${latlng.lat.toFixed(6)}`, { ...opts, quiet: true });
}

export function search(query, { near, limit = 10, typeahead = false } = {}, opts) {
  const q = new URLSearchParams({ limit: String(limit) });
  if (typeahead) q.set("typeahead", "true");
  if (near) { q.set("lat", near.lat.toFixed(6)); q.set("lon", near.lng.toFixed(6)); }
  return request(`/search/2/search/${encodeURIComponent(query)}.json?${q}`, opts);
}

export function categorySearch(query, { near, limit = 20, categorySet } = {}, opts) {
  const q = new URLSearchParams({ limit: String(limit) });
  if (near) { q.set("lat", near.lat.toFixed(6)); q.set("lon", near.lng.toFixed(6)); }
  if (categorySet) q.set("categorySet", String(categorySet));
  return request(`/search/2/categorySearch/${encodeURIComponent(query)}.json?${q}`, opts);
}

/** routePoints: [L.LatLng…]; params: {categorySet, maxDetourTime, limit} */
export function searchAlongRoute(query, routePoints, params = {}, opts) {
  const q = new URLSearchParams({
    maxDetourTime: String(params.maxDetourTime ?? 600),
    limit: String(params.limit ?? 20),
    detourOffset: "true",
  });
  if (params.categorySet) q.set("categorySet", String(params.categorySet));
  const body = { route: { points: routePoints.map((p) => ({ lat: +p.lat.toFixed(6), lon: +p.lng.toFixed(6) })) } };
  return request(`/search/2/searchAlongRoute/${encodeURIComponent(query)}.json?${q}`, { ...opts, method: "POST", body });
}

// ---- time to leave --------------------------------------------------------------------------

/** body: {origin, destination, arriveAt, travelMode, routeType, preparationTime, traffic} → the watch. */
export const createWatch = (body, opts) => request("/timetoleave/1/watches", { ...opts, method: "POST", body });
export const getWatch = (id, opts) => request(`/timetoleave/1/watches/${encodeURIComponent(id)}`, { ...opts, quiet: true });
export const deleteWatch = (id, opts) => request(`/timetoleave/1/watches/${encodeURIComponent(id)}`, { ...opts, method: "DELETE", quiet: true });
export const acceptBetterRoute = (id, opts) => request(`/timetoleave/1/watches/${encodeURIComponent(id)}/accept`, { ...opts, method: "POST" });
/** The watch's Server-Sent Events (plan, traffic-change, no-change, time-to-leave, late, expired). */
export const watchEventsURL = (id) => withKey(`/timetoleave/1/watches/${encodeURIComponent(id)}/events`);

// ---- plain words for errors -------------------------------------------------------------------

const ROLE_WORDS = { origin: "starting point", destination: "destination", waypoint: "stop" };

/** A sentence for people. `context` says what was being done ("route", "search", "geocode"). */
export function friendly(err, context = "route") {
  if (!(err instanceof ApiError)) return "Something went wrong. Please try again.";
  if (err.kind === "network") return "Can't reach the Wayfinder server. Check your connection and try again.";
  if (err.kind === "aborted") return "";
  const msg = (err.message || "").toLowerCase();
  if (err.code === "MAP_MATCHING_FAILURE" || /not near any road|no road/.test(msg)) {
    const role = Object.keys(ROLE_WORDS).find((k) => msg.includes(k));
    return role ? `There is no road near the ${ROLE_WORDS[role]}. Choose a point closer to a street.`
      : "There is no road near that point. Choose a point closer to a street.";
  }
  if (err.code === "NO_ROUTE_FOUND" || /no route/.test(msg)) {
    return "No route connects these points with this travel mode. Try another travel mode or other points.";
  }
  if (err.status === 404) {
    if (context === "search" || context === "along" || context === "geocode") return "Place search isn't available on this server yet.";
    return "This server doesn't offer that yet.";
  }
  if (err.status === 413 || err.status === 414) return "That route is too long to search along. Try a shorter route.";
  if (err.status === 403 && err.target === "key") {
    return apiKey ? "The server does not accept this page's API key (key=… in the address)."
      : "This server needs an API key: open the map as /?key=YOUR_KEY.";
  }
  if (err.status === 429 && err.code === "RATE_LIMITED") return "This API key's request limit is used up. Please wait a moment and try again.";
  if (err.status === 429) return "The server is busy. Please wait a moment and try again.";
  if (err.status >= 500) return "The server ran into a problem. Please try again in a moment.";
  if (err.message) {
    const m = err.message.trim();
    return m.charAt(0).toUpperCase() + m.slice(1) + (/[.!?]$/.test(m) ? "" : ".");
  }
  return "Something went wrong. Please try again.";
}
