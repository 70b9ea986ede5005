// Roving tabindex: a group of buttons (the hand, the bids) is one Tab stop, and the arrow
// keys move across the items that can be used now (`data-rove`), Home and End to the
// ends.  The stop is the item last focused in the group when it can still be used, else
// the first usable one.

const lastKey = {};

/** Give `items` of `group` their tabindex after a render. */
export function rove(group, items) {
  group.dataset.roving = "";
  const stops = items.filter((item) => "rove" in item.dataset);
  for (const item of items) item.tabIndex = -1;
  const remembered = stops.find((item) => item.dataset.key === lastKey[group.id]);
  const stop = remembered || stops[0] || items[0];
  if (stop) stop.tabIndex = 0;
}

const KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];

export function setUpRoving() {
  document.addEventListener("focusin", (event) => {
    const group = event.target.closest && event.target.closest("[data-roving]");
    if (group && event.target.dataset.key) lastKey[group.id] = event.target.dataset.key;
  });
  document.addEventListener("keydown", (event) => {
    if (!KEYS.includes(event.key)) return;
    const group = event.target.closest && event.target.closest("[data-roving]");
    if (!group) return;
    let items = [...group.querySelectorAll("[data-rove]")];
    if (!items.length) items = [...group.querySelectorAll("button:not(:disabled)")];
    if (!items.length) return;
    const index = items.indexOf(event.target);
    let next;
    if (event.key === "Home") next = 0;
    else if (event.key === "End") next = items.length - 1;
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
      next = index <= 0 ? items.length - 1 : index - 1;
    } else next = index < 0 || index === items.length - 1 ? 0 : index + 1;
    for (const item of group.querySelectorAll("[tabindex='0']")) item.tabIndex = -1;
    items[next].tabIndex = 0;
    items[next].focus();
    event.preventDefault();
  });
}
