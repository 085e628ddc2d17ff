"""Legend of Heroes pictures: the board, the Action cards and the Fighter cards (pure: view in, PNG out)."""

from render.legend.board import bench_board, board_alt_text, compose_board, render_board, sample_view
from render.legend.cards import card_alt_text, fighter_alt_text, render_card, render_fighter

__all__ = [
    "bench_board", "board_alt_text", "card_alt_text", "compose_board", "fighter_alt_text", "render_board",
    "render_card", "render_fighter", "sample_view",
]
