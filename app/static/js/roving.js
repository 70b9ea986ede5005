// @ts-check
// Roving tabindex: a group of buttons (the hand, the bids) is one Tab stop, and the arrow
// keys move across the items that can be used now (`data-rove`), Home and End to the
// ends.  The stop is the item last focused in the group when it can still be used, else
// the one the group prefers (the call the hint would make), else the first usable one.

/** @type {Record<string, string>} */
const lastKey = {};

/** Give `items` of `group` their tabindex after a render.
 * @param {HTMLElement} group
 * @param {HTMLElement[]} items
 * @param {HTMLElement | null} [preferred] the stop when none is remembered */
export function rove(group, items, preferred = null) {
  group.dataset.roving = "";
  const stops = items.filter((item) => "rove" in item.dataset);
  for (const item of items) item.tabIndex = -1;
  const remembered = stops.find((item) => item.dataset.key === lastKey[group.id]);
  const stop = remembered || (preferred && stops.includes(preferred) ? preferred : null) || stops[0] || items[0];
  if (stop) stop.tabIndex = 0;
}

const KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];

export function setUpRoving() {
  document.addEventListener("focusin", (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement)) return;
    const group = target.closest("[data-roving]");
    if (group && target.dataset.key) lastKey[group.id] = target.dataset.key;
  });
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (!KEYS.includes(event.key) || !(target instanceof HTMLElement)) return;
    const group = target.closest("[data-roving]");
    if (!group) return;
    /** @type {HTMLElement[]} */
    let items = [...group.querySelectorAll("[data-rove]")].filter((i) => i instanceof HTMLElement);
    if (!items.length) items = [...group.querySelectorAll("button:not(:disabled)")].filter((i) => i instanceof HTMLElement);
    if (!items.length) return;
    const index = items.indexOf(target);
    let next;
    if (event.key === "Home") next = 0;
    else if (event.key === "End") next = items.length - 1;
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
      next = index <= 0 ? items.length - 1 : index - 1;
    } else next = index < 0 || index === items.length - 1 ? 0 : index + 1;
    for (const item of group.querySelectorAll("[tabindex='0']")) {
      if (item instanceof HTMLElement) item.tabIndex = -1;
    }
    const chosen = /** @type {HTMLElement} */ (items[next]);
    chosen.tabIndex = 0;
    chosen.focus();
    event.preventDefault();
  });
}
