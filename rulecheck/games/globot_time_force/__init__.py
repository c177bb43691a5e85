"""Globot Time Force: a card tableau game with an energy track capped at 12 (see docs/globot-time-force.md)."""
