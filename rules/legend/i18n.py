"""Legend of Heroes in words: the game's message catalogue (``rules/legend/locale/``, domain ``legend``).

Every text a player reads is an English ``msgid`` looked up here in the current language (``rules.i18n``).
Content (card titles and texts, heroes, spells, entrances) is extracted from the data files by the mapping in
``locale/babel.cfg``; the helpers below look a piece of content up with the context it was extracted under.
The book is English, so other languages fall back to English text by text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from rules.i18n import N_, Catalogue, N_p, number
from rules.legend.content import CLASS_NAMES, hero_index

CATALOGUE = Catalogue.of(__package__)
_, _n, _p = CATALOGUE.gettext, CATALOGUE.ngettext, CATALOGUE.pgettext
comma, semicolon, and_list = CATALOGUE.comma, CATALOGUE.semicolon, CATALOGUE.and_list
#: What those joins ("a, b, c"; "a; b; c"; "a, b and c") look up here, marked for extraction into the template.
JOINS = (N_p("list", ", "), N_p("list", "; "), N_("{items} and {last}"))



def card_title(title: str) -> str:
    """An Action card's title (cards.toml ``title``, context ``card``)."""
    return _p("card", title) if title else title


def hero_name(name: str) -> str:
    """A Fighter's or Hero's name (fighters.toml / heroes.toml ``name``, context ``hero``)."""
    return _p("hero", name) if name else name


def spell_name(name: str) -> str:
    """A Spell card's name (spells.toml ``name``, context ``spell``)."""
    return _p("spell", name) if name else name


def place(name: str) -> str:
    """An entrance of the dungeon (dungeon.toml ``name``, context ``place``)."""
    return _p("place", name) if name else name


#: The piles' names, in English (msgids of context ``kind``).
KIND_NAMES = {"room": N_p("kind", "Room"), "feature": N_p("kind", "Feature"), "monster": N_p("kind", "Monster"),
              "hazard": N_p("kind", "Hazard"), "treasure": N_p("kind", "Treasure")}

#: The tokens' colours (``state.COLOURS``), as words (context ``colour``).
COLOUR_NAMES = {"red": N_p("colour", "red"), "blue": N_p("colour", "blue"), "green": N_p("colour", "green"),
                "orange": N_p("colour", "orange"), "white": N_p("colour", "white")}


#: The piles' names as a sentence says them in lower case ("a **monster** card"; context ``pile``).
PILE_WORDS = {"room": N_p("pile", "room"), "feature": N_p("pile", "feature"), "monster": N_p("pile", "monster"),
              "hazard": N_p("pile", "hazard"), "treasure": N_p("pile", "treasure")}


def pile_word(kind: str) -> str:
    """A pile's name in lower case ("monster") in the current language."""
    return _p("pile", PILE_WORDS[kind]) if kind in PILE_WORDS else kind


def kind_name(kind: str) -> str:
    """A pile's name ("Monster") in the current language (an unknown kind as it is)."""
    return _p("kind", KIND_NAMES[kind]) if kind in KIND_NAMES else kind


def class_name(kind: str) -> str:
    """A kind of Hero ("Magic User") in the current language."""
    return _p("class", CLASS_NAMES[kind]) if kind in CLASS_NAMES else kind


def colour_name(colour: str) -> str:
    """A token's colour ("red") in the current language."""
    return _p("colour", COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


def run_on(before: str, after: str) -> str:
    """One card's text running straight on into the next's ("…was… a rusty blade…"): English puts a space
    between them, Japanese none (the catalogue's ``chain`` text says how)."""
    return _p("chain", "{before} {after}", before=before, after=after)


def hero_title(hero_id: str) -> str:
    """"Rolf the Dwarf"."""
    h = hero_index()[hero_id]
    return _("{hero} the {kind}", hero=hero_name(h.name), kind=class_name(h.kind))


#: Why a game ended, as the rules store it (English, in the event and the outcome): told again in the
#: current language by ``retell``.
ENDINGS = (
    N_("{player}'s fighter has taken {n} wounds and leaves the dungeon."),
    N_("{player}'s party has taken {n} wounds and leaves the dungeon."),
    N_("Every room of the Dungeons of Legend has been explored."),
    N_("No fighter can move any more."),
)
#: Why a fighter waits a turn (stored in the event in English).
SKIP_REASONS = (N_("every doorway within reach is taken"),)
#: The game's outcome summaries (``Table.outcome``), stored in English.
SUMMARIES = (
    N_("{names} leaves the dungeon with {gold} gold pieces."),
    N_("{names} share the victory with {gold} gold pieces each."),
    N_("{names} wins with {gold} gold pieces."),
)


def summary(text: str) -> str:
    """The outcome's summary (stored in English) in the current language: the winners' names, stored joined
    with " and ", are joined again the language's way ("a, b and c")."""
    for msgid in SUMMARIES:
        pattern, fields = _pattern(msgid)
        match = pattern.match(text)
        if match is not None:
            values = dict(zip(fields, match.groups(), strict=True))
            values["names"] = and_list(values["names"].split(" and "))
            return _(msgid, **values)
    return text


@cache
def _pattern(msgid: str) -> tuple[re.Pattern[str], tuple[str, ...]]:
    fields: list[str] = []
    out = []
    for part in re.split(r"(\{[A-Za-z_][A-Za-z0-9_]*\})", msgid):
        if part.startswith("{") and part.endswith("}"):
            fields.append(part[1:-1])
            out.append("(.+?)")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out) + r"\Z", re.S), tuple(fields)


def retell(text: str, msgids: Sequence[str]) -> str:
    """A text the rules stored in English (an event's reason, an outcome's summary — state keeps English)
    said again in the current language: the first of ``msgids`` whose shape it has is translated with the
    values read back out of it; a text of no known shape is returned as it is."""
    for msgid in msgids:
        pattern, fields = _pattern(msgid)
        match = pattern.match(text)
        if match is not None:
            return _(msgid, **dict(zip(fields, match.groups(), strict=True)))
    return text


__all__ = [
    "CATALOGUE",
    "COLOUR_NAMES",
    "ENDINGS",
    "JOINS",
    "KIND_NAMES",
    "N_",
    "PILE_WORDS",
    "SKIP_REASONS",
    "SUMMARIES",
    "N_p",
    "_",
    "_n",
    "_p",
    "and_list",
    "card_title",
    "class_name",
    "colour_name",
    "comma",
    "hero_name",
    "hero_title",
    "kind_name",
    "number",
    "pile_word",
    "place",
    "retell",
    "run_on",
    "semicolon",
    "spell_name",
    "summary",
]
