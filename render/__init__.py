"""Pictures: pure functions that turn a game's public view into PNG bytes (no Discord, no database)."""
