// Interface text in English, Norwegian bokmål and French.
//
// Templates carry English text plus `data-i18n` keys; `applyTranslations` swaps in the
// chosen language.  The language comes from localStorage (the player's choice), else from
// the browser's languages, else English.  Every string a player reads goes through `t`.

export const LANGUAGES = { en: "English", nb: "Norsk bokmål", fr: "Français" };
const STORE_KEY = "amerikaner.lang";

let lang = "en";
let dict = {};
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
    const base = tag.toLowerCase().split("-")[0];
    // Norwegian without a written standard (no), and nynorsk readers, get bokmål.
    if (base === "nb" || base === "no" || base === "nn") return "nb";
    if (base in LANGUAGES) return base;
  }
  return "en";
}

async function fetchDict(code) {
  const response = await fetch(`/static/i18n/${code}.json`);
  if (!response.ok) throw new Error(`language file ${code}: ${response.status}`);
  return response.json();
}

/** Load a language (and English as the fallback for any missing key). */
export async function loadLanguage(code) {
  if (!(code in LANGUAGES)) code = "en";
  if (!Object.keys(fallback).length) fallback = await fetchDict("en");
  dict = code === "en" ? fallback : await fetchDict(code);
  lang = code;
  document.documentElement.lang = code;
  applyTranslations(document);
  return code;
}

/** Switch language, remember the choice and tell the page to re-render. */
export async function switchLanguage(code) {
  localStorage.setItem(STORE_KEY, code);
  await loadLanguage(code);
  document.dispatchEvent(new CustomEvent("languagechange"));
}

export function has(key) {
  return key in dict || key in fallback;
}

/** The text for `key` with `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  let text = dict[key] ?? fallback[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.replaceAll(`{${name}}`, String(value));
  }
  return text;
}

export function applyTranslations(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.setAttribute("title", t(el.dataset.i18nTitle));
  }
  const title = document.querySelector("meta[name='i18n-title']");
  if (title) document.title = `${t(title.content)} · Amerikaner`;
}

/** A server error for the player: the server's precise English message in English, a
 *  translated message for the error code in the other languages. */
export function serverMessage(code, message) {
  if (lang !== "en" && has(`errcode.${code}`)) return t(`errcode.${code}`);
  return message || (has(`errcode.${code}`) ? t(`errcode.${code}`) : code);
}

function capitalise(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Ace of spades", "Spar ess", "As de pique"; both jokers are "Joker". */
export function cardName(id) {
  if (id.startsWith("JK")) return t("card.joker");
  return capitalise(t("card.name", { rank: t(`rank.${id[0]}`), suit: t(`suit.${id[1]}`) }));
}

/** A card's name inside a sentence: "the" is in the English sentence itself; Norwegian
 *  writes it in lower case ("spar ess"); French adds its article ("le deux de pique",
 *  "l'as de cœur"). */
export function cardInSentence(id) {
  if (lang === "en") return cardName(id);
  const name = id.startsWith("JK") ? t("card.joker").toLowerCase() : t("card.name", { rank: t(`rank.${id[0]}`), suit: t(`suit.${id[1]}`) });
  if (lang !== "fr") return name;
  return /^[aeiouyéh]/i.test(name) ? `l'${name}` : `le ${name}`;
}

/** A suit's name in the plural ("hearts"), for trump and the contract banner. */
export function suitName(letter) {
  return t(`suit.${letter}`);
}

/** Fill a <select> with the languages and switch on change. */
export function setUpLanguagePicker(select) {
  if (!select) return;
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
}
