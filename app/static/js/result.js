// Between deals and at the end: the deal's result (made or not, each player's points),
// "Next deal", the winners, "Rematch" and "Download record".

import { t } from "./i18n.js";
import { bidText, seatName } from "./table.js";
import { el, replaceIfDifferent, signed } from "./dom.js";

function button(text, action, enabled = true, primary = false) {
  const b = el("button", primary ? "primary" : "", text);
  b.type = "button";
  b.dataset.action = action;
  b.dataset.key = action;
  b.disabled = !enabled;
  return b;
}

function outcomeLine(view) {
  const r = view.result;
  const c = view.contract;
  if (r.outcome === "minus_round") return el("p", "", t("result.minus_round"));
  if (!c) return el("p", "", "");
  const made = Boolean(r.made);
  const p = el("p", made ? "made" : "failed");
  p.textContent = t(made ? "result.made" : "result.failed",
    { name: seatName(view, c.bidder), bid: bidText(c.bid) });
  return p;
}

function pointsTable(view) {
  const r = view.result;
  const table = el("table", "score-table");
  const caption = el("caption", "sr-only", t("result.points_caption"));
  const head = el("thead");
  const hr = el("tr");
  for (const text of [t("result.player"), t("result.tricks"), t("result.points")]) {
    const th = el("th", "", text);
    th.scope = "col";
    hr.append(th);
  }
  head.append(hr);
  const body = el("tbody");
  for (let seat = 0; seat < view.players; seat++) {
    const tr = el("tr");
    const th = el("th", "", seatName(view, seat));
    th.scope = "row";
    tr.append(th, el("td", "", String(r.tricks_won[seat])), el("td", "", signed(r.points[seat])));
    body.append(tr);
  }
  table.append(caption, head, body);
  return table;
}

function winnersLine(view) {
  const names = view.winners.map((s) => seatName(view, s));
  const key = names.length > 1 ? "result.winners_shared" : "result.winner";
  return el("p", "winners", t(key, { names: names.join(", ") }));
}

export function renderResult(view) {
  const box = document.getElementById("result");
  const over = view.phase === "deal_over" || view.phase === "match_over";
  box.hidden = !over;
  if (!over) {
    replaceIfDifferent(box, []);
    return;
  }
  const parts = [el("h2", "", t(view.phase === "match_over" ? "result.match_heading" : "result.deal_heading", { n: view.deal_number }))];
  if (view.result) parts.push(outcomeLine(view), pointsTable(view));
  const seated = view.you !== null && view.you !== undefined;
  const room = view.room;
  const actions = el("div", "actions");
  if (view.phase === "deal_over") {
    if (seated) {
      const me = room.seats[view.you];
      actions.append(button(t("result.next_deal"), "ready", !(me && me.ready), true));
      if (me && me.ready) parts.push(el("p", "hint", t("result.waiting_ready")));
    }
    if (room.next_deal_at) parts.push(el("p", "hint", t("result.auto_next")));
  } else {
    parts.push(winnersLine(view));
    if (room.you_are_host) actions.append(button(t("result.rematch"), "rematch", true, true));
    else parts.push(el("p", "hint", t("result.rematch_wait")));
    if (room.your_seat !== null && room.your_seat !== undefined) {
      actions.append(button(t("result.download"), "download", room.record_available));
    }
  }
  parts.push(actions);
  replaceIfDifferent(box, parts);
}
