// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { newUiState, reviewKey, toggleDiscard } from "../../app/static/js/uistate.js";
import { mayAsk, ofThisMatch, shownReview } from "../../app/static/js/reviewlist.js";
import { Phase } from "../../app/static/js/protocol.js";
import { makeView } from "./helpers.js";

test("each page state is its own: a selection in one is not in another", () => {
  const first = newUiState();
  const second = newUiState();
  first.discard.add("AS");
  first.reviews.set(reviewKey(1, 0), null);
  assert.equal(second.discard.size, 0);
  assert.equal(second.reviews.size, 0);
  assert.equal(first.hint, null);
});

test("the result panel shows the review of the deal just finished, none during a deal", () => {
  const over = makeView({ phase: Phase.DEAL_OVER });
  over.room = { ...over.room, match_number: 2, reviewable: [0, 2] };  // deal 1 was void
  assert.equal(shownReview(over), "2:2");
  const playing = makeView({ phase: Phase.PLAY });
  playing.room = { ...playing.room, reviewable: [0, 2] };
  assert.equal(shownReview(playing), null, "a review that comes now goes to Your reviews");
});

test("a review may be asked once, and again only after it failed", () => {
  const ui = newUiState();
  const key = reviewKey(1, 0);
  assert.ok(mayAsk(ui, key));
  ui.reviews.set(key, null);
  assert.ok(!mayAsk(ui, key), "asked: waiting");
  ui.reviews.set(key, { type: "review", match: 1, deal: 0, seat: 0,
    review: { error: "the review could not be made", busy: true } });
  assert.ok(mayAsk(ui, key), "failed: ask again");
});

test("a review is of the match on the table or of an earlier one (also the last, in the lobby)", () => {
  const playing = makeView({ phase: Phase.PLAY });
  playing.room = { ...playing.room, match_number: 2, reviewable: [0, 2] };
  assert.ok(ofThisMatch(playing, 2, 2));
  assert.ok(!ofThisMatch(playing, 1, 2), "match 1 is an earlier one");
  const lobby = makeView({ phase: Phase.LOBBY });
  lobby.room = { ...lobby.room, match_number: 2, reviewable: [] };
  assert.ok(!ofThisMatch(lobby, 2, 0), "back in the lobby, match 2 is in the history");
});

test("choosing discards: at most the count, a second press puts a card back, complete at the count", () => {
  const chosen = new Set();
  assert.equal(toggleDiscard(chosen, "AS", 2), false);
  assert.equal(toggleDiscard(chosen, "KS", 2), true);
  assert.equal(toggleDiscard(chosen, "QS", 2), true, "a third card is refused; still complete");
  assert.deepEqual([...chosen], ["AS", "KS"]);
  assert.equal(toggleDiscard(chosen, "AS", 2), false);
  assert.deepEqual([...chosen], ["KS"]);
  assert.equal(toggleDiscard(chosen, "", 2), false);
  assert.equal(toggleDiscard(new Set(), "AS", 0), false, "no discard: never complete");
  assert.equal(toggleDiscard(new Set(), "AS", 1), true);
});
