"""The web layer's defences against strangers: body limits, client addresses, per-client
limits, the HTTP protocol guard against slow clients, start-up checks, and the audit log
line of every refusal (docs/operations.md, "Limits")."""
