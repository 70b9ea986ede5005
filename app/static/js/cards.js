// @ts-check
// Card faces drawn with CSS, text and an SVG suit sprite (static/cards/suits.svg).
//
// A face shows the rank and suit symbol; its accessible name is the full card name
// ("Ace of spades") in a visually hidden span, so a button made of a card is named by it.

import { assetUrl } from "./assets.js";
import { cardName, t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const SPRITE = assetUrl("/static/cards/suits.svg");
/** @type {Record<string, string>} */
const SUIT_CLASS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

/** A card's suit letter (S, H, D, C), null for a joker.
 * @param {string} id */
export function suitOf(id) {
  // a joker's id is JK1 or JK2

  return id.startsWith("JK") ? null : id.charAt(1);
}

/** An SVG suit symbol (decorative).
 * @param {string} suit
 * @param {string} [className] */
export function pip(suit, className = "pip") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `${SPRITE}#${suit}`);
  svg.append(use);
  return svg;
}

/** @param {string} text */
function srOnly(text) {
  const span = document.createElement("span");
  span.className = "sr-only";
  span.textContent = text;
  return span;
}

/**
 * @template {HTMLElement} E
 * @param {E} el
 * @param {string} id
 * @param {string} [label]
 * @returns {E} */
function fillFace(el, id, label) {
  const suit = suitOf(id);
  el.classList.add("card", "face", suit ? `suit-${SUIT_CLASS[suit]}` : "joker");
  el.dataset.card = id;
  el.append(srOnly(label ?? cardName(id)));
  const face = document.createElement("span");
  face.className = "face-art";
  face.setAttribute("aria-hidden", "true");
  const corner = document.createElement("span");
  corner.className = "corner";
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = suit ? t(`rank.short.${id.charAt(0)}`) : t("rank.short.joker");
  corner.append(rank, pip(suit || "J", "pip small"));
  face.append(corner, pip(suit || "J", "pip big"));
  el.append(face);
  return el;
}

/** A card as a <button> (for the hand); `data-action` tells the click handler what to do.
 * @param {string} id
 * @param {string} action */
export function cardButton(id, action) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.action = action;
  return fillFace(button, id);
}

/** A card face that is not a control (trick, kitty, last trick).
 * @param {string} id
 * @param {string} [label] */
export function cardFace(id, label) {
  return fillFace(document.createElement("div"), id, label);
}

/** A face-down card (another player's hand). */
export function cardBack() {
  const div = document.createElement("div");
  div.className = "card back";
  div.setAttribute("aria-hidden", "true");
  return div;
}

/** The short text for a card in history lines, e.g. "A♥" becomes rank + symbol element.
 * @param {string} id */
export function cardChip(id) {
  const span = document.createElement("span");
  const suit = suitOf(id);
  span.className = `chip ${suit ? "suit-" + SUIT_CLASS[suit] : "joker"}`;
  span.append(srOnly(cardName(id)));
  const visible = document.createElement("span");
  visible.setAttribute("aria-hidden", "true");
  visible.textContent = suit ? t(`rank.short.${id.charAt(0)}`) : t("rank.short.joker");
  visible.append(pip(suit || "J", "pip inline"));
  span.append(visible);
  return span;
}

/** A suit's symbol and name (the trump in the contract banner).
 * @param {string} letter */
export function suitChip(letter) {
  const span = document.createElement("span");
  span.className = `chip suit-${SUIT_CLASS[letter]}`;
  span.append(pip(letter, "pip inline"));
  span.append(document.createTextNode(` ${t(`suit.${letter}`)}`));
  return span;
}
