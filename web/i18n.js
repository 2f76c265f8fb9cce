// Translations: every string the page shows comes from i18n/<lang>.json through t().
// The language is the saved choice, else the browser's, else English.

const STORAGE_KEY = "tapete.lang";
export const LANGUAGES = ["en", "es"];
const FALLBACK = "en";

/** @type {Record<string, string>} */
let strings = {};
/** @type {Record<string, string>} */
let fallback = {};
let current = FALLBACK;

/** The language to start in: saved choice, then navigator.languages, then English. */
export function preferredLanguage() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && LANGUAGES.includes(saved)) return saved;
  } catch { /* storage may be blocked */ }
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return FALLBACK;
}

async function fetchStrings(lang) {
  const response = await fetch(new URL(`i18n/${lang}.json`, document.baseURI));
  if (!response.ok) throw new Error(`i18n/${lang}.json: HTTP ${response.status}`);
  return response.json();
}

/** Load a language (and English as the fallback for any missing key). */
export async function setLanguage(lang, { save = false } = {}) {
  if (!LANGUAGES.includes(lang)) lang = FALLBACK;
  if (!Object.keys(fallback).length) fallback = await fetchStrings(FALLBACK);
  strings = lang === FALLBACK ? fallback : await fetchStrings(lang);
  current = lang;
  document.documentElement.lang = lang;
  if (save) {
    try { localStorage.setItem(STORAGE_KEY, lang); } catch { /* ignore */ }
  }
  applyTranslations(document);
}

export function language() {
  return current;
}

/** True when a key exists (used to choose between a specific and a generic message). */
export function has(key) {
  return key in strings || key in fallback;
}

/**
 * The string for `key` with {placeholders} filled from `params`.
 * A missing key shows itself, so a gap is visible instead of silent. Every count in a string is
 * `{n}`, and the key has its `.one` form (e2e/test_i18n_keys.py checks both).
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 */
export function t(key, params) {
  // a count picks its plural form where one is written: "<key>.one", "<key>.other", ... The
  // count is `n`, or `count` when `n` is shown formatted ("1.5", "60,000", "+24")
  const count = params && (typeof params.count === "number" ? params.count : params.n);
  if (typeof count === "number") {
    const form = `${key}.${new Intl.PluralRules(current).select(count)}`;
    if (has(form)) key = form;
  }
  const text = strings[key] ?? fallback[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Fill elements marked data-i18n (text), data-i18n-title, data-i18n-aria and data-i18n-placeholder. */
export function applyTranslations(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}
