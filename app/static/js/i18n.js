// @ts-check
// Interface text in English, Norwegian bokmål and French.
//
// Templates carry English text plus `data-i18n` keys; `applyTranslations` swaps in the
// chosen language.  The language comes from localStorage (the player's choice), else from
// the browser's languages, else English.  Every string a player reads goes through `t`
// (a counted phrase through `tn`), and every number in it is written in the language
// (format.js).

import { assetUrl } from "./assets.js";
import { number, pluralCategory, signedDecimal } from "./format.js";

export const LANGUAGES = { en: "English", nb: "Norsk bokmål", fr: "Français" };
const STORE_KEY = "amerikaner.lang";

/** @typedef {Record<string, string>} Dictionary */

let lang = "en";
/** @type {Dictionary} */
let dict = {};
/** @type {Dictionary} */
let fallback = {};

export function currentLanguage() {
  return lang;
}

export function pickLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && asked in LANGUAGES) return asked;
  const stored = localStorage.getItem(STORE_KEY);
  if (stored && stored in LANGUAGES) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.toLowerCase().split("-")[0] ?? "";
    // Norwegian without a written standard (no), and nynorsk readers, get bokmål.
    if (base === "nb" || base === "no" || base === "nn") return "nb";
    if (base in LANGUAGES) return base;
  }
  return "en";
}

// A page's own catalogues, i18n/<part>/<code>.json beside the shared i18n/<code>.json
// (the rules page's long texts): a page adds them before its first `loadLanguage`.
/** @type {string[]} */
const parts = [];

/** Load catalogue `part` too, in every language, from now on.
 * @param {string} part */
export function addCatalogue(part) {
  if (!parts.includes(part)) parts.push(part);
}

/** @param {string} url
 * @returns {Promise<Dictionary>} */
async function fetchFile(url) {
  const response = await fetch(assetUrl(url));
  if (!response.ok) throw new Error(`language file ${url}: ${response.status}`);
  return response.json();
}

/** The shared catalogue of language `code` and the page's own, in one dictionary.
 * @param {string} code
 * @returns {Promise<Dictionary>} */
async function fetchDict(code) {
  const urls = [`/static/i18n/${code}.json`, ...parts.map((part) => `/static/i18n/${part}/${code}.json`)];
  return Object.assign({}, ...await Promise.all(urls.map(fetchFile)));
}

/** Use `dictionary` for language `code`, English's for any key it lacks (the page loads
 *  them with `loadLanguage`; the tests give them from the files).
 * @param {string} code
 * @param {Dictionary} dictionary
 * @param {Dictionary} english */
export function useDictionaries(code, dictionary, english) {
  lang = code;
  dict = dictionary;
  fallback = english;
}

/** Load a language (and English as the fallback for any missing key).
 * @param {string} code */
export async function loadLanguage(code) {
  if (!(code in LANGUAGES)) code = "en";
  const english = Object.keys(fallback).length ? fallback : await fetchDict("en");
  useDictionaries(code, code === "en" ? english : await fetchDict(code), english);
  document.documentElement.lang = code;
  applyTranslations(document);
  return code;
}

/** Switch language, remember the choice and tell the page to re-render.
 * @param {string} code */
export async function switchLanguage(code) {
  localStorage.setItem(STORE_KEY, code);
  await loadLanguage(code);
  document.dispatchEvent(new CustomEvent("languagechange"));
}

/** @param {string} key */
export function has(key) {
  return key in dict || key in fallback;
}

/** The text for `key` with `{name}` placeholders filled from `params`; a number is
 *  written in the language ("10,9" in French).
 * @param {string} key
 * @param {Record<string, unknown>} [params] */
export function t(key, params = {}) {
  let text = dict[key] ?? fallback[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.replaceAll(`{${name}}`, typeof value === "number" ? number(value, lang) : String(value));
  }
  return text;
}

/** @typedef {string | Node} Part */

/** The text of `key` with each `{name}` replaced by `params[name]`: text, or a node such
 *  as a card chip or a name in a box of its own (the template is split, never parsed as
 *  markup).
 * @param {string} key
 * @param {Record<string, Part | number>} params
 * @returns {Part[]} */
export function tParts(key, params) {
  return t(key).split(/\{([a-z_]+)\}/).map((piece, i) => {
    if (i % 2 === 0) return piece;
    const value = params[piece];
    return value === undefined ? `{${piece}}` : typeof value === "number" ? String(value) : value;
  });
}

/** `n` written in the page's language ("10.9", "10,9").
 * @param {number} n */
export function formatNumber(n) {
  return number(n, lang);
}

/** A difference with its sign, in the page's language ("+3.2", "-1,5": format.js).
 * @param {number} n */
export function formatSigned(n) {
  return signedDecimal(n, lang);
}

/** The key of a counted phrase's form for `count`: the language file holds the form for
 *  most counts under `key` ("{n} seats free") and, beside it, the forms the language's
 *  plural rules ask for other counts under `key.one`, `key.few`... ("{n} seat free").
 * @param {string} key
 * @param {number} count */
export function pluralKey(key, count) {
  const form = `${key}.${pluralCategory(count, lang)}`;
  return form in dict ? form : key;
}

/** A counted phrase: `t` of the form for `count` ("1 seat free", "2 seats free";
 *  French "0 place libre", "1,5 pli").
 * @param {string} key
 * @param {number} count
 * @param {Record<string, unknown>} [params] */
export function tn(key, count, params = {}) {
  return t(pluralKey(key, count), params);
}

/** @param {ParentNode} root */
export function applyTranslations(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.getAttribute("data-i18n") ?? "");
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.getAttribute("data-i18n-label") ?? ""));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.getAttribute("data-i18n-placeholder") ?? ""));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.setAttribute("title", t(el.getAttribute("data-i18n-title") ?? ""));
  }
  const title = document.querySelector("meta[name='i18n-title']");
  if (title instanceof HTMLMetaElement) document.title = `${t(title.content)} · Amerikaner`;
}

/** A server error for the player, in the page's language: why the rules refused an
 *  action (`refusal.*`, its parameters named in the language: a number, a card, a suit)
 *  when the error carries a reason; else the code's text (`errcode.*`); the server's
 *  English message only on an English page (it is precise), or for a code without a text.
 * @param {string} code
 * @param {string} [message]
 * @param {string} [reason] the rules' refusal (`Refusal`)
 * @param {Record<string, string | number>} [params] what it names */
export function serverMessage(code, message, reason, params = {}) {
  if (reason && has(`refusal.${reason}`)) return refusalText(reason, params);
  if (lang !== "en" && has(`errcode.${code}`)) return t(`errcode.${code}`);
  return message || (has(`errcode.${code}`) ? t(`errcode.${code}`) : code);
}

/** A refusal's sentence: `n` a number (its plural form), `card` a card id, `suit` a suit
 *  letter, each written in the page's language.
 * @param {string} reason
 * @param {Record<string, string | number>} params */
export function refusalText(reason, params) {
  /** @type {Record<string, string | number>} */
  const words = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === "card") words.card = cardInSentence(String(value));
    else if (name === "suit") words.suit = suitName(String(value));
    else words[name] = typeof value === "number" ? formatNumber(value) : value;
  }
  const key = `refusal.${reason}`;
  const text = typeof params.n === "number" ? tn(key, params.n, words) : t(key, words);
  return capitalise(text);
}

/** @param {string} text */
function capitalise(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Ace of spades", "Spar ess", "As de pique"; both jokers are "Joker".
 * @param {string} id a card id: "AS", "TH", "JK1" */
export function cardName(id) {
  if (id.startsWith("JK")) return t("card.joker");
  return capitalise(t("card.name", { rank: t(`rank.${id[0]}`), suit: t(`suit.${id[1]}`) }));
}

/** A card's name inside a sentence, from the language file: "the" is in the English
 *  sentence itself ("Lead the Ace of spades"); Norwegian writes it in lower case ("spar
 *  ess"); French gives each rank its article ("l'as", "la dame", "le huit": the h of
 *  huit is aspirated, so no elision) and "le joker".
 * @param {string} id */
export function cardInSentence(id) {
  if (id.startsWith("JK")) return t("card.joker_in_sentence");
  return t("card.in_sentence", { rank: t(`rank.in_sentence.${id[0]}`), suit: t(`suit.${id[1]}`) });
}

/** A suit's name in the plural ("hearts"), for trump and the contract banner.
 * @param {string} letter */
export function suitName(letter) {
  return t(`suit.${letter}`);
}

/** Fill a <select> with the languages and switch on change; it shows the language the
 *  page is in, whichever picker switched it (a dialog has one of its own).
 * @param {HTMLElement | null} select */
export function setUpLanguagePicker(select) {
  if (!(select instanceof HTMLSelectElement)) return;
  select.replaceChildren();
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    select.append(option);
  }
  select.value = lang;
  select.addEventListener("change", () => switchLanguage(select.value));
  document.addEventListener("languagechange", () => { select.value = lang; });
}
