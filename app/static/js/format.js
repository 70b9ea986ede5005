// @ts-check
// Numbers and names as the page writes them, without the DOM (tests/js/format.test.js).
//
// Every number a player reads goes through `number` in the page's language ("10.9" in
// English, "10,9" in Norwegian and French), and the plural form of a counted phrase is
// chosen by `pluralCategory` from the same number, so "1 seat free" and "2 seats free"
// (and French "1,5 pli") agree with what is written (i18n.js's `tn`).

// One decimal at most: the figures the server sends (expected tricks, points lost) are
// rounded to one; a whole number is written without a decimal.
const DIGITS = { maximumFractionDigits: 1 };

/** @type {Map<string, Intl.NumberFormat>} */
const formats = new Map();
/** @type {Map<string, Intl.PluralRules>} */
const plurals = new Map();

/** `n` written in language `lang`: "10.9" (en), "10,9" (nb, fr).
 * @param {number} n
 * @param {string} lang */
export function number(n, lang) {
  let format = formats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(lang, DIGITS);
    formats.set(lang, format);
  }
  return format.format(n);
}

/** The plural category of `n` as written in `lang` ("one", "other", ...: Intl.PluralRules),
 *  counted as it is shown (1.04 is written "1", so it is "one").
 * @param {number} n
 * @param {string} lang
 * @returns {Intl.LDMLPluralRule} */
export function pluralCategory(n, lang) {
  let rules = plurals.get(lang);
  if (!rules) {
    rules = new Intl.PluralRules(lang, DIGITS);
    plurals.set(lang, rules);
  }
  return rules.select(n);
}

/** Points with their sign: "+7", "-7", "0".
 * @param {number} n */
export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** A difference (par, a rating's change) with its sign as `signed` writes points, one
 *  decimal at most, in language `lang`: "+3.2", "-1,5", "0" (-0.04 is written "0").
 * @param {number} n
 * @param {string} lang */
export function signedDecimal(n, lang) {
  const rounded = Math.round(n * 10) / 10;
  const text = number(Math.abs(rounded), lang);
  return rounded > 0 ? `+${text}` : rounded < 0 ? `-${text}` : text;
}

/** A name cut to fit beside a chart line: at most 11 characters, "…" when cut.
 * @param {string} name */
export function shortName(name) {
  return name.length > 11 ? `${name.slice(0, 10)}…` : name;
}
