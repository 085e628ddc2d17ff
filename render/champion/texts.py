"""Champion of the Empire: the words the pictures and their alt texts share (names, effect lines)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import msgspec

from rules.champion import content
from rules.champion.content import EventCard, Hero, Item, Monster
from rules.champion.i18n import N_, _, _p

#: One short line per event effect key, in the glossary's words, for the map's event panel.
EFFECT_LINES: dict[str, str] = {
    "none": N_("No special effect this round."),
    "explore_move_minus1": N_("Exploration moves 1 province fewer this round."),
    "explore_move_plus1": N_("Exploration moves 1 province further this round."),
    "caravan_gold_plus1": N_("Caravan escorts earn 1 gold more this round."),
    "voyage_forbidden": N_("No ship sails this round: no voyages."),
    "voyage_free": N_("Voyages cost nothing this round."),
    "market_closed": N_("The markets are closed this round."),
    "market_discount1": N_("Market items cost 1 gold less this round."),
    "commission_gold_plus1": N_("Commissions pay 1 gold more this round."),
    "commission_xp_plus1": N_("Commissions give 1 XP more this round."),
    "recuperate_plus1": N_("Recuperation restores 1 life more this round."),
    "lore_free": N_("Learning secret lore costs nothing this round."),
    "story_xp_plus1": N_("Story opponents give 1 XP more when killed this round."),
    "opponents_combat_plus1": N_("Every opponent has +1 combat value this round."),
    "opponents_initiative_plus1": N_("Every opponent has +1 initiative this round."),
    "heroes_initiative_plus1": N_("Every hero has +1 initiative this round."),
    "shipwreck_on_1_2": N_("Ships are wrecked on a roll of 1 or 2 this round."),
    "all_gain_1_gold": N_("Every hero gained 1 gold when this card was drawn."),
}


def event_effect_line(effect: str) -> str:
    return _(EFFECT_LINES[effect]) if effect in EFFECT_LINES else effect.replace("_", " ").capitalize() + "."


def deck_of(icon: str) -> str:
    return content.DECK_OF_ICON.get(icon, "")


def _title(ident: str) -> str:
    return ident.replace("-", " ").replace("_", " ").title() if ident else "?"


T = TypeVar("T")


def _index(load: Callable[[], dict[str, T]]) -> dict[str, T]:
    """One of the content's indexes (each read once by ``content``), or none when its data file is missing (a
    picture of an unknown id is still drawn)."""
    try:
        return load()
    except FileNotFoundError:
        return {}


def event_card(event_id: str) -> EventCard:
    """The event card with this id (a stand-in named after the id if the data does not know it)."""
    found = _index(content.event_index).get(event_id)
    if found is None:
        return EventCard(id=event_id, name=_title(event_id), text="", effect="none")
    return msgspec.structs.replace(found, name=_p("event", found.name), text=_(found.text) if found.text else "")


def hero(hero_id: str) -> Hero | None:
    return _index(content.hero_index).get(hero_id)


def hero_name(hero_id: str) -> str:
    found = hero(hero_id)
    return _p("hero", found.name) if found is not None else _title(hero_id)


def item(item_id: str) -> Item | None:
    return _index(content.item_index).get(item_id)


def item_name(item_id: str) -> str:
    found = item(item_id)
    return _p("item", found.name) if found is not None else _title(item_id)


def monster(monster_id: str) -> Monster | None:
    return _index(content.monster_index).get(monster_id)
