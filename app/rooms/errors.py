"""The rooms layer's one error type: a command that changed nothing, with a wire code."""

from __future__ import annotations


class RoomError(ValueError):
    """Refused; ``code`` and ``message`` go to the sender only (HTTP: with ``status``)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
