"""Pictures of the Heroes' Road: the map after a year (chips, buildings, fame, pawns and paths, the year track,
titans, dummy and ranking order) and a player's private panel (their programmed row drawn as its path)."""

from render.eiyu.board import board_alt_text, panel_alt_text, render_board, render_panel, warm

__all__ = ["board_alt_text", "panel_alt_text", "render_board", "render_panel", "warm"]
