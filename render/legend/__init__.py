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
from rules.legend.content import card_index, fighters, heroes, spells
from rules.legend.view import LegendView


def warm() -> int:
    """Draw every card (both ways a mode prints it), both sides of every fighter and hero card, every spell and
    the dungeon once, so no player waits for them; returns how many pictures were drawn."""
    count = 0
    for card in card_index().values():
        render_card(card, fighter_only=False)
        render_card(card, fighter_only=True)
        count += 2
    for f in fighters():
        render_fighter(f, wounded=False)
        render_fighter(f, wounded=True)
        count += 2
    for h in heroes():
        render_hero(h, wounded=False)
        render_hero(h, wounded=True)
        count += 2
    for sp in spells():
        render_spell(sp)
        count += 1
    render_board(LegendView(), title="warm-up")
    return count + 1


__all__ = [
    "board_alt_text", "card_alt_text", "compose_board", "compose_party", "fighter_alt_text", "fighter_row_only",
    "hero_alt_text", "party_alt_text", "render_board", "render_card", "render_card_result", "render_fighter",
    "render_hero", "render_party", "render_spell", "spell_alt_text", "warm",
]
