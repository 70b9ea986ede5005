"""The work of a replay (``replays.py``'s routes), done in a replay worker process
(``replay_pool.py``), never on the event loop: reading an uploaded record, checking that
the whole record replays (``replay_record``, what ``amerikaner replay`` runs), and the
table after every action of the deal asked for (``deal_replay``).

A record of 1 MiB held 863 deals and 33,000 actions and took a core 0.2 to 0.4 s; an
upload may hold at most ``RECORD_DEALS_MAX`` deals and ``RECORD_ACTIONS_MAX`` actions
(``too_much_work``), so no upload holds a worker for long.  A room's own match is not
capped: its length is what its players played.

Each entry point returns a ``Done`` (``("ok", replay)``) or a ``Refusal``
(``("error", code, message, status)``): plain tuples, which cross the process boundary
without pickling an exception.
"""

from __future__ import annotations

import json
import re
from typing import Literal

from pydantic import JsonValue

from app.replay_command import parse_record
from app.rooms.core.errors import RoomError
from app.rooms.core.wire_enums import LIMITS, ErrorCode
from app.rules.record import RecordError, replay_record
from app.rules.record_shape import record_rules
from app.rules.replay_steps import DealReplay, ReplayDealLine, deal_replay

from .json_depth import MAX_DEPTH, json_depth

DEALS_MAX = LIMITS["RECORD_DEALS_MAX"]
ACTIONS_MAX = LIMITS["RECORD_ACTIONS_MAX"]

Done = tuple[Literal["ok"], DealReplay]
# (an error: its code, message, HTTP status and the facts it states, ``params``)
Refusal = tuple[Literal["error"], ErrorCode, str, int, dict[str, str | int]]
Outcome = Done | Refusal

# A surrogate escape in the JSON text ("\ud800"): only then can a parsed string hold a
# lone surrogate, which no UTF-8 answer can carry (a pair is joined into one character).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def upload_replay(raw: bytes, deal: int | None) -> Outcome:
    """Deal ``deal`` of the record uploaded as ``raw`` (``POST /api/replay``)."""
    try:
        record = read_upload(raw)
        check_work(record)
        return "ok", replay_of(record, deal, None)
    except RoomError as exc:
        return "error", exc.code, exc.message, exc.status, exc.params


def record_replay(record: dict[str, JsonValue] | str, deal: int | None,
                  match: int) -> Outcome:
    """Deal ``deal`` of a room's match ``match`` (``GET /api/rooms/{code}/replay``): its
    record, or the JSON text the store holds of it (decoded here, off the event loop)."""
    try:
        return "ok", replay_of(json.loads(record) if isinstance(record, str) else record,
                               deal, match)
    except RoomError as exc:
        return "error", exc.code, exc.message, exc.status, exc.params


def read_upload(raw: bytes) -> object:
    """The JSON of an uploaded record: no deeper than any frame (``bad_json``), then read
    as ``amerikaner replay`` reads a file (``bad_record``), with no text that UTF-8
    cannot carry (``bad_record``)."""
    if not raw.strip():
        raise RoomError(ErrorCode.BAD_RECORD, "send a game record file (JSON) as the body")
    text = raw.decode("utf-8", errors="replace")
    if text.count("[") + text.count("{") > MAX_DEPTH and json_depth(text) > MAX_DEPTH:
        raise RoomError(ErrorCode.BAD_JSON, f"the file nests deeper than {MAX_DEPTH} levels: "
                        "it is not a game record")
    try:
        record = parse_record(raw)
    except RecordError as exc:
        raise RoomError(ErrorCode.BAD_RECORD, exc.message) from None
    if _SURROGATE_ESCAPE.search(raw) and _has_lone_surrogate(record):
        raise RoomError(ErrorCode.BAD_RECORD, "the file holds a lone surrogate escape (such "
                        "as \\ud800 without its pair), which is no character: a name or "
                        "other text of a game record cannot hold it")
    return record


def _has_lone_surrogate(value: object) -> bool:
    """Whether any string in a parsed JSON value (keys too) is not valid Unicode text."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def check_work(record: object) -> None:
    """``too_much_work`` when an uploaded record holds more deals or actions than one
    replay may cost; what is not a record's shape is left to ``replay_record`` to word."""
    if not isinstance(record, dict) or not isinstance(record.get("deals"), list):
        return
    deals: list[object] = record["deals"]
    if len(deals) > DEALS_MAX:
        raise RoomError(ErrorCode.TOO_MUCH_WORK, f"this record holds {len(deals)} deals; the "
                        f"server replays records of at most {DEALS_MAX} (amerikaner replay "
                        "checks longer ones on your own computer)", 413)
    actions = sum(len(d["actions"]) for d in deals
                  if isinstance(d, dict) and isinstance(d.get("actions"), list))
    if actions > ACTIONS_MAX:
        raise RoomError(ErrorCode.TOO_MUCH_WORK, f"this record holds {actions} actions; the "
                        f"server replays records of at most {ACTIONS_MAX} (amerikaner replay "
                        "checks longer ones on your own computer)", 413)


def replay_of(record: object, deal: int | None, match: int | None) -> DealReplay:
    """Deal ``deal`` of ``record`` as ``DealReplay``, or the precise refusal: the record
    does not replay (``bad_record``, with where), it has no such deal (``no_deal``), the
    deal is not over (``deal_not_over``)."""
    line = replay_record(record)
    if line["ok"] is not True:
        error = line["error"]
        where = []
        # where, as fields too: a page in another language says it in its own words
        params: dict[str, str | int] = {}
        if error["deal"] is not None:
            where.append(f"deal {error['deal'] + 1}")
            params["deal"] = error["deal"]
        if error["action"] is not None:
            where.append(f"action {error['action'] + 1}")
            params["action"] = error["action"]
        prefix = f"{', '.join(where)}: " if where else ""
        raise RoomError(ErrorCode.BAD_RECORD, f"this record does not replay: {prefix}"
                        f"{error['message']}", params=params)
    assert isinstance(record, dict)  # replay_record accepted it
    lines: list[ReplayDealLine] = line["deals"]
    if not lines:
        raise RoomError(ErrorCode.NO_DEAL, "this record holds no deal yet", 404)
    if deal is None:
        deal = _first_shown(lines)
    if deal >= len(lines):
        raise RoomError(ErrorCode.NO_DEAL, f"there is no deal {deal + 1}: this record holds "
                        f"{len(lines)}", 404)
    if lines[deal]["outcome"] == "incomplete":
        raise RoomError(ErrorCode.DEAL_NOT_OVER, "this deal is still being played: its "
                        "replay is ready when it is over", 403)
    return deal_replay(record, lines, record_rules(record), deal, match)


def _first_shown(lines: list[ReplayDealLine]) -> int:
    """The deal shown when none is asked for: the first that was played out, else the
    first that is over, else the first."""
    over = [i for i, d in enumerate(lines) if d["outcome"] != "incomplete"]
    played = [i for i in over if lines[i]["outcome"] != "void"]
    return (played or over or [0])[0]
