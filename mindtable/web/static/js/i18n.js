// Translations: the shell's strings in i18n/<lang>.json, each game's own strings in
// games/<web_module>/i18n/<lang>.json. The language comes from a saved choice, else the browser.

import { h } from "./common.js";

export const LANGUAGES = { en: "English", es: "Español", et: "Eesti" };
const STORE = "mindtable:lang";
const ROOT = new URL("../", import.meta.url);

let current = "en";
let messages = {};
let fallback = {};

async function loadJson(url) {
  try {
    const response = await fetch(url);
    return response.ok ? await response.json() : {};
  } catch {
    return {};
  }
}

/** The language to use: the saved choice, else the first supported browser language, else English. */
export function pickLanguage() {
  const saved = localStorage.getItem(STORE);
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export function lang() {
  return current;
}

/** Load the shell's strings and translate the page's [data-i18n] elements. */
export async function initI18n() {
  current = pickLanguage();
  fallback = await loadJson(new URL("i18n/en.json", ROOT));
  messages = current === "en" ? fallback : await loadJson(new URL(`i18n/${current}.json`, ROOT));
  document.documentElement.lang = current;
  applyI18n(document);
  return current;
}

const numberFormats = new Map();
/**
 * A number as the page's language writes it ("273,15" in Estonian and Spanish, "273.15" in English), without
 * grouping (years and card numbers stay "1918"); `digits` fixes the decimals shown.
 */
export function formatNumber(value, digits = null) {
  const key = `${current}/${digits}`;
  if (!numberFormats.has(key)) {
    const fixed = digits === null ? { maximumFractionDigits: 20 } : { minimumFractionDigits: digits, maximumFractionDigits: digits };
    numberFormats.set(key, new Intl.NumberFormat(current, { useGrouping: false, ...fixed }));
  }
  return numberFormats.get(key).format(value);
}

/** A parameter as text: a number in the page's language's way (a decimal comma in Estonian), else as it is. */
function paramText(value) {
  return typeof value === "number" && Number.isFinite(value) ? formatNumber(value) : String(value);
}

function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? paramText(params[name]) : whole));
}

/**
 * Plural forms: a key may have variants `key#one`, `key#few`, `key#many`, `key#other`... (the categories of
 * Intl.PluralRules for the page's language). The count is the parameter `n`, else the first numeric
 * parameter among `count`, `lives`, `stars`, `cards`. `key` itself (no suffix) is the fallback.
 */
const COUNT_PARAMS = ["n", "count", "lives", "stars", "s"];
const pluralRules = new Map();
export function pluralKey(table, key, params) {
  if (!params) return key;
  const name = COUNT_PARAMS.find((p) => typeof params[p] === "number" || (typeof params[p] === "string" && params[p] !== "" && !Number.isNaN(Number(params[p]))));
  if (name === undefined) return key;
  if (!pluralRules.has(current)) pluralRules.set(current, new Intl.PluralRules(current));
  const form = `${key}#${pluralRules.get(current).select(Number(params[name]))}`;
  if (table(form)) return form;
  if (table(`${key}#other`)) return `${key}#other`;
  return key;
}

function lookup(key, params, ...tables) {
  for (const table of tables) {
    const k = pluralKey((x) => x in table, key, params);
    if (k in table) return table[k];
  }
  return undefined;
}

/** Translate `key` with {name} parameters; an unknown key comes back as itself. */
export function t(key, params) {
  const text = lookup(key, params, messages, fallback);
  return text === undefined ? key : format(text, params);
}

/** Does the shell know `key` in some language? */
export function has(key) {
  return key in messages || key in fallback || `${key}#other` in messages || `${key}#other` in fallback;
}
// The shell's translator answers `has` like a game's (makeT), so helpers take either.
t.has = has;

/** A translator that looks in a game's strings first, then the shell's. */
export function makeT(gameStrings) {
  const own = gameStrings?.messages || {};
  const ownFallback = gameStrings?.fallback || {};
  const fn = (key, params) => {
    const text = lookup(key, params, own, ownFallback);
    return text === undefined ? t(key, params) : format(text, params);
  };
  fn.has = (key) => key in own || key in ownFallback || `${key}#other` in own || `${key}#other` in ownFallback || has(key);
  return fn;
}

/** A game's own strings for the current language (with English as fallback); empty if it ships none. */
export async function loadGameStrings(webModule) {
  if (!webModule) return { messages: {}, fallback: {} };
  const base = new URL(`games/${webModule}/i18n/`, ROOT);
  const english = await loadJson(new URL("en.json", base));
  const own = current === "en" ? english : await loadJson(new URL(`${current}.json`, base));
  return { messages: own, fallback: english };
}

/** Fill [data-i18n] (text), [data-i18n-placeholder], [data-i18n-title] and [data-i18n-aria] under root. */
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  const title = document.querySelector("title[data-i18n]");
  if (title) document.title = t(title.dataset.i18n);
}

/** A <select> that switches the language (saved, then the page reloads; a seat token survives reloads).
 * Arrow keys on a closed select change its value at once: a choice made with the keyboard is applied on
 * Enter or when the select loses focus, not on the first arrow key. */
export function languageSwitch() {
  const select = h(
    "select",
    { class: "lang-switch", "aria-label": t("lang.label"), title: t("lang.label"), "data-testid": "lang-switch" },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === current, lang: code }, name)),
  );
  let keyed = false;
  const apply = () => {
    if (select.value === current) return;
    localStorage.setItem(STORE, select.value);
    location.reload();
  };
  select.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      keyed = false;
      apply();
    } else if (event.key.startsWith("Arrow") || event.key === "Home" || event.key === "End" || event.key.length === 1) keyed = true;
  });
  select.addEventListener("pointerdown", () => (keyed = false));
  select.addEventListener("change", () => {
    if (!keyed) apply();
  });
  select.addEventListener("blur", () => {
    if (keyed) apply();
    keyed = false;
  });
  return select;
}
