"""The rooms layer's one error type: a command that changed nothing, with a wire code
(an ``ErrorCode``: the type refuses a bare string, so that every code sent is one the
protocol lists; a code from elsewhere, the engine's or the text checks', is read with
``ErrorCode(code)``).

Structured facts stay fields (``option`` names the rule option a ``bad_rules`` error is
about; ``reason`` and ``params`` say why the rules refused an action), so that a client
can point at the control, and word the refusal in its language, without reading the
English message.
"""

from __future__ import annotations

from .wire_enums import ErrorCode


class RoomError(ValueError):
    """Refused; ``code`` and ``message`` go to the sender only (HTTP: with ``status``,
    and ``retry_after``, the seconds after which the same request may succeed)."""

    def __init__(self, code: ErrorCode, message: str, status: int = 400,
                 option: str | None = None, retry_after: int | None = None,
                 reason: str | None = None,
                 params: dict[str, str | int] | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.status = status
        self.option = option
        self.retry_after = retry_after
        # the rules' refusal (``app.rules.Refusal``) and what its sentence names: the
        # client words them in its player's language (``message`` is English)
        self.reason = reason
        self.params = params or {}


NOT_SAVED = "the server could not save that; nothing changed, try again in a moment"
NO_DATABASE = "the database does not answer; try again shortly"


def unavailable(message: str = NOT_SAVED) -> RoomError:
    """The server cannot do it now (503): by default, the store did not take a change, so
    nothing was applied."""
    return RoomError(ErrorCode.UNAVAILABLE, message, 503)
