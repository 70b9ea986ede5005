// Table chat: lines come in view.room.chat and are always inserted as text.

import { t } from "./i18n.js";

// The log is append-only while the language stays the same, so that its live region
// announces new lines, not the whole conversation again.
let shownLang = "";
let shownAt = [];

function lineItem(line) {
  const li = document.createElement("li");
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = `${line.name}:`;
  const text = document.createElement("span");
  text.className = "text";
  text.textContent = line.text;
  li.append(who, " ", text);
  return li;
}

export function renderChat(view) {
  const room = view.room;
  const section = document.getElementById("chat");
  section.hidden = Boolean(room.practice);
  const seated = room.your_seat !== null && room.your_seat !== undefined;
  document.getElementById("chat-form").hidden = !seated;
  const lines = room.chat || [];
  const log = document.getElementById("chat-log");
  const lang = document.documentElement.lang;
  const last = shownAt.length ? shownAt[shownAt.length - 1] : null;
  const known = last === null ? -1 : lines.findIndex((l) => l.at === last);
  if (lang === shownLang && shownAt.length && known >= 0) {
    for (const line of lines.slice(known + 1)) log.append(lineItem(line));
    while (log.children.length > lines.length) log.firstElementChild.remove();
  } else if (!lines.length) {
    const li = document.createElement("li");
    li.className = "system";
    li.textContent = t("chat.empty");
    log.replaceChildren(li);
  } else {
    log.replaceChildren(...lines.map(lineItem));
  }
  const added = lines.length && lines[lines.length - 1].at !== last;
  shownLang = lang;
  shownAt = lines.map((l) => l.at);
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
}
