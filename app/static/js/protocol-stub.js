// @ts-check
// A stand-in for the generated protocol.js (issue 22), with the names it is expected to
// export, until that file lands: the client imports the contract from this one file, so
// the swap is one import path.  DELETE once app/static/js/protocol.js is merged.

export const Phase = /** @type {const} */ ({
  LOBBY: "lobby", AUCTION: "auction", DISCARD: "discard", LEAD: "lead", PLAY: "play",
  OVER: "over", DEAL_OVER: "deal_over", MATCH_OVER: "match_over",
});

/** @typedef {typeof Phase[keyof typeof Phase]} PhaseName */

export const Outcome = /** @type {const} */ ({ PLAYED: "played", VOID: "void", MINUS_ROUND: "minus_round" });

export const TURN_SECONDS = /** @type {const} */ ([0, 30, 60, 120]);
export const BOT_PACES = /** @type {const} */ (["relaxed", "normal", "fast"]);
export const REACTIONS = /** @type {const} */ (["nice", "oops", "thanks", "wow", "gg"]);
export const LIMITS = /** @type {const} */ ({
  grace_seconds: { min: 0, max: 600 }, next_deal_pause: { min: 0, max: 300 }, chat_text: 200,
});
export const CloseCode = /** @type {const} */ ({ BAD_TOKEN: 4401, FORBIDDEN: 4403, NO_ROOM: 4404 });

/** @typedef {number | string} Bid */
/** @typedef {{ seat: number, card: string }} TrickCard */
/** @typedef {{ cards: TrickCard[], winner: number }} LastTrick */
/** @typedef {{ bidder: number, bid: Bid | null, trump: string | null, called: string | null,
 *   partner: number | null, grand: boolean }} Contract */
/** @typedef {{ seat: number, bid: Bid }} AuctionEntry */
/** @typedef {{ outcome: string, points: number[], made: boolean | null, tricks_won: number[],
 *   kitty_trick: boolean }} Result */
/** An action in the record's shape (`legal` holds the discard as its count).
 * @typedef {{ bid?: Bid, play?: string, call?: string | null, grand?: boolean,
 *   discard?: string[] | number }} Action */
/** @typedef {{ seat: number, name: string | null, bot: string | null, human: boolean,
 *   connected: boolean, away: boolean, host: boolean, ready: boolean, takeover: boolean,
 *   joining: string | null, again: boolean }} SeatInfo */
/** @typedef {{ seat: number | null, name: string, text: string, at: number,
 *   kind: "text" | "system" | "reaction" }} ChatLine */
/** @typedef {{ seat: number, until: number, kind: "grace" | "turn" }} Clock */
/** @typedef {{ number: number, players: string[], score_sheet: number[][], totals: number[],
 *   winners: number[] }} MatchSummary */
/** @typedef {{ grace_seconds: number, next_deal_pause: number, turn_seconds: number,
 *   bot_pace: string, spectator_chat: boolean, bot_levels: string[] }} RoomSettings */
/** @typedef {{ code: string, practice: boolean, host: number | null, you_are_host: boolean,
 *   your_seat: number | null, seats: SeatInfo[], spectators: number,
 *   rules: Record<string, unknown>, rules_resolved: Record<string, any>,
 *   settings: RoomSettings, next_deal_at: number | null, clock: Clock | null,
 *   chat: ChatLine[], match_number: number, record_available: boolean,
 *   history: MatchSummary[] }} RoomInfo */
/** @typedef {{ phase: PhaseName, you: number | null, turn: number | null, hand: string[],
 *   legal: Action[], contract: Contract | null, trick: TrickCard[], tricks_won: number[],
 *   scores: number[], players: number, dealer: number | null, deal_number: number,
 *   hand_size: number, hand_counts: number[], auction: AuctionEntry[],
 *   kitty: string[] | null, kitty_size: number, discards: string[] | null,
 *   last_trick: LastTrick | null, tricks: LastTrick[], tricks_played: number,
 *   minus_round: boolean, result: Result | null, score_sheet: number[][],
 *   winners: number[], redeal: string | null, you_are_partner: boolean,
 *   room: RoomInfo }} View */
/** @typedef {{ type: string, seat?: number | null, card?: string }} Event */
/** @typedef {{ type: "state", version: number, game: number, events: Event[], view: View }} StateFrame */
/** @typedef {{ type: "welcome", room: string, seat: number | null, version: number, game: number }} WelcomeFrame */
/** @typedef {{ type: "error", code: string, message: string, option?: string }} ErrorFrame */
/** @typedef {{ key: string, params: Record<string, unknown> }} Reason */
/** @typedef {{ type: "hint", game: number, seat: number, action: Action, key: string,
 *   params: Record<string, unknown> }} HintFrame */
/** @typedef {{ phase: PhaseName, trick: number | null, chosen: Action, best: Action, loss: number,
 *   loss_error: number }} Decision */
/** @typedef {{ error?: string, busy?: boolean, double_dummy?: number | null, side_tricks?: number,
 *   decisions?: Decision[] }} Review */
/** @typedef {{ type: "review", match: number, deal: number, seat: number, review: Review }} ReviewFrame */
/** @typedef {{ type: "pong" }} PongFrame */
/** @typedef {StateFrame | WelcomeFrame | ErrorFrame | HintFrame | ReviewFrame | PongFrame} ServerFrame */
/** @typedef {{ type: string, [key: string]: unknown }} ClientMessage */
