"""Autokrator's catalogue (domain ``autokrator``, ``rules/autokrator/locale/``) and the words its sentences are
made of: places, realms, units, battlefields and army types in the grammatical form a sentence needs.

English names a place the same way wherever it stands ("from Antioch", "in Antioch"), but Greek gives it an
article and a case ("από την Αντιόχεια", "στη Δαμασκό", "το Άαχεν").  So every name is looked up under a
context that says which form the sentence wants, and the translation carries the article (and, for ``-in``,
the preposition ``σε`` merged with it).  In English every form is the name itself, so English output is what
it always was.  The forms:

* places (``map.toml`` ``name``): ``place`` (the bare name: map labels, lists, menus), ``place-nom`` (the subject,
  with its article), ``place-acc`` (the object, with its article), ``place-gen`` ("of X"), ``place-in`` ("in/to
  X");
* realms: ``realm`` (the bare name, "Saracens"), ``realm-of`` (the bare English name where the language wants
  "of the Saracens"), and ``realm-nom`` / ``realm-acc`` / ``realm-gen`` of "the Saracens" (the English text keeps
  its "the");
* units: ``unit-nom`` / ``unit-acc`` / ``unit-gen`` of a unit's title ("the Saracen King", "a Neutral General"),
  and ``unit`` / ``unit-nom`` / ``unit-acc`` / ``unit-gen`` of the bare word ("King");
* battlefields: ``field`` (bare), ``field-in`` ("on the Plain"), ``field-acc`` ("the Plain");
* army types: ``kind``.

Names that come from the data files are extracted by ``extract_map`` (the map's regions, realms and unit
titles in every form); the rest are literal tables below.  The state, the events and the log keep ids and
English texts: the words are chosen only when a text is made, in the language of the moment."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from typing import IO

from rules.autokrator.content import library
from rules.i18n import N_, Catalogue, N_p, number

CATALOGUE = Catalogue.of(__package__)
_, _n, _p = CATALOGUE.gettext, CATALOGUE.ngettext, CATALOGUE.pgettext
comma, semicolon, and_list = CATALOGUE.comma, CATALOGUE.semicolon, CATALOGUE.and_list
#: What those joins ("a, b, c"; "a; b; c"; "a, b and c") look up here, marked for extraction into the template.
JOINS = (N_p("list", ", "), N_p("list", "; "), N_("{items} and {last}"))


PLACE_FORMS = ("place", "place-nom", "place-acc", "place-gen", "place-in")
REALM_FORMS = ("realm-nom", "realm-acc", "realm-gen")
UNIT_FORMS = ("unit-nom", "unit-acc", "unit-gen")
#: The units' own words as the map's realms title them ("the Saracen King").
TITLED = {"king": "King", "general": "General", "admiral": "Admiral", "garrison": "Garrison"}

UNIT_WORDS: dict[str, dict[str, str]] = {
    "king": {"": N_p("unit", "King"), "nom": N_p("unit-nom", "King"), "acc": N_p("unit-acc", "King"),
             "gen": N_p("unit-gen", "King")},
    "general": {"": N_p("unit", "General"), "nom": N_p("unit-nom", "General"), "acc": N_p("unit-acc", "General"),
                "gen": N_p("unit-gen", "General")},
    "admiral": {"": N_p("unit", "Admiral"), "nom": N_p("unit-nom", "Admiral"), "acc": N_p("unit-acc", "Admiral"),
                "gen": N_p("unit-gen", "Admiral")},
    "garrison": {"": N_p("unit", "Garrison"), "nom": N_p("unit-nom", "Garrison"),
                 "acc": N_p("unit-acc", "Garrison"), "gen": N_p("unit-gen", "Garrison")},
}
NEUTRAL_TITLES: dict[str, dict[str, str]] = {
    "neutral": {"nom": N_p("unit-nom", "the neutral defenders"), "acc": N_p("unit-acc", "the neutral defenders"),
                "gen": N_p("unit-gen", "the neutral defenders")},
    "raid": {"nom": N_p("unit-nom", "a Neutral General"), "acc": N_p("unit-acc", "a Neutral General"),
             "gen": N_p("unit-gen", "a Neutral General")},
    # what an attack on the region (its Garrison, or its neutral defenders) is aimed at
    "region": {"nom": N_p("unit-nom", "the region itself"), "acc": N_p("unit-acc", "the region itself"),
               "gen": N_p("unit-gen", "the region itself")},
}
NEUTRAL_SIDE = {"": N_p("realm", "the neutral side"), "nom": N_p("realm-nom", "the neutral side"),
                "acc": N_p("realm-acc", "the neutral side"), "gen": N_p("realm-gen", "the neutral side")}
FIELD_WORDS: dict[str, dict[str, str]] = {
    "plain": {"": N_p("field", "Plain"), "in": N_p("field-in", "Plain"), "acc": N_p("field-acc", "Plain")},
    "hill": {"": N_p("field", "Hill"), "in": N_p("field-in", "Hill"), "acc": N_p("field-acc", "Hill")},
    "forest": {"": N_p("field", "Forest"), "in": N_p("field-in", "Forest"), "acc": N_p("field-acc", "Forest")},
    "city": {"": N_p("field", "City"), "in": N_p("field-in", "City"), "acc": N_p("field-acc", "City")},
    "ambush": {"": N_p("field", "Ambush"), "in": N_p("field-in", "Ambush"), "acc": N_p("field-acc", "Ambush")},
}
KIND_WORDS = {"cavalry": N_p("kind", "Cavalry"), "infantry": N_p("kind", "Infantry"),
              "archers": N_p("kind", "Archers"), "mercenaries": N_p("kind", "Mercenaries"),
              "militia": N_p("kind", "Militia")}


def _ctx(base: str, case: str) -> str:
    return f"{base}-{case}" if case else base


def place(region: str, case: str = "") -> str:
    """A region's name: bare (``case=""``), or ``nom`` / ``acc`` / ``gen`` / ``in`` with the article the language
    wants."""
    lib = library()
    if region not in lib.regions:
        return region
    return _p(_ctx("place", case), lib.regions[region].name)


def realm_name(realm: str) -> str:
    """A realm's bare name ("Saracens"), or "the neutral side"."""
    info = library().realms.get(realm)
    return _p("realm", info.name) if info else _p("realm", NEUTRAL_SIDE[""])


def realm_of(realm: str) -> str:
    """A realm's bare English name ("Saracens") where another language says "of the Saracens"."""
    info = library().realms.get(realm)
    return _p("realm-of", info.name) if info else realm_name(realm)


def the_realm(realm: str, case: str = "nom") -> str:
    """"the Saracens" in the case a sentence needs (``nom``, ``acc`` or ``gen``)."""
    info = library().realms.get(realm)
    if info is None:
        return _p(_ctx("realm", case), NEUTRAL_SIDE[case])
    msgid = f"the {info.name}"
    return _p(_ctx("realm", case), msgid)


def unit_title(realm: str, unit: str, case: str = "nom") -> str:
    """"the Saracen King", "the neutral defenders", "a Neutral General" in the case a sentence needs."""
    if unit in NEUTRAL_TITLES:
        return _p(_ctx("unit", case), NEUTRAL_TITLES[unit][case])
    info = library().realms.get(realm)
    adjective = info.adjective if info else "Neutral"
    msgid = f"the {adjective} {TITLED[unit]}"
    return _p(_ctx("unit", case), msgid)


def unit_word(unit: str, case: str = "") -> str:
    """The bare word for a unit ("King"): ``case`` "" for a label, ``nom`` / ``acc`` / ``gen`` in a sentence."""
    words = UNIT_WORDS.get(unit)
    if words is None:
        return unit.capitalize()
    return _p(_ctx("unit", case), words[case])


def field_word(field: str, case: str = "") -> str:
    """A battlefield: bare, ``in`` ("on the Plain") or ``acc`` ("the Plain")."""
    words = FIELD_WORDS.get(field)
    if words is None:
        return field
    return _p(_ctx("field", case), words[case])


def kind_word(kind: str) -> str:
    return _p("kind", KIND_WORDS[kind])


def card_name(card: str) -> str:
    return _p("card", library().cards[card].name)


def groups(items: Iterable[str]) -> str:
    """Lists of lists ("King: a, b, c, General: d, e"): English parts them with a comma as it always did, a
    language may take its semicolon so that the groups stand apart ("…; Hadvezér: …", "…；将軍：…")."""
    return _p("list of lists", ", ").join(items)


def sentences(parts: Iterable[str]) -> str:
    """Whole sentences one after the other, as the language runs them on ("A. B." in English, "A。B。" in
    Japanese); empty parts are left out."""
    out = ""
    for part in parts:
        if part:
            out = _p("sentences", "{first} {second}", first=out, second=part) if out else part
    return out


#: The epochs' numerals as the English headings write them ("Epoch III"); each language writes them its own
#: way (1, 2, 3 in Japanese, Hungarian and Greek, which number epochs as they number everything else).
ROMAN = ("", N_p("epoch", "I"), N_p("epoch", "II"), N_p("epoch", "III"), N_p("epoch", "IV"), N_p("epoch", "V"))


def epochs(n: int) -> dict[str, object]:
    """An epoch's number both ways, given to every sentence that names one: ``{n}`` (3) and ``{roman}`` (III
    in English, the language's own numeral otherwise), so that a language writes every epoch one way whichever
    of the two its English shows."""
    return {"n": n, "roman": _p("epoch", ROMAN[n])}


def epoch_text(n: int) -> str:
    e = library().epochs[n - 1]
    return _("📜 **Epoch {roman} ({years}): {title}**\n{report}\n*In force:* {condition}", **epochs(n),
             years=e.years, title=_(e.title), report=_(e.report), condition=_(e.condition))


# --- reasons the state keeps in English, told in the language of the moment --------------------------

WHY_RAID = N_("driving off the raid")
WHY_DESTROY = N_("destroying a unit")
WHY_DEFEAT = "defeating {unit}"  # the English the engine stores; told by the msgid below
WHY_CONQUER = "conquering {region}"
OVER_FIFTH = N_("the fifth epoch is over")
OVER_CAPITAL = "{realm} took {region}, the capital of {former}"


def _english_title(realm: str, unit: str) -> str:
    if unit == "neutral":
        return "the neutral defenders"
    if unit == "raid":
        return "a Neutral General"
    info = library().realms.get(realm)
    return f"the {info.adjective if info else 'Neutral'} {TITLED[unit]}"


def why_text(why: str) -> str:
    """What a score was for (``Scored.why``, kept in English) in the language of the moment."""
    if why in (WHY_RAID, WHY_DESTROY):
        return _(why)
    lib = library()
    for rid, r in lib.regions.items():
        if why == WHY_CONQUER.format(region=r.name):
            return _("conquering {region}", region=place(rid, "gen"))
    for realm in lib.realms:
        for unit in TITLED:
            if why == WHY_DEFEAT.format(unit=_english_title(realm, unit)):
                return _("defeating {unit}", unit=unit_title(realm, unit, "gen"))
    return why


def reason_text(reason: str) -> str:
    """Why the war ended (``State.reason`` / ``GameEnded.reason``, kept in English) in the language of the
    moment."""
    if reason == OVER_FIFTH:
        return _(OVER_FIFTH)
    lib = library()
    for realm, info in lib.realms.items():
        for former, other in lib.realms.items():
            if reason == OVER_CAPITAL.format(realm=info.name, region=lib.name(other.capital), former=other.name):
                return _("{realm} took {region}, the capital of {former}", realm=realm_of(realm),
                         region=place(other.capital, "nom"), former=the_realm(former, "gen"))
    return reason


# --- extraction of the map's names in every form --------------------------------------------------------


def extract_map(fileobj: IO[bytes], keywords: object, comment_tags: object,
                options: Mapping[str, str]) -> Iterator[tuple[int, str | None, str | tuple[str, ...], list[str]]]:
    """Babel extraction method for ``map.toml``: each region's name in every place form, each realm's name
    (bare and "the …" in every case) and each realm's unit titles in every case."""
    source = fileobj.read().decode("utf-8")
    data = tomllib.loads(source)

    def line_of(text: str) -> int:
        at = source.find(f'"{text}"')
        return source.count("\n", 0, at) + 1 if at >= 0 else 1

    for region in data.get("regions", []):
        name = region["name"]
        for ctx in PLACE_FORMS:
            yield line_of(name), "pgettext", (ctx, name), []
    for realm in data.get("realms", {}).values():
        name, adjective = realm["name"], realm["adjective"]
        yield line_of(name), "pgettext", ("realm", name), []
        yield line_of(name), "pgettext", ("realm-of", name), []
        yield line_of(realm["letter"]), "pgettext", ("realm-letter", realm["letter"]), []
        for ctx in REALM_FORMS:
            yield line_of(name), "pgettext", (ctx, f"the {name}"), []
        for word in TITLED.values():
            for ctx in UNIT_FORMS:
                yield line_of(adjective), "pgettext", (ctx, f"the {adjective} {word}"), []


__all__ = [
    "CATALOGUE",
    "JOINS",
    "N_",
    "N_p",
    "_",
    "_n",
    "_p",
    "and_list",
    "card_name",
    "comma",
    "epoch_text",
    "epochs",
    "field_word",
    "groups",
    "kind_word",
    "number",
    "place",
    "realm_name",
    "realm_of",
    "semicolon",
    "sentences",
    "the_realm",
    "unit_title",
    "unit_word",
]
