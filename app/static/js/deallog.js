// @ts-check
// The deal log: who bid what, the contract and the call, the kitty when this seat may see
// it, each finished trick and who won it.  Drawn from the view alone (`auction`,
// `contract`, `kitty`, `discards`, `tricks`), so it is complete after a reload, and the
// same for every seat and spectator except what only the bidder may see.  The wording is
// in dealwords.js.

import { cardChip } from "./cards.js";
import { t } from "./i18n.js";
import { byId, el } from "./dom.js";
import { auctionLines, contractPieces, trickWords } from "./dealwords.js";
import { Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./dealwords.js").Piece} Piece */

/** @param {string[]} ids */
function chips(ids) {
  const span = el("span", "chips");
  ids.forEach((id, i) => {
    if (i) span.append(" ");
    span.append(cardChip(id));
  });
  return span;
}

/** @param {Piece[]} pieces */
function paragraph(pieces) {
  const p = el("p");
  for (const piece of pieces) p.append(typeof piece === "string" ? piece : cardChip(piece.card));
  return p;
}

/**
 * @param {string} title
 * @param {...Node} children */
function section(title, ...children) {
  const box = el("section", "log-part");
  box.append(el("h3", "", title), ...children);
  return box;
}

/** @param {import("./dealwords.js").TrickWords} words */
function trickItem(words) {
  const li = el("li", "log-trick");
  li.append(el("span", "log-no", words.number), " ");
  words.plays.forEach((play, i) => {
    if (i) li.append(", ");
    li.append(el("span", play.won ? "log-winner" : "", `${play.who} `), cardChip(play.card));
  });
  li.append(el("span", "log-won", ` ${words.wonBy}`));
  return li;
}

/** @param {View} view */
export function renderDealLog(view) {
  const box = byId("deal-log-box");
  const body = byId("deal-log");
  const active = view.phase !== Phase.LOBBY && view.deal_number > 0;
  box.hidden = !active;
  if (!active) {
    body.replaceChildren();
    return;
  }
  /** @type {HTMLElement[]} */
  const parts = [];
  const auction = auctionLines(view);
  if (auction.length) {
    const list = el("ol", "history");
    for (const line of auction) list.append(el("li", "", line));
    parts.push(section(t("room.auction_history"), list));
  }
  if (view.contract) parts.push(section(t("log.contract"), paragraph(contractPieces(view, view.contract))));
  if (view.kitty && view.kitty.length) {
    const p = el("p", "", `${t("center.kitty")} `);
    p.append(chips(view.kitty));
    const extra = [];
    if (view.discards && view.discards.length) {
      const d = el("p", "", `${t("center.your_discards")} `);
      d.append(chips(view.discards));
      extra.push(d);
    }
    parts.push(section(t("log.kitty"), p, ...extra));
  }
  const tricks = view.tricks || [];
  if (tricks.length) {
    const list = el("ol", "log-tricks");
    tricks.forEach((trick, i) => list.append(trickItem(trickWords(view, trick, i))));
    parts.push(section(t("log.tricks"), list));
  }
  if (!parts.length) parts.push(el("p", "hint", t("log.empty")));
  body.replaceChildren(...parts);
}
