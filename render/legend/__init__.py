"""Legend of Heroes pictures: the board, the Action cards, the Hero and Spell cards and a player's Party
(pure: the game's typed view in, PNG out)."""

from render.legend.board import board_alt_text, compose_board, render_board
from render.legend.cards import (
    card_alt_text,
    fighter_alt_text,
    fighter_row_only,
    hero_alt_text,
    render_card,
    render_card_result,
    render_fighter,
    render_hero,
    render_spell,
    spell_alt_text,
)
from render.legend.party import compose_party, party_alt_text, render_party

__all__ = [
    "board_alt_text", "card_alt_text", "compose_board", "compose_party", "fighter_alt_text", "fighter_row_only",
    "hero_alt_text", "party_alt_text", "render_board", "render_card", "render_card_result", "render_fighter",
    "render_hero", "render_party", "render_spell", "spell_alt_text",
]
