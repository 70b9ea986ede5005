// @ts-check
// The lobby's form controls turned into client messages: the host's preset and each rule
// option (lobby.js), the room's settings (lobby.js's settings box) and an empty seat's
// bot level (table.js). Without the DOM, so testable in Node: room.js's one change
// listener reads the control (`LobbyChange`) and sends what this returns. The grand
// checkbox is no message (a selection of the page's own: room.js).

/** @typedef {import("./protocol.js").ClientMessage} ClientMessage */
/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./rulesmeta.js").RulesMeta} RulesMeta */

/**
 * A changed form control, as the change listener reads it.
 * @typedef {object} LobbyChange
 * @property {string} kind its `data-change`: `seat-bot`, `preset`, `rule` or `settings`
 * @property {string} value
 * @property {boolean} checked a checkbox that is ticked (false for any other control)
 * @property {DOMStringMap} data its data attributes (`seat`, `option` and `type`,
 *   `setting` and `kind`)
 */

/** The message a change of the lobby's controls sends, or null when it sends none (a
 *  setting's number that is not a whole number, or a kind it does not know). A rule
 *  option's change sends the whole rule set, `rules` (the view's) with that option
 *  changed; an emptied number field drops the option (the preset's, or derived, again).
 * @param {LobbyChange} change
 * @param {View["room"]["rules"]} rules
 * @param {RulesMeta | null} meta the rules' metadata (a choice's values), if loaded
 * @returns {ClientMessage | null} */
export function lobbyChangeMessage(change, rules, meta) {
  const { kind, value, checked, data } = change;
  if (kind === "seat-bot") return { type: "seat_bot", seat: Number(data.seat), level: value };
  if (kind === "preset") return { type: "rules", rules: { preset: value } };
  if (kind === "rule") return { type: "rules", rules: changedRules(change, rules, meta) };
  if (kind !== "settings") return null;
  const setting = data.setting ?? "";
  // One of the settings lobby.js draws, so the message is a SettingsMessage.
  /** @param {unknown} v */
  const settings = (v) => /** @type {ClientMessage} */ ({ type: "settings", [setting]: v });
  if (data.kind === "bool") return settings(checked);
  if (setting === "bot_pace") return settings(value);
  const number = Number(value);
  return value !== "" && Number.isInteger(number) ? settings(number) : null;
}

/** @param {LobbyChange} change
 * @param {View["room"]["rules"]} current
 * @param {RulesMeta | null} meta */
function changedRules({ value, checked, data }, current, meta) {
  const rules = { ...current };
  const option = data.option ?? "";
  const type = data.type;
  if (type === "bool") rules[option] = checked;
  else if (type === "choice") {
    const spec = meta && meta.options[option];
    rules[option] = (spec && spec.values || []).find((v) => String(v) === value);
  } else if (type === "match") rules[option] = value;
  else if (value === "") delete rules[option];
  else rules[option] = Number(value);
  return rules;
}

/** Whether two rule sets name the same options with the same values, in any order.
 * @param {Record<string, unknown>} a
 * @param {Record<string, unknown>} b */
export function sameRules(a, b) {
  /** @param {Record<string, unknown>} rules */
  const sorted = (rules) => JSON.stringify(Object.entries(rules).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  return sorted(a) === sorted(b);
}
