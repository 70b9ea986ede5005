"""The room as a pure state machine: no I/O, no asyncio, no clock of its own.

``RoomCore.handle(input, now)`` takes one input (a connection's message, a timer, a bot's
move) and returns a ``Step``: the log entries to save, then the effects (frames to send,
connections to close, bots and hints to ask for, when to wake it next).  The adapters in
``app/rooms/server`` and ``app/rooms/store`` carry the effects out.
"""
