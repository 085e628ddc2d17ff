"""The Heroes' Road's catalogue (domain ``eiyu``, ``rules/eiyu/locale/``) and the few words every part of the
game shares: the tracks, the road colours, the orders, the soldiers counted, and how a list is joined
(``comma``, ``semicolon``, ``and_list``).

Every text a player reads goes through ``_`` / ``_n`` / ``_p`` here, in the current language (the platform sets
it); the msgid is the English text, so English reads exactly as it always has."""

from __future__ import annotations

from rules.i18n import N_, Catalogue, N_n, N_p, number

CATALOGUE = Catalogue.of(__package__)
_, _n, _p = CATALOGUE.gettext, CATALOGUE.ngettext, CATALOGUE.pgettext
comma, semicolon, and_list = CATALOGUE.comma, CATALOGUE.semicolon, CATALOGUE.and_list
#: What those joins ("a, b, c"; "a; b; c"; "a, b and c") look up here, marked for extraction into the template.
JOINS = (N_p("list", ", "), N_p("list", "; "),
         # TRANSLATORS: the last two of a list ("takes 3 gold and builds 1 level"); {items} is the rest, joined
         N_("{items} and {last}"))

#: The three scores, as a word inside a sentence ("raises the dummy's fame by 1").
TRACK_WORD = {"fame": N_p("track", "fame"), "gold": N_p("track", "gold"), "building": N_p("track", "building")}
#: The orders a slot can hold, as the panel and the story name them.
ORDER_NAME = {"act": N_("■ act"), "wait": N_("× wait"), "red": N_("red road"), "yellow": N_("yellow road"),
              "blue": N_("blue road"), "lightblue": N_("light-blue road"), "purple": N_("purple road")}
#: A road's colour alone ("has no red road here").
COLOUR_NAME = {"red": N_p("colour", "red"), "yellow": N_p("colour", "yellow"), "blue": N_p("colour", "blue"),
               "lightblue": N_p("colour", "light-blue"), "purple": N_p("colour", "purple")}


def track(name: str) -> str:
    return _p("track", TRACK_WORD[name]) if name in TRACK_WORD else name


def order_name(order: str) -> str:
    return _(ORDER_NAME[order]) if order in ORDER_NAME else order


def colour_name(colour: str) -> str:
    return _p("colour", COLOUR_NAME[colour]) if colour in COLOUR_NAME else colour


def place(name: str) -> str:
    """A city's or an area's name as the language's readers know it."""
    return _p("place", name)


def city_name(city: int) -> str:
    """A city's number and name: "8 Yamabe" (every sentence that names a city names it so, so that a translator
    writes one construction around it)."""
    from rules.eiyu.content import library

    return _("{number} {name}", number=city, name=place(library().city(city).name))


def soldier_name(kind: int, name: str) -> str:
    """One soldier type's name (``name`` is the English name from the data)."""
    return _(name)


def soldier_count(kind: int, count: int) -> str:
    """A number of soldiers of one type: "1 peasant levy", "2 archers", "3 infantry"."""
    if kind == 1:
        return _n("{n} peasant levy", "{n} peasant levies", count)
    if kind == 2:
        return _n("{n} archer", "{n} archers", count)
    if kind == 3:
        return _n("{n} infantry", "{n} infantry", count)
    return _n("{n} priest", "{n} priests", count)


def a_soldier(kind: int) -> str:
    """One soldier with its article, as in "recruits an archer"."""
    return {1: _("a peasant levy"), 2: _("an archer"), 3: _("an infantry"), 4: _("a priest")}[kind]


__all__ = ["CATALOGUE", "JOINS", "N_", "N_n", "N_p", "_", "_n", "_p", "a_soldier", "and_list", "city_name",
           "colour_name", "comma", "number", "order_name", "place", "semicolon", "soldier_count", "soldier_name",
           "track"]
