// Table chat: lines come in view.room.chat and are always inserted as text.

import { t } from "./i18n.js";

let lastSignature = "";

export function renderChat(view) {
  const room = view.room;
  const section = document.getElementById("chat");
  section.hidden = Boolean(room.practice);
  const seated = room.your_seat !== null && room.your_seat !== undefined;
  document.getElementById("chat-form").hidden = !seated;
  const lines = room.chat || [];
  const signature = JSON.stringify(lines.map((l) => l.at)) + document.documentElement.lang;
  if (signature === lastSignature) return;
  lastSignature = signature;
  const log = document.getElementById("chat-log");
  if (!lines.length) {
    const li = document.createElement("li");
    li.className = "system";
    li.textContent = t("chat.empty");
    log.replaceChildren(li);
    return;
  }
  log.replaceChildren(...lines.map((line) => {
    const li = document.createElement("li");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = `${line.name}:`;
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = line.text;
    li.append(who, " ", text);
    return li;
  }));
  log.scrollTop = log.scrollHeight;
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
