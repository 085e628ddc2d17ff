"""Champion of the Empire's catalogue (domain ``champion``, ``rules/champion/locale/``) and the few helpers
its texts need: the content of the data files in the current language (``local``), opponents' names with
their article (``the``), and lists joined the way the language joins them (``comma``, ``semicolon``,
``and_list``).

Nothing here changes a rule: the state, the events and the log keep ids and English names; the words are
chosen only when a text is made, in the language of the moment (``rules.i18n.using``)."""

from __future__ import annotations

import re
from functools import cache

import msgspec

from rules.champion.content import (
    EventCard,
    Hero,
    Item,
    Library,
    MapFile,
    Monster,
    Outcome,
    Province,
    Region,
    Story,
)
from rules.i18n import N_, Catalogue, N_p, language, number

CATALOGUE = Catalogue.of(__package__)
_, _n, _p = CATALOGUE.gettext, CATALOGUE.ngettext, CATALOGUE.pgettext
comma, semicolon, and_list = CATALOGUE.comma, CATALOGUE.semicolon, CATALOGUE.and_list
#: What those joins ("a, b, c"; "a; b; c"; "a, b and c") look up here, marked for extraction into the template.
JOINS = (N_p("list", ", "), N_p("list", "; "), N_("{items} and {last}"))

__all__ = ["CATALOGUE", "JOINS", "N_", "N_p", "_", "_n", "_p", "and_list", "comma", "foe_name", "language", "local",
           "local_map", "number", "semicolon", "the"]

_HEAD = re.compile(r"^(?P<monster>.+) \((?P<head>left head|middle head|right head)\)$")
_NUMBERED = re.compile(r"^(?P<monster>.+) (?P<n>\d+)$")
#: The three heads of Kerberos, as the fight names them.
HEADS = {"left head": N_("left head"), "middle head": N_("middle head"), "right head": N_("right head")}


#: The words refusals use for card types and attributes (looked up with ``_p("card", kind)``,
#: ``_p("attribute", name)``; in English they are the ids themselves).
WORDS = (N_p("card", "torso"), N_p("card", "head"), N_p("card", "hand"), N_p("card", "leg"),
         N_p("card", "inspired"), N_p("attribute", "initiative"), N_p("attribute", "combat"),
         N_p("attribute", "life"), N_p("colour", "red"), N_p("colour", "blue"), N_p("colour", "green"),
         N_p("colour", "orange"))


def foe_name(name: str) -> str:
    """An opponent's name as the state keeps it (English, from the data files) in the current language:
    "Robber", "Kerberos (left head)", "Hydra 2"."""
    if language() == "en":
        return name
    m = _HEAD.match(name)
    if m:
        return _("{monster} ({head})", monster=_p("foe", m["monster"]), head=_(HEADS[m["head"]]))
    plain = _p("foe", name)
    if plain == name:
        n = _NUMBERED.match(name)
        if n:
            return _("{monster} {n}", monster=_p("foe", n["monster"]), n=n["n"])
    return plain


_VOWELS = set("aáeéiíoóöőuúüűAÁEÉIÍOÓÖŐUÚÜŰ")


def the(noun: str, *, cap: bool = False, proper: bool = False) -> str:
    """A noun with the definite article of the current language.  ``proper``: a name that takes none of its
    own (Kerberos); a name that already carries one ("The Minotaur", "A Minótaurosz") keeps it, capitalised
    as asked.  Hungarian says *az* before a vowel and *a* before a consonant; Greek and Japanese sentences are
    written around a bare name (an article would have to agree with the noun's gender and case), so they get
    the noun as it is."""
    lang = language()
    if lang not in ("en", "hu"):
        return noun
    if lang == "hu":
        head, rest = "", noun
        for art in ("Az ", "az ", "A ", "a "):
            if noun.startswith(art):
                head, rest = art.strip(), noun[len(art):]
                break
        if not head:
            if proper:
                return noun
            head = "az" if rest.lstrip("*")[:1] in _VOWELS else "a"
            rest = rest[:1].lower() + rest[1:]  # a common noun: "a rabló", not "a Rabló"
        return (head.capitalize() if cap else head.lower()) + " " + rest
    name = noun if proper else "the " + noun
    if name[:4] in ("The ", "the "):
        name = ("The " if cap else "the ") + name[4:]
    return name


# --- content in the current language ---------------------------------------------------------------

def _t(text: str) -> str:
    return _(text) if text else text


def _outcome(o: Outcome) -> Outcome:
    return msgspec.structs.replace(
        o, choice=_t(o.choice), text=_t(o.text),
        opponent=tuple(msgspec.structs.replace(x, name=_p("foe", x.name)) for x in o.opponent))


def _story(s: Story) -> Story:
    return msgspec.structs.replace(s, title=_t(s.title), text=_t(s.text),
                                   outcome=tuple(_outcome(o) for o in s.outcome))


def _hero(h: Hero) -> Hero:
    return msgspec.structs.replace(h, name=_p("hero", h.name), people=_p("people", h.people), title=_t(h.title),
                                   bio=_t(h.bio),
                                   side=tuple(msgspec.structs.replace(sd, name=_p("hero", sd.name))
                                              for sd in h.side))


def _province(p: Province) -> Province:
    return msgspec.structs.replace(p, name=_p("place", p.name), city=_p("city", p.city) if p.city else "",
                                   shrine=_p("shrine", p.shrine) if p.shrine else "")


def _item(i: Item) -> Item:
    return msgspec.structs.replace(i, name=_p("item", i.name), text=_t(i.text),
                                   people=_p("people", i.people) if i.people else "")


def _event(e: EventCard) -> EventCard:
    return msgspec.structs.replace(e, name=_p("event", e.name), text=_t(e.text))


def _monster(m: Monster) -> Monster:
    return msgspec.structs.replace(m, name=_p("foe", m.name), text=_t(m.text),
                                   ability_text=tuple(_t(a) for a in m.ability_text))


def _region(r: Region) -> Region:
    return msgspec.structs.replace(r, name=_p("place", r.name))


@cache
def _local_map(m: MapFile, lang: str) -> MapFile:
    return MapFile(m.map, tuple(_region(r) for r in m.region), tuple(_province(p) for p in m.province), m.link)


def local_map(m: MapFile) -> MapFile:
    """The map with its names (provinces, regions, cities, shrines) in the current language."""
    lang = language()
    return m if lang == "en" else _local_map(m, lang)


@cache
def _local(lib: Library, lang: str) -> Library:
    map_data = _local_map(lib.map, lang)
    return Library(map_data=map_data, heroes=tuple(_hero(h) for h in lib.heroes),
                   items=tuple(_item(i) for i in lib.items), events=tuple(_event(e) for e in lib.events),
                   monsters=tuple(_monster(x) for x in lib.monsters), stories=tuple(_story(s) for s in lib.stories),
                   combat=lib.combat)


def local(lib: Library) -> Library:
    """The library with every text a player reads (names, titles, card and story texts) in the current
    language; ids, numbers and links are the same.  In English it is ``lib`` itself."""
    lang = language()
    return lib if lang == "en" else _local(lib, lang)
