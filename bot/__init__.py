"""Tabula: the Discord bot process, its settings, database and the game service."""
