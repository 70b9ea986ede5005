// @ts-check
// The table: the seats around it (you at the bottom; left, top, right clockwise as in
// the source app), the contract banner and whose turn it is.

import { cardBack, cardChip, cardFace, suitChip } from "./cards.js";
import { has, t, tn, tParts } from "./i18n.js";
import { countdown } from "./clock.js";
import { byId, drawUnlessSame, el, replaceIfDifferent } from "./dom.js";
import { Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").SeatInfo} SeatInfo */
/** @typedef {import("./protocol.js").Clock} Clock */
/** @typedef {import("./payloads.js").Bid} Bid */
/** @typedef {import("./protocol.js").PhaseValue} PhaseValue */

/** @param {PhaseValue[]} phases */
const phaseSet = (phases) => new Set(phases);
// The phases in which the seats show their tricks, the centre a redeal's reason, the
// bidder their discards.
const TRICKS_SHOWN = phaseSet([Phase.PLAY, Phase.LEAD, Phase.DEAL_OVER, Phase.MATCH_OVER]);
const REDEAL_SHOWN = phaseSet([Phase.AUCTION, Phase.DISCARD, Phase.LEAD]);
const DISCARDS_SHOWN = phaseSet([Phase.LEAD, Phase.PLAY]);

// Clockwise from you: seat you+1 is on your left (docs/spec/RULES.md: "left of seat i" is i+1).
/** @type {Record<number, string[]>} */
const POSITIONS = {
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "topleft", "topright", "right"],
};

/** The seat shown at the bottom: yours, your claimed seat, or seat 0 for a spectator.
 * @param {View} view */
export function viewerSeat(view) {
  if (view.you !== null && view.you !== undefined) return view.you;
  const claimed = view.room && view.room.your_seat;
  return claimed === null || claimed === undefined ? 0 : claimed;
}

/**
 * @param {View} view
 * @param {number} seat */
export function positionOf(view, seat) {
  const n = view.players;
  const offset = (seat - viewerSeat(view) + n) % n;
  return (POSITIONS[n] || POSITIONS[4] || [])[offset] ?? "bottom";
}

/** A seat's display name: the person's name, "Bot 2", or "Empty seat".
 * @param {View} view
 * @param {number} seat */
export function seatName(view, seat) {
  const info = view.room && view.room.seats[seat];
  // a person's own name; a seat a bot plays is named in the page's language (the server
  // names it "Bot 2" for the record, whatever the language)
  if (info && info.name && info.human && !info.takeover) return info.name;
  if (view.phase === Phase.LOBBY && info && !info.human) return t("seat.empty", { n: seat + 1 });
  return t("seat.bot", { n: seat + 1 });
}

/**
 * @param {string} text
 * @param {string} kind */
function badge(text, kind) {
  return el("span", `badge ${kind}`, text);
}

/** "Bot: good" for a level the interface knows, else the level's own name.
 * @param {string} level */
export function botLabel(level) {
  return has(`bot.${level}`) ? t(`bot.${level}`) : level;
}

/** @param {Bid | null} bid */
export function bidText(bid) {
  if (bid === "pass") return t("bid.pass_done");
  if (bid === "amerikaner") return t("bid.amerikaner");
  return String(bid);
}

/**
 * @param {View} view
 * @param {number} seat
 * @param {SeatInfo} info */
function lobbySeatControls(view, seat, info) {
  const box = el("div", "seat-controls");
  const room = view.room;
  const seated = room.your_seat !== null && room.your_seat !== undefined;
  if (!info.human && !seated && !room.practice) {
    const take = el("button", "", t("seat.take", { n: seat + 1 }));
    take.type = "button";
    take.dataset.action = "take-seat";
    take.dataset.seat = String(seat);
    take.dataset.key = `take-seat:${seat}`;
    box.append(take);
  }
  if (!info.human && room.you_are_host) {
    const label = el("label", "bot-level");
    const span = el("span", "sr-only", t("seat.bot_level", { n: seat + 1 }));
    const select = el("select");
    select.dataset.change = "seat-bot";
    select.dataset.seat = String(seat);
    select.dataset.key = `seat-bot:${seat}`;
    for (const level of room.settings.bot_levels) {
      const option = el("option", "", botLabel(level));
      option.value = level;
      select.append(option);
    }
    select.value = info.bot || room.settings.bot_levels[0] || "";
    label.append(span, select);
    box.append(label);
  } else if (!info.human && info.bot) {
    box.append(el("span", "hint-on-felt", botLabel(info.bot)));
  }
  return box;
}

/** The time left for the seat being waited for (ticked by clock.js).
 * @param {Clock} clock */
function clockBadge(clock) {
  const box = el("div", `seat-clock ${clock.kind}`);
  box.append(el("span", "sr-only", t(`clock.${clock.kind}`)), " ", countdown(clock.until));
  return box;
}

/**
 * @param {View} view
 * @param {number} seat
 * @param {SeatInfo} info */
function seatBox(view, seat, info) {
  const pos = positionOf(view, seat);
  const box = el("div", `seat pos-${pos}`);
  box.dataset.seat = String(seat);
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", seatName(view, seat));
  if (view.turn === seat) box.classList.add("turn");
  const isYou = view.room.your_seat === seat;
  const name = el("div", "name", seatName(view, seat));
  box.append(name);
  const badges = el("div", "badges");
  if (isYou) badges.append(badge(t("seat.you"), "you"));
  if (info.host) badges.append(badge(t("seat.host"), "host"));
  if (view.phase !== Phase.LOBBY && view.dealer === seat) badges.append(badge(t("seat.dealer"), "dealer"));
  const contract = view.contract;
  if (contract && contract.bidder === seat) badges.append(badge(t("seat.bidder"), "bidder"));
  if (contract && contract.partner === seat && contract.partner !== contract.bidder) {
    badges.append(badge(t(secretPartner(view, contract) ? "seat.partner_secret" : "seat.partner"), "partner"));
  }
  if (info.away) badges.append(badge(t("seat.away"), "away"));
  else if (info.human && !info.connected) badges.append(badge(t("seat.disconnected"), "away"));
  if (info.joining) badges.append(badge(t("seat.joining", { name: info.joining }), "host"));
  else if (info.takeover) badges.append(badge(t("seat.takeover"), "host"));
  if (view.phase === Phase.MATCH_OVER && info.human && info.again) badges.append(badge(t("seat.again"), "host"));
  if (view.phase === Phase.DEAL_OVER && info.human && info.ready) badges.append(badge(t("seat.ready"), "host"));
  if (view.turn === seat) badges.append(badge(t("seat.to_play"), "turn-badge"));
  box.append(badges);
  const clock = view.room.clock;
  if (clock && clock.seat === seat) box.append(clockBadge(clock));

  if (view.phase === Phase.LOBBY) {
    box.append(lobbySeatControls(view, seat, info));
    return box;
  }
  if (view.phase === Phase.AUCTION) {
    const bids = view.auction.filter((b) => b.seat === seat);
    const last = bids[bids.length - 1];
    if (last) box.append(el("div", "last-bid", bidText(last.bid)));
  }
  if (seat !== view.you) {
    const count = view.hand_counts[seat] || 0;
    const backs = el("div", "backs");
    for (let i = 0; i < Math.min(count, 8); i++) backs.append(cardBack());
    box.append(backs, el("div", "count", tn("seat.cards", count, { n: count })));
  }
  if (TRICKS_SHOWN.has(view.phase) || view.tricks_played) {
    box.append(el("div", "won", t("seat.tricks", { n: view.tricks_won[seat] || 0 })));
  }
  return box;
}

/** @param {View} view */
export function renderSeats(view) {
  const container = byId("seats");
  const boxes = [];
  for (let seat = 0; seat < view.players; seat++) {
    const info = view.room.seats[seat];
    if (info) boxes.push(seatBox(view, seat, info));
  }
  drawUnlessSame(container, boxes);
}

/** Whether the viewer is the partner and nobody else knows it yet: the holder learns it
 *  from the call, the others when the called card is played (it is still in the hand).
 * @param {View} view
 * @param {{ partner: number | null, called: string | null } | null} c the contract */
export function secretPartner(view, c) {
  return Boolean(c && c.called && c.partner !== null && c.partner === view.room.your_seat
    && view.you_are_partner && (view.hand || []).includes(c.called));
}

/** A seat's name in a sentence, in a box of its own: a phone cuts a long one short with
 *  an ellipsis (screens.css), and its `title` says it whole.
 * @param {View} view
 * @param {number} seat */
function nameBox(view, seat) {
  const name = seatName(view, seat);
  const box = el("span", "name-in-text", name);
  box.title = name;
  return box;
}

/** The contract banner: bidder, bid, trump, called card, the partner once revealed.
 * @param {View} view */
export function renderContract(view) {
  const banner = byId("contract");
  /** @type {HTMLElement[]} */
  const parts = [];
  if (view.phase === Phase.LOBBY) {
    replaceIfDifferent(banner, parts);
    return;
  }
  parts.push(el("span", "deal-no", t("contract.deal", { n: view.deal_number })));
  if (view.minus_round) {
    parts.push(el("span", "", t("contract.minus_round")));
  }
  const c = view.contract;
  if (c) {
    const bid = el("span");
    bid.append(...tParts("contract.bid", { name: nameBox(view, c.bidder), bid: bidText(c.bid) }));
    parts.push(bid);
    if (c.bid !== "amerikaner" && (c.trump || c.grand || c.called)) {
      const trump = el("span", "");
      if (c.grand || !c.trump) trump.textContent = t("contract.no_trump");
      else trump.append(t("contract.trump"), " ", suitChip(c.trump));
      parts.push(trump);
    }
    if (c.called) {
      const called = el("span", "", `${t("contract.called")} `);
      called.append(cardChip(c.called));
      parts.push(called);
    }
    if (c.partner !== null && c.partner !== undefined && !secretPartner(view, c)) {
      const partner = el("span");
      partner.append(...tParts("contract.partner", { name: nameBox(view, c.partner) }));
      parts.push(partner);
    } else if (view.you_are_partner) {
      // the holder's own view: the others do not know yet (a phone shows the short form:
      // the width above the trick is short, screens.css)
      const you = el("span", "you-partner");
      you.append(el("span", "long", t("contract.you_are_partner")),
        el("span", "short", t("contract.you_are_partner_short")));
      parts.push(you);
    }
  }
  replaceIfDifferent(banner, parts);
}

/** The middle of the table under the trick: the kitty when it may be seen, your
 *  discards, a redeal or minus-round notice.
 * @param {View} view */
export function renderCenterPanel(view) {
  const panel = byId("center-panel");
  /** @type {HTMLElement[]} */
  const parts = [];
  if (view.phase === Phase.LOBBY) {
    const free = view.room.seats.filter((s) => !s.human).length;
    parts.push(el("p", "", free ? tn("center.waiting", free, { n: free }) : t("center.full")));
  }
  if (view.redeal && REDEAL_SHOWN.has(view.phase)) {
    parts.push(el("p", "", t(`center.redeal.${view.redeal}`)));
  }
  const showKitty = view.phase === Phase.DISCARD || (view.phase === Phase.LEAD && view.you !== view.contract?.bidder);
  if (view.kitty && showKitty) {
    parts.push(el("p", "kitty-label", t("center.kitty")));
    const row = el("div", "kitty-row");
    for (const id of view.kitty) row.append(cardFace(id));
    parts.push(row);
  }
  if (view.discards && DISCARDS_SHOWN.has(view.phase)) {
    const p = el("p", "your-discards", `${t("center.your_discards")} `);
    view.discards.forEach((id, i) => {
      if (i) p.append(" ");
      p.append(cardChip(id));
    });
    parts.push(p);
  }
  panel.replaceChildren(...parts);
}
