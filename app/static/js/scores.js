// @ts-check
// The score sheet's arithmetic, without the DOM: running totals, and where the chart puts
// lines that meet and the labels at their ends (tests/js/scores.test.js).

/** Each deal's running totals from the points of each deal.
 * @param {number[][]} sheet points per deal, per seat
 * @param {number} players
 * @returns {number[][]} */
export function runningTotals(sheet, players) {
  /** @type {number[][]} */
  const totals = [];
  let running = new Array(players).fill(0);
  for (const points of sheet) {
    running = running.map((v, i) => v + (points[i] ?? 0));
    totals.push(running);
  }
  return totals;
}

/** Lines with equal values at a point are drawn a little apart (2.5 px each), centred
 *  on the value.
 * @param {number[]} row one point's value per line
 * @returns {number[]} each line's offset */
export function tieOffsets(row) {
  const offsets = new Array(row.length).fill(0);
  /** @type {Map<number, number[]>} */
  const groups = new Map();
  row.forEach((v, s) => groups.set(v, [...(groups.get(v) || []), s]));
  for (const seats of groups.values()) {
    seats.forEach((s, i) => { offsets[s] = (i - (seats.length - 1) / 2) * 2.5; });
  }
  return offsets;
}

/** End-of-line labels, pushed apart so that none is nearer another than `gap` and all
 *  stay between `low` and `high` (when they fit).
 * @param {number[]} ys each label's wished position
 * @param {number} gap
 * @param {number} low
 * @param {number} high
 * @returns {number[]} each label's position */
export function labelPositions(ys, gap, low, high) {
  const order = ys.map((y, s) => ({ y, s })).sort((a, b) => a.y - b.y || a.s - b.s);
  /** @type {{ y: number, s: number } | undefined} */
  let before;
  for (const o of order) {
    o.y = Math.max(o.y, before ? before.y + gap : low);
    before = o;
  }
  const last = order[order.length - 1];
  if (last && last.y > high) {
    last.y = high;
    for (let i = order.length - 2; i >= 0; i--) {
      const o = /** @type {{ y: number, s: number }} */ (order[i]);
      const next = /** @type {{ y: number, s: number }} */ (order[i + 1]);
      o.y = Math.min(o.y, next.y - gap);
    }
  }
  /** @type {number[]} */
  const result = new Array(ys.length);
  for (const o of order) result[o.s] = o.y;
  return result;
}
