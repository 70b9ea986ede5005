"""The room as a pure state machine: no I/O, no asyncio, no clock or randomness of its own.

``decide`` (room.py) takes one input (a connection's message, a timer, a bot's move),
reads the room without changing it, and returns a ``Step``: the log's new records
(records.py) to save, then the effects (frames to
send, connections to close, bots and hints to ask for, when to wake it next); ``evolve``
(state.py) is how each record changes the room: the server folds it over a step's
records once they are saved (``fold``), and a room is rebuilt by folding it
over its log.  ``RoomCore`` (room_core.py) holds a room for the server.  The adapters in
``app/rooms/server`` and ``app/rooms/store`` carry the effects out.
"""
