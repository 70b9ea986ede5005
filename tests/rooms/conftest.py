"""The fixtures of tests/rooms (defined in room_fixtures.py, a module mypy can tell apart from
the other folders' conftest.py; pytest finds fixtures by their names here)."""

from room_fixtures import errors_logged, make_server, server

__all__ = ["errors_logged", "make_server", "server"]
