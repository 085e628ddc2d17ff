"""Autokrator's pictures: the map with the realms' standing (``board``), battle cards, the private hand and the
battle rows (``cards``)."""

from render.autokrator.board import board_alt_text, render_board, warm
from render.autokrator.cards import (
    battle_alt,
    fought_alt,
    hand_alt,
    render_battle,
    render_card,
    render_cards,
    render_fought,
    render_hand,
)

__all__ = ["battle_alt", "board_alt_text", "fought_alt", "hand_alt", "render_battle", "render_board", "render_card",
           "render_cards", "render_fought", "render_hand", "warm"]
