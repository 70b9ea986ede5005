// The auction: Pass, one button per number of the bid range (only the legal ones
// enabled), Amerikaner when the rules have it; and the auction's history.

import { t } from "./i18n.js";
import { bidText, seatName } from "./table.js";

function button(text, action, data, enabled) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.dataset.action = action;
  Object.assign(b.dataset, data);
  b.dataset.key = `${action}:${data.bid ?? ""}`;
  b.disabled = !enabled;
  return b;
}

/** The bid buttons for the seat to act (an element), or null when it is not our turn. */
export function auctionControls(view) {
  const legal = new Set(view.legal.filter((a) => "bid" in a).map((a) => String(a.bid)));
  if (view.phase !== "auction" || !legal.size) return null;
  const rules = view.room.rules_resolved || {};
  const box = document.createElement("div");
  box.className = "bids";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("auction.your_bid"));
  box.append(button(t("bid.pass"), "bid", { bid: "pass" }, legal.has("pass")));
  const numbers = view.legal.filter((a) => typeof a.bid === "number").map((a) => a.bid);
  const low = rules.min_bid ?? Math.min(...numbers);
  const high = rules.max_bid ?? Math.max(...numbers);
  for (let n = low; n <= high; n++) {
    box.append(button(t("bid.number", { n }), "bid", { bid: String(n) }, legal.has(String(n))));
  }
  if (rules.amerikaner !== false || legal.has("amerikaner")) {
    box.append(button(t("bid.amerikaner"), "bid", { bid: "amerikaner" }, legal.has("amerikaner")));
  }
  // Practice: the best bot's choice gets the same dashed outline as a hinted card.
  if (view.hint && "bid" in view.hint) {
    const hinted = box.querySelector(`[data-bid="${String(view.hint.bid)}"]`);
    if (hinted) hinted.classList.add("hinted");
  }
  return box;
}

export function renderAuctionHistory(view) {
  const box = document.getElementById("auction-box");
  const list = document.getElementById("auction-history");
  box.hidden = !view.auction || !view.auction.length;
  if (box.hidden) return;
  if (view.phase === "auction") box.open = true;
  list.replaceChildren(...view.auction.map((entry) => {
    const li = document.createElement("li");
    li.textContent = t("auction.line", { name: seatName(view, entry.seat), bid: bidText(entry.bid) });
    return li;
  }));
}
