"""Autokrator's pictures: the map (``map``), battle cards, the private hand and the battle rows (``cards``)."""

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
from render.autokrator.map import map_alt, render_map
from render.autokrator.map import warm as warm_map


def warm() -> int:
    """Draw the static map layer once; returns how many pictures were drawn."""
    return warm_map()


__all__ = ["battle_alt", "fought_alt", "hand_alt", "map_alt", "render_battle", "render_card", "render_cards",
           "render_fought", "render_hand", "render_map", "warm"]
