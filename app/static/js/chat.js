// @ts-check
// Table chat: people's lines, the table's own lines (someone sat down, left, a bot stands
// in, time ran out: translated here from the event's name) and quick reactions.  Lines
// come in view.room.chat and are always inserted as text.

import { assetUrl } from "./assets.js";
import { t } from "./i18n.js";
import { byId, el } from "./dom.js";
import { LIMITS, REACTIONS } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").RoomInfo} RoomInfo */
/** @typedef {import("./protocol.js").ChatLine} ChatLine */
/** @typedef {import("./protocol.js").ClientMessage} ClientMessage */

// How each of the protocol's reactions looks (the list itself is the server's): an icon
// of cards/reactions.svg, drawn, so that it shows where no emoji font is installed; the
// word is its accessible name. A reaction added to the contract fails the type check
// until it has its icon here.
/** @type {Record<import("./protocol.js").ReactionValue, string>} */
const ICON = { nice: "nice", oops: "oops", thanks: "thanks", wow: "wow", gg: "gg" };
const SVG_NS = "http://www.w3.org/2000/svg";
const SPRITE = assetUrl("/static/cards/reactions.svg");

/** A reaction's icon (decorative: its word names it).
 * @param {string} reaction */
function reactionIcon(reaction) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "reaction-icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `${SPRITE}#${ICON[/** @type {import("./protocol.js").ReactionValue} */ (reaction)] || "nice"}`);
  svg.append(use);
  return svg;
}

// The log is append-only while the language stays the same, so that its live region
// announces new lines, not the whole conversation again.
let shownLang = "";
/** @type {string[]} */
let shownAt = [];

/** @param {ChatLine} line */
function speaker(line) {
  return line.seat === null || line.seat === undefined ? t("chat.spectator") : line.name;
}

/** @param {ChatLine} line */
function lineItem(line) {
  const kind = line.kind || "text";
  if (kind === "system") {
    return el("li", "system", t(`chat.system.${line.text}`, { name: line.name }));
  }
  const li = el("li", kind === "reaction" ? "reaction" : "");
  li.append(el("span", "who", `${speaker(line)}:`), " ");
  if (kind === "reaction") {
    li.append(reactionIcon(line.text), " ", el("span", "text", t(`reaction.${line.text}`)));
  } else li.append(el("span", "text", line.text));
  return li;
}

/** Who may write: a seated person, or a spectator while the host allows it
 *  (tests/js/chat.test.js).
 * @param {RoomInfo} room */
export function maySpeak(room) {
  const seated = room.your_seat !== null && room.your_seat !== undefined;
  return seated || room.settings.spectator_chat !== false;
}

/** @param {View} view */
export function renderChat(view) {
  const room = view.room;
  const section = byId("chat");
  section.hidden = Boolean(room.practice);
  const speak = maySpeak(room);
  byId("chat-form").hidden = !speak;
  byId("reactions").hidden = !speak;
  const lines = room.chat || [];
  const log = byId("chat-log");
  const lang = document.documentElement.lang;
  /** @param {ChatLine} l */
  const key = (l) => `${l.at}:${l.seat}:${l.text}`;
  const last = shownAt.length ? shownAt[shownAt.length - 1] : null;
  const known = last === null ? -1 : lines.findIndex((l) => key(l) === last);
  if (lang === shownLang && shownAt.length && known >= 0) {
    for (const line of lines.slice(known + 1)) log.append(lineItem(line));
    while (log.children.length > lines.length) log.firstElementChild?.remove();
  } else if (!lines.length) {
    log.replaceChildren(el("li", "system", t("chat.empty")));
  } else {
    log.replaceChildren(...lines.map(lineItem));
  }
  const newest = lines[lines.length - 1];
  const added = newest !== undefined && key(newest) !== last;
  shownLang = lang;
  shownAt = lines.map(key);
  if (added) log.scrollTop = log.scrollHeight;
}

/** @param {(message: ClientMessage) => void} send */
export function setUpChat(send) {
  const form = byId("chat-form");
  const input = byId("chat-text", HTMLInputElement);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send({ type: "chat", text: text.slice(0, LIMITS.CHAT_MAX) });
    input.value = "";
  });
  const box = byId("reactions");
  box.replaceChildren(...REACTIONS.map((id) => {
    const b = el("button", "reaction-button");
    b.type = "button";
    b.dataset.action = "react";
    b.dataset.reaction = id;
    b.dataset.i18nLabel = `reaction.${id}`;
    b.dataset.i18nTitle = `reaction.${id}`;
    b.setAttribute("aria-label", t(`reaction.${id}`));
    b.title = t(`reaction.${id}`);
    b.append(reactionIcon(id));
    return b;
  }));
}
