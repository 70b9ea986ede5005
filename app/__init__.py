"""Amerikaner online: the rules engine, bots, rooms server and browser client."""
