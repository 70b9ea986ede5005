// @ts-check
// Small DOM helpers shared by the views. Text always goes in as textContent.

/** A new element with an optional class and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]} */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A table's head: one row of column headers.
 * @param {string[]} texts */
export function headerRow(texts) {
  const row = el("tr");
  for (const text of texts) {
    const th = el("th", "", text);
    th.scope = "col";
    row.append(th);
  }
  const thead = el("thead");
  thead.append(row);
  return thead;
}

/** A table of text: a head of `headings`, then `rows`, each led by its row header.
 * @param {string[]} headings
 * @param {string[][]} rows
 * @param {string} className */
export function simpleTable(headings, rows, className) {
  const table = el("table", className);
  const tbody = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    row.forEach((text, i) => {
      if (i > 0) {
        tr.append(el("td", "", text));
        return;
      }
      const th = el("th", "", text);
      th.scope = "row";
      tr.append(th);
    });
    tbody.append(tr);
  }
  table.append(headerRow(headings), tbody);
  return table;
}

/** The page's element `id`, of the kind the page's template gives it (an error when the
 *  template lacks it: a template and its module go together).
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T, prototype: T }} [kind] e.g. HTMLSelectElement; HTMLElement when left out
 * @returns {T} */
export function byId(id, kind) {
  const node = document.getElementById(id);
  const want = kind || HTMLElement;
  if (!(node instanceof want)) throw new Error(`the page has no ${want.name} #${id}`);
  return /** @type {T} */ (node);
}

/** A copy of `node` whose countdowns show their deadline: a ticking clock is not a
 *  change of what the node shows.
 * @param {Element} node */
function atDeadlines(node) {
  const copy = /** @type {Element} */ (node.cloneNode(true));
  for (const clock of copy.querySelectorAll("[data-until]")) {
    clock.textContent = /** @type {HTMLElement} */ (clock).dataset.until ?? "";
  }
  return copy;
}

/** A node's text with its countdowns read as their deadline.
 * @param {Element} node */
function stableText(node) {
  return node.querySelector("[data-until]") ? atDeadlines(node).textContent : node.textContent;
}

/** Put `nodes` into `container` only when they differ from what it shows: a live region
 *  must not be re-announced because an unrelated part of the view changed.
 * @param {HTMLElement} container
 * @param {Element[]} nodes */
export function replaceIfDifferent(container, nodes) {
  const next = nodes.map((n) => [n.className, stableText(n),
    [...n.querySelectorAll("button, input")]
      .map((c) => `${/** @type {HTMLInputElement} */ (c).disabled}${/** @type {HTMLInputElement} */ (c).checked}`).join()]
    .join("|")).join("\n");
  if (container.dataset.shown === next) return;
  container.dataset.shown = next;
  container.replaceChildren(...nodes);
}

/** @type {WeakMap<Element, string>} */
const drawings = new WeakMap();

/** What `nodes` show: their markup, with each control's state that markup leaves out
 *  (value, checked, disabled) and each countdown at its deadline rather than its seconds.
 * @param {Element[]} nodes */
function drawing(nodes) {
  // (made here, not at load: the client's unit tests import this module without a DOM)
  const markup = new XMLSerializer();
  return nodes.map((node) => {
    const states = [...node.querySelectorAll("input, select, button")].map((c) => {
      const control = /** @type {HTMLInputElement} */ (c);
      return `${control.value}:${control.checked}:${control.disabled}`;
    });
    return `${markup.serializeToString(atDeadlines(node))}|${states.join()}`;
  }).join("\n");
}

/** Put `nodes` into `container` unless what it shows was drawn the same: an equal
 *  control is kept, not replaced.  Chromium sends no click when the button pressed is
 *  replaced before the release, and an open `<select>` closes when replaced, so a redraw
 *  for someone else's move or chat line would otherwise lose a tap or a choice.
 * @param {HTMLElement} container
 * @param {Element[]} nodes */
export function drawUnlessSame(container, nodes) {
  const next = drawing(nodes);
  if (drawings.get(container) === next) return;
  drawings.set(container, next);
  container.replaceChildren(...nodes);
}

/** Whether `node` is a field one types in (a number or a line of text).
 * @param {unknown} node
 * @returns {node is HTMLInputElement} */
export function isTypedField(node) {
  return node instanceof HTMLInputElement && ["number", "text"].includes(node.type);
}

/** Whether `box` must not be redrawn yet, because the person is in the middle of
 *  something in it; `redraw` is then called once they are done (a task after it).
 *  - A mouse button or a finger is down in it: a control replaced before the release
 *    gets no click from Chromium (the answer to a number the press sent comes then).
 *  - A number or text field in it has the focus and holds what the person is typing,
 *    not yet sent (its value is not its `defaultValue`, the one it was drawn with; room.js
 *    makes a sent value the default).  A redraw would replace the field, and Chromium
 *    sends the change of a focused field it removes: a number half typed would be sent
 *    as it stands, and the rest typed into the new field.  The redraw waits until the
 *    field lets go, and past the release of a mouse button that took the focus.
 *  A field with the focus and nothing typed is redrawn, and the new one gets the focus
 *  with its number selected (focus.js), so that what is typed next replaces it.
 * @param {HTMLElement} box
 * @param {() => void} redraw */
export function heldForInput(box, redraw) {
  watchPresses();
  if (pressedIn && box.contains(pressedIn)) {
    afterPress(redraw);
    return true;
  }
  const field = document.activeElement;
  if (!isTypedField(field) || !box.contains(field)) return false;
  if (field.value === field.defaultValue) return false;
  if (!field.dataset.held) {
    field.dataset.held = "1";
    field.addEventListener("focusout", () => {
      delete field.dataset.held;
      afterPress(redraw);
    }, { once: true });
  }
  return true;
}

/** Where a mouse button or a finger is down (null: none), from `watchPresses`.
 * @type {Node | null} */
let pressedIn = null;
let watchingPresses = false;
/** The redraws waiting for the release. @type {Set<() => void>} */
const afterRelease = new Set();

function watchPresses() {
  if (watchingPresses) return;
  watchingPresses = true;
  document.addEventListener("pointerdown", (event) => {
    pressedIn = event.target instanceof Node ? event.target : document.body;
  }, true);
  /** The release, and its click with it (they come in one task); a tap's press, release
   *  and click all come at once, after the finger is up. */
  const released = () => {
    pressedIn = null;
    const waiting = [...afterRelease];
    afterRelease.clear();
    if (waiting.length) setTimeout(() => { for (const then of waiting) then(); });
  };
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
}

/** Call `then` a task from now, or, while a mouse button or a finger is down, a task
 *  after its release.
 * @param {() => void} then */
function afterPress(then) {
  if (pressedIn) afterRelease.add(then);
  else setTimeout(then);
}

/** A `<details>` that each render draws anew, open or closed as the person left it:
 *  `open` is that state; `keep` is told the new one at its summary's click (`toggle`
 *  fires a task later, and a frame drawn in between would draw the old state again,
 *  closing what was just opened) and at `toggle` (opened another way, as find-in-page
 *  does). `key`: a focus key for the summary, so that the keyboard's focus stays on it
 *  through a redraw (focus.js).
 * @param {HTMLDetailsElement} box
 * @param {HTMLElement} summary its summary
 * @param {boolean} open
 * @param {(open: boolean) => void} keep
 * @param {string} key */
export function keptOpen(box, summary, open, keep, key) {
  box.open = open;
  summary.dataset.key = key;
  summary.addEventListener("click", () => keep(!box.open));
  box.addEventListener("toggle", () => keep(box.open));
}

/** Save `data` as a JSON file named `filename` (a download the browser asks about).
 * @param {unknown} data
 * @param {string} filename */
export function downloadJson(data, filename) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
