// Small DOM helpers shared by the views. Text always goes in as textContent.

/** A new element with an optional class and text. */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Points with their sign: "+7", "-7", "0". */
export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** A node's text with its countdowns read as their deadline: a ticking clock is not a
 *  change of the content. */
function stableText(node) {
  if (!node.querySelector || !node.querySelector("[data-until]")) return node.textContent;
  const copy = node.cloneNode(true);
  for (const clock of copy.querySelectorAll("[data-until]")) clock.textContent = clock.dataset.until;
  return copy.textContent;
}

/** Put `nodes` into `container` only when they differ from what it shows: a live region
 *  must not be re-announced because an unrelated part of the view changed. */
export function replaceIfDifferent(container, nodes) {
  const next = nodes.map((n) => [n.className, stableText(n),
    [...n.querySelectorAll("button, input")].map((c) => `${c.disabled}${c.checked}`).join()]
    .join("|")).join("\n");
  if (container.dataset.shown === next) return;
  container.dataset.shown = next;
  container.replaceChildren(...nodes);
}
