// @ts-check
// Numbers and names as the page writes them, without the DOM (tests/js/format.test.js).

/** Points with their sign: "+7", "-7", "0".
 * @param {number} n */
export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** A name cut to fit beside a chart line: at most 11 characters, "…" when cut.
 * @param {string} name */
export function shortName(name) {
  return name.length > 11 ? `${name.slice(0, 10)}…` : name;
}
