// Table chat: people's lines, the table's own lines (someone sat down, left, a bot stands
// in, time ran out: translated here from the event's name) and quick reactions.  Lines
// come in view.room.chat and are always inserted as text.

import { t } from "./i18n.js";
import { el } from "./dom.js";

export const REACTIONS = { nice: "👍", oops: "😬", thanks: "🙏", wow: "😮", gg: "🤝" };

// The log is append-only while the language stays the same, so that its live region
// announces new lines, not the whole conversation again.
let shownLang = "";
let shownAt = [];

function speaker(line) {
  return line.seat === null || line.seat === undefined ? t("chat.spectator") : line.name;
}

function lineItem(line) {
  const kind = line.kind || "text";
  if (kind === "system") {
    return el("li", "system", t(`chat.system.${line.text}`, { name: line.name }));
  }
  const li = el("li", kind === "reaction" ? "reaction" : "");
  li.append(el("span", "who", `${speaker(line)}:`), " ");
  if (kind === "reaction") {
    const emoji = el("span", "emoji", REACTIONS[line.text] || "");
    emoji.setAttribute("aria-hidden", "true");
    li.append(emoji, " ", el("span", "text", t(`reaction.${line.text}`)));
  } else li.append(el("span", "text", line.text));
  return li;
}

/** Who may write: a seated person, or a spectator while the host allows it. */
function maySpeak(room) {
  const seated = room.your_seat !== null && room.your_seat !== undefined;
  return seated || room.settings.spectator_chat !== false;
}

export function renderChat(view) {
  const room = view.room;
  const section = document.getElementById("chat");
  section.hidden = Boolean(room.practice);
  const speak = maySpeak(room);
  document.getElementById("chat-form").hidden = !speak;
  document.getElementById("reactions").hidden = !speak;
  const lines = room.chat || [];
  const log = document.getElementById("chat-log");
  const lang = document.documentElement.lang;
  const key = (l) => `${l.at}:${l.seat}:${l.text}`;
  const last = shownAt.length ? shownAt[shownAt.length - 1] : null;
  const known = last === null ? -1 : lines.findIndex((l) => key(l) === last);
  if (lang === shownLang && shownAt.length && known >= 0) {
    for (const line of lines.slice(known + 1)) log.append(lineItem(line));
    while (log.children.length > lines.length) log.firstElementChild.remove();
  } else if (!lines.length) {
    log.replaceChildren(el("li", "system", t("chat.empty")));
  } else {
    log.replaceChildren(...lines.map(lineItem));
  }
  const added = lines.length && key(lines[lines.length - 1]) !== last;
  shownLang = lang;
  shownAt = lines.map(key);
  if (added) log.scrollTop = log.scrollHeight;
}

export function setUpChat(send) {
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-text");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send({ type: "chat", text: text.slice(0, 200) });
    input.value = "";
  });
  const box = document.getElementById("reactions");
  box.replaceChildren(...Object.entries(REACTIONS).map(([id, emoji]) => {
    const b = el("button", "reaction-button");
    b.type = "button";
    b.dataset.action = "react";
    b.dataset.reaction = id;
    b.dataset.i18nLabel = `reaction.${id}`;
    b.dataset.i18nTitle = `reaction.${id}`;
    b.setAttribute("aria-label", t(`reaction.${id}`));
    b.title = t(`reaction.${id}`);
    b.append(emoji);
    return b;
  }));
}
