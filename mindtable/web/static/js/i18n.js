// Translations: the shell's strings in i18n/<lang>.json, each game's own strings in
// games/<web_module>/i18n/<lang>.json. The language comes from a saved choice, else the browser.

import { h } from "./common.js";

export const LANGUAGES = { en: "English", es: "Español" };
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

function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Translate `key` with {name} parameters; an unknown key comes back as itself. */
export function t(key, params) {
  const text = messages[key] ?? fallback[key];
  return text === undefined ? key : format(text, params);
}

/** Does the shell know `key` in some language? */
export function has(key) {
  return key in messages || key in fallback;
}

/** A translator that looks in a game's strings first, then the shell's. */
export function makeT(gameStrings) {
  const own = gameStrings?.messages || {};
  const ownFallback = gameStrings?.fallback || {};
  const fn = (key, params) => {
    const text = own[key] ?? ownFallback[key];
    return text === undefined ? t(key, params) : format(text, params);
  };
  fn.has = (key) => key in own || key in ownFallback || has(key);
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

/** A <select> that switches the language (saved, then the page reloads; a seat token survives reloads). */
export function languageSwitch() {
  const select = h(
    "select",
    { class: "lang-switch", "aria-label": t("lang.label"), title: t("lang.label"), "data-testid": "lang-switch" },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === current }, name)),
  );
  select.addEventListener("change", () => {
    localStorage.setItem(STORE, select.value);
    location.reload();
  });
  return select;
}
