"""Champion of the Empire pictures: the map, the cards and the character sheet (pure: typed view in, PNG out).
The map's geometry and label placement come from the shared kit ``render.mapkit``."""

from render.champion.board import board_alt_text, compose_board, render_board
from render.champion.cards import (
    combat_card_alt_text,
    event_alt_text,
    item_alt_text,
    monster_alt_text,
    render_combat_card,
    render_event,
    render_item,
    render_monster,
    render_story,
    story_alt_text,
)
from render.champion.hand import hand_alt_text, played_alt_text, render_hand, render_played
from render.champion.map import compose_map, map_alt_text, render_map, warm
from render.champion.sheet import render_sheet, sheet_alt_text

__all__ = [
    "board_alt_text",
    "combat_card_alt_text",
    "compose_board",
    "compose_map",
    "event_alt_text",
    "hand_alt_text",
    "item_alt_text",
    "map_alt_text",
    "monster_alt_text",
    "played_alt_text",
    "render_board",
    "render_combat_card",
    "render_event",
    "render_hand",
    "render_item",
    "render_map",
    "render_monster",
    "render_played",
    "render_sheet",
    "render_story",
    "sheet_alt_text",
    "story_alt_text",
    "warm",
]
