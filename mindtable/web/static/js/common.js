// Small helpers shared by every page: DOM building, REST calls, seat tokens kept per room.

/** Build an element: h("button", {class: "x", onclick: fn, "data-k": 1}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** Replace every child of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
    // The server's reason code ({"detail": {"code", "message"}}), or the first field error's type.
    const detail = body && typeof body === "object" ? body.detail : null;
    this.code = detail && typeof detail === "object" && !Array.isArray(detail) ? detail.code || null : null;
    this.params = detail && typeof detail === "object" && !Array.isArray(detail) ? detail.params || {} : {};
    this.fields = Array.isArray(detail) ? detail : [];
  }
}

/** Call the REST API; throws ApiError with the server's explanation on a non-2xx answer. */
export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  const raw = body instanceof Blob; // a file sent as it is (an upload)
  if (body !== undefined) headers["Content-Type"] = raw ? "application/octet-stream" : "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : raw ? body : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, String(err.message || err), null);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) throw new ApiError(response.status, errorText(data) || response.statusText, data);
  return data;
}

/** The human-readable part of an error body ({detail}, {message}, FastAPI validation lists...). */
export function errorText(data) {
  if (!data) return "";
  if (typeof data === "string") return data;
  const detail = data.detail ?? data.message ?? data.error;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((d) => (d.loc ? `${d.loc.filter((p) => p !== "body").join(".")}: ` : "") + (d.msg || JSON.stringify(d))).join("; ");
  }
  if (detail && typeof detail === "object") return detail.message || JSON.stringify(detail);
  return JSON.stringify(data);
}

const SEAT_KEY = (code) => `mindtable:seat:${code.toUpperCase()}`;

/** The seat token this browser holds for a room: {seat, token, name} or null. */
export function loadSeat(code) {
  try {
    const value = JSON.parse(localStorage.getItem(SEAT_KEY(code)) || "null");
    return value && typeof value.token === "string" ? value : null;
  } catch {
    return null;
  }
}

export function saveSeat(code, seat, token, name, game) {
  localStorage.setItem(SEAT_KEY(code), JSON.stringify({ seat, token, name, game, saved: Date.now() }));
}

export function forgetSeat(code) {
  localStorage.removeItem(SEAT_KEY(code));
  localStorage.removeItem(HERE_KEY(code));
}

// Hot-seat: the other seats this browser holds in a room for people at the same device, [{seat, token, name}].
const HERE_KEY = (code) => `mindtable:here:${code.toUpperCase()}`;

export function loadHereSeats(code) {
  try {
    const value = JSON.parse(localStorage.getItem(HERE_KEY(code)) || "[]");
    return Array.isArray(value) ? value.filter((s) => s && typeof s.token === "string" && Number.isInteger(s.seat)) : [];
  } catch {
    return [];
  }
}

export function saveHereSeats(code, seats) {
  localStorage.setItem(HERE_KEY(code), JSON.stringify(seats));
}

/** Every room this browser holds a seat in, newest first: [{code, seat, token, name, game}]. */
export function savedSeats() {
  const rooms = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("mindtable:seat:")) continue;
    const value = loadSeat(key.slice("mindtable:seat:".length));
    if (value) rooms.push({ code: key.slice("mindtable:seat:".length), ...value });
  }
  return rooms.sort((a, b) => (b.saved || 0) - (a.saved || 0));
}

export function savedName() {
  return localStorage.getItem("mindtable:name") || "";
}

export function rememberName(name) {
  if (name) localStorage.setItem("mindtable:name", name);
}

/** Room codes are typed by people: keep the letters and digits, upper-cased. */
export function normalizeCode(text) {
  return String(text || "").toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/** Is this keyboard event aimed at a text field (where shortcuts must not fire)? */
export function typingInField(event) {
  const el = event.target;
  if (!el || !el.tagName) return false;
  const tag = el.tagName.toLowerCase();
  return tag === "input" || tag === "textarea" || tag === "select" || el.isContentEditable;
}

/** Show a short message in the page's toast area (present in every page from load, so screen readers
 * hear what is added to it). kind: "info" | "error" | "ok". */
export function toast(text, kind = "info", ms = 4000) {
  let area = document.getElementById("toasts");
  if (!area) {
    area = h("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(area);
  }
  const item = h("div", { class: `toast toast-${kind}` }, text);
  area.append(item);
  setTimeout(() => item.remove(), ms);
  return item;
}

/** Say `text` to screen readers through the page's polite live region (#announcer, present from load). */
let announceTimer = null;
export function announce(text, { assertive = false } = {}) {
  if (!text) return;
  const id = assertive ? "announcer-alert" : "announcer";
  let region = document.getElementById(id);
  if (!region) {
    region = h("div", { id, class: "sr-only", "aria-live": assertive ? "assertive" : "polite", "aria-atomic": "false" });
    document.body.append(region);
  }
  region.append(h("p", {}, text));
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => {
    for (const r of document.querySelectorAll("#announcer, #announcer-alert")) r.replaceChildren();
  }, 8000);
}

/** Set an element's text only when it changes (a live region re-announces every rewrite). */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
  return el;
}

/** Per-browser settings: single-letter shortcuts (on by default) and sound cues (off by default). */
export const settings = {
  get shortcuts() {
    return localStorage.getItem("mindtable:shortcuts") !== "off";
  },
  set shortcuts(on) {
    localStorage.setItem("mindtable:shortcuts", on ? "on" : "off");
  },
  get sound() {
    return localStorage.getItem("mindtable:sound") === "on";
  },
  set sound(on) {
    localStorage.setItem("mindtable:sound", on ? "on" : "off");
  },
};
