// The deal log: who bid what, the contract and the call, the kitty when this seat may see
// it, each finished trick and who won it.  Drawn from the view alone (`auction`,
// `contract`, `kitty`, `discards`, `tricks`), so it is complete after a reload, and the
// same for every seat and spectator except what only the bidder may see.

import { cardChip } from "./cards.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";
import { bidText, seatName } from "./table.js";

function chips(ids) {
  const span = el("span", "chips");
  ids.forEach((id, i) => {
    if (i) span.append(" ");
    span.append(cardChip(id));
  });
  return span;
}

function section(title, ...children) {
  const box = el("section", "log-part");
  box.append(el("h3", "", title), ...children);
  return box;
}

function contractLine(view) {
  const c = view.contract;
  const p = el("p", "", t("contract.bid", { name: seatName(view, c.bidder), bid: bidText(c.bid) }));
  if (c.bid === "amerikaner") return p;
  if (c.grand || (!c.trump && c.called)) p.append(". ", t("contract.no_trump"));
  else if (c.trump) p.append(". ", t("contract.trump"), " ", t(`suit.${c.trump}`));
  if (c.called) p.append(". ", t("contract.called"), " ", cardChip(c.called));
  if (c.partner !== null && c.partner !== undefined && c.partner !== c.bidder) {
    p.append(". ", t("contract.partner", { name: seatName(view, c.partner) }));
  } else if (c.called === null && view.phase !== "auction" && view.phase !== "discard") {
    p.append(". ", t("log.alone"));
  }
  return p;
}

function trickItem(view, trick, index) {
  const li = el("li", "log-trick");
  li.append(el("span", "log-no", t("log.trick", { n: index + 1 })), " ");
  trick.cards.forEach((play, i) => {
    if (i) li.append(", ");
    const who = el("span", play.seat === trick.winner ? "log-winner" : "", `${seatName(view, play.seat)} `);
    li.append(who, cardChip(play.card));
  });
  li.append(el("span", "log-won", ` ${t("log.won_by", { name: seatName(view, trick.winner) })}`));
  return li;
}

export function renderDealLog(view) {
  const box = document.getElementById("deal-log-box");
  const body = document.getElementById("deal-log");
  const active = view.phase !== "lobby" && view.deal_number > 0;
  box.hidden = !active;
  if (!active) {
    body.replaceChildren();
    return;
  }
  const parts = [];
  const auction = view.auction || [];
  if (auction.length) {
    const list = el("ol", "history");
    for (const entry of auction) {
      list.append(el("li", "", t("auction.line", { name: seatName(view, entry.seat), bid: bidText(entry.bid) })));
    }
    parts.push(section(t("room.auction_history"), list));
  }
  if (view.contract) parts.push(section(t("log.contract"), contractLine(view)));
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
    tricks.forEach((trick, i) => list.append(trickItem(view, trick, i)));
    parts.push(section(t("log.tricks"), list));
  }
  if (!parts.length) parts.push(el("p", "hint", t("log.empty")));
  body.replaceChildren(...parts);
}
