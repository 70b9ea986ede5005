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
