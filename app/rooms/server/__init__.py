"""The adapters around the pure room core: the HTTP API and pages, WebSocket sessions,
the rooms of this process and the runners that carry out their steps."""
