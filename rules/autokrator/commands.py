"""Autokrator's words: the codec.  ``parse`` turns a command (typed, pressed or picked) into an action,
``encode`` is its inverse and ``label`` is how people read it.  Values are ids (``antioch``, ``sar.king``,
``byz-cava2``); typed names are accepted too, in any case."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.autokrator import state as st
from rules.autokrator.content import FIELDS, library
from rules.autokrator.i18n import (
    _,
    _n,
    and_list,
    card_name,
    comma,
    field_word,
    kind_word,
    place,
    realm_name,
    the_realm,
    unit_title,
    unit_word,
)
from rules.core import IllegalAction
from rules.spec import Command, number

VERBS = ("assign", "march", "move", "voyage", "attack", "pass", "campaign", "spy", "truce", "fields", "field", "lineup",
         "retreat", "realm", "bid")


def _norm(text: str) -> str:
    return text.strip().lower().replace(" ", "-").replace("_", "-")


def region_id(text: str) -> str:
    key = _norm(text)
    lib = library()
    if key in lib.regions:
        return key
    for r in lib.regions.values():
        if key in (_norm(r.name), _norm(r.local), _norm(place(r.id))):
            return r.id
    raise IllegalAction(_("There is no region called {name} on the map. The list offers every place you can "
                          "reach.", name=repr(text.strip()[:30])))


def _named(text: str, ids: Iterable[str], word: Callable[[str], str]) -> str | None:
    """The id ``text`` names: the id itself, or its word in the current language (any case, spaces or dashes)."""
    key = _norm(text)
    return next((i for i in ids if key in (i, _norm(word(i)))), None)


def unit_id(text: str, allowed: tuple[str, ...] = ("king", "general", "admiral")) -> str:
    found = _named(text, allowed, unit_word)
    if found is None:
        raise IllegalAction(_("Name a unit: {units}.", units=comma(unit_word(u).lower() for u in allowed)))
    return found


def card_id(text: str) -> str:
    key = _norm(text)
    lib = library()
    if key in lib.cards:
        return key
    raise IllegalAction(_("There is no battle card {name}. Your hand (`/hand`) shows your cards.",
                          name=repr(text.strip()[:30])))


def field_id(text: str) -> str:
    found = _named(text, FIELDS, field_word)
    if found is None:
        raise IllegalAction(_("The battlefields are plain, hill, forest, city and ambush."))
    return found


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def target_label(target: str, case: str = "nom") -> str:
    """What an attack or a spy is aimed at: "the region itself" or an enemy unit's title."""
    if target == "region":
        return unit_title("", "region", case)
    realm, unit = target.split(".")
    return unit_title(realm, unit, case)


def card_label(card: str) -> str:
    c = library().cards[card]
    return _("{card} ({kind} {values})", card=card_name(card), kind=kind_word(c.kind),
             values="-".join(map(str, c.values)))


def _assign(state: st.State, get: Getter) -> st.AutokratorAction:
    holder = unit_id(get("unit"), ("king", "general", "admiral", "garrison", "same"))
    if holder == "same":
        return st.Assign(holder="same", cards=())
    pair = tuple(sorted(card_id(c) for c in get("cards").split(",") if c.strip()))
    if len(pair) != 2:
        raise IllegalAction(_("Give a unit two cards: `/assign unit:king cards:byz-infa1,byz-arch1`."))
    deck = list(library().cards)
    return st.Assign(holder=holder, cards=tuple(sorted(pair, key=deck.index)))


def _move(state: st.State, get: Getter) -> st.AutokratorAction:
    if not get("unit") or not get("to"):
        raise IllegalAction(_("Say which unit and where: `/move unit:general to:antioch`."))
    return st.Move(unit=unit_id(get("unit"), ("king", "general")), to=region_id(get("to")))


def _voyage(state: st.State, get: Getter) -> st.AutokratorAction:
    if not get("to"):
        raise IllegalAction(_("Say which port the Admiral sails to: `/voyage to:sidon`."))
    return st.Voyage(to=region_id(get("to")))


def _attack(state: st.State, get: Getter) -> st.AutokratorAction:
    target = _norm(get("target") or "region")
    if target != "region" and "." not in target:
        raise IllegalAction(_("Attack `region` (its Garrison or neutral defenders) or a unit such as `sar.king`."))
    return st.Attack(unit=unit_id(get("unit") or state.current or "king"), target=target)


def _pass(state: st.State, get: Getter) -> st.AutokratorAction:
    return st.Pass(unit=unit_id(get("unit") or state.current or "turn", ("king", "general", "admiral", "turn")))


def _truce(state: st.State, get: Getter) -> st.AutokratorAction:
    answer = _norm(get("answer"))
    if not answer:
        return st.OfferTruce(realm=_norm(get("realm")))
    if answer not in ("yes", "no"):
        raise IllegalAction(_("Answer a truce with `yes` or `no`."))
    return st.AnswerTruce(accept=answer == "yes")


def _fields(state: st.State, get: Getter) -> st.AutokratorAction:
    fields = tuple(sorted((field_id(f) for f in get("fields").split(",") if f.strip()), key=FIELDS.index))
    if len(fields) != 2 or fields[0] == fields[1]:
        raise IllegalAction(_("Pick two different battlefields: `/fields fields:ambush,plain`."))
    return st.Fields(fields=(fields[0], fields[1]))


def _lineup(state: st.State, get: Getter) -> st.AutokratorAction:
    cards = [card_id(c) for c in get("cards").split(",") if c.strip()]
    if len(cards) != 3:
        raise IllegalAction(_("Lay your three cards in order: `/lineup cards:a,b,c marks:1,2`."))
    marks = [number(m) for m in get("marks").split(",") if m.strip()]
    if any(m is None for m in marks):
        raise IllegalAction(_("Markers go on card positions 1, 2 or 3: `marks:1,3`."))
    return st.Lineup(cards=(cards[0], cards[1], cards[2]), marks=tuple(sorted(m - 1 for m in marks if m is not None)))


def _realm(state: st.State, get: Getter) -> st.AutokratorAction:
    found = _named(get("realm"), state.order, realm_name)
    if found is None:
        raise IllegalAction(_("Name a realm: {realms}.", realms=comma(realm_name(k) for k in state.order)))
    return st.Choose(realm=found)


def _bid(state: st.State, get: Getter) -> st.AutokratorAction:
    points = number(get("points"))
    if points is None:
        raise IllegalAction(_("Bid a number of points, e.g. `/bid points:1`."))
    return st.Bid(points=points)


Getter = Callable[[str], str]
#: What each verb means: the command's options (``get``) read into an action.
PARSERS: dict[str, Callable[[st.State, Getter], st.AutokratorAction]] = {
    "assign": _assign,
    "move": _move, "march": _move,  # `/move`, as the book says; `/march` is the same
    "voyage": _voyage,
    "attack": _attack,
    "pass": _pass,
    "campaign": lambda state, get: st.Campaign(unit=unit_id(get("unit"))),
    "spy": lambda state, get: st.Spy(target=_norm(get("target"))),
    "truce": _truce,
    "fields": _fields,
    "field": lambda state, get: st.Field(field=field_id(get("field"))),
    "lineup": _lineup,
    "retreat": lambda state, get: st.Withdraw(to=region_id(get("to"))),
    "realm": _realm,
    "bid": _bid,
}


#: The actions whose command is one verb and one option, read straight off the action.
SIMPLE: dict[type, Callable[[Any], Command]] = {
    st.Voyage: lambda a: Command.of("voyage", to=a.to),
    st.Campaign: lambda a: Command.of("campaign", unit=a.unit),
    st.Spy: lambda a: Command.of("spy", target=a.target),
    st.OfferTruce: lambda a: Command.of("truce", realm=a.realm),
    st.Field: lambda a: Command.of("field", field=a.field),
    st.Choose: lambda a: Command.of("realm", realm=a.realm),
    st.Bid: lambda a: Command.of("bid", points=a.points),
}


class AutokratorCodec:
    def parse(self, state: st.State, seat: int, command: Command) -> st.AutokratorAction:
        parser = PARSERS.get(command.verb)
        if parser is None:
            raise IllegalAction(_("Autokrator has no `/{verb}`. Use `/move`, `/voyage`, `/attack`, `/pass` or the "
                                  "buttons.", verb=command.verb))
        return parser(state, command.get)

    def encode(self, state: st.State, seat: int, action: st.AutokratorAction) -> Command:
        simple = SIMPLE.get(type(action))
        if simple is not None:
            return simple(action)
        if isinstance(action, st.Assign):
            if action.holder == "same":
                return Command.of("assign", unit="same")
            return Command.of("assign", unit=action.holder, cards=",".join(action.cards))
        if isinstance(action, st.Move):
            return Command.of("move", unit=action.unit, to=action.to)
        if isinstance(action, st.Attack):
            return Command.of("attack", unit=action.unit, target=action.target)
        if isinstance(action, st.Pass):
            return Command.of("pass", unit=action.unit)
        if isinstance(action, st.AnswerTruce):
            return Command.of("truce", answer="yes" if action.accept else "no")
        if isinstance(action, st.Fields):
            return Command.of("fields", fields=",".join(action.fields))
        if isinstance(action, st.Deputy):
            return Command.of("deputy")  # only ever played by Tabula after a time limit, never offered
        if isinstance(action, st.Lineup):
            return Command.of("lineup", cards=",".join(action.cards), marks=",".join(str(m + 1) for m in action.marks))
        assert isinstance(action, st.Withdraw)
        return Command.of("retreat", to=action.to)

    def label(self, state: st.State, seat: int, command: Command, arg: str | None = None) -> str:
        text = self._label(command, arg)
        return text if len(text) <= 100 else text[:99] + "…"

    def _label(self, command: Command, arg: str | None) -> str:
        labeller = LABELS.get(command.verb)
        if labeller is None:
            return (command.get(arg) if arg else "") or command.verb
        return labeller(command.verb, command.get, arg)


# --- how each verb reads --------------------------------------------------------------------------------


def _assign_label(verb: str, get: Getter, arg: str | None) -> str:
    lib = library()
    unit = unit_word(get("unit"))
    if get("unit") == "same":
        return _("The same cards as last epoch, for every unit") if arg != "unit" else _("same as last epoch")
    if arg == "unit":
        return unit
    cards = [c for c in get("cards").split(",") if c in lib.cards]
    if arg == "cards":
        return " + ".join(card_label(c) for c in cards)
    dealt = " + ".join(_("{card} ({kind})", card=card_name(c), kind=kind_word(lib.cards[c].kind)) for c in cards)
    return _("{unit}: {cards}", unit=unit, cards=dealt)


def _march_label(verb: str, get: Getter, arg: str | None) -> str:
    to = get("to")
    if arg == "unit":
        return unit_word(get("unit"))
    if arg == "to":
        return place(to)
    if verb == "voyage":
        return _("Admiral sails to {place}", place=place(to, "acc"))
    if verb == "retreat":
        return _("Fall back to {place}", place=place(to, "in"))
    return cap(_("{unit} marches to {place}", unit=unit_word(get("unit"), "nom"), place=place(to, "acc")))


def _attack_label(verb: str, get: Getter, arg: str | None) -> str:
    if arg == "unit":
        return unit_word(get("unit"))
    if arg == "target":
        return target_label(get("target"))
    return cap(_("{unit} attacks {target}", unit=unit_word(get("unit"), "nom"),
                 target=target_label(get("target"), "gen")))


def _pass_label(verb: str, get: Getter, arg: str | None) -> str:
    if get("unit") == "turn":
        return _("End the turn (every unit left rests)")
    return cap(_("{unit} rests", unit=unit_word(get("unit"), "nom")))


def _spy_label(verb: str, get: Getter, arg: str | None) -> str:
    target = get("target")
    return _("Spy on {target}", target=target_label(target, "acc")) if arg is None else target_label(target)


def _truce_label(verb: str, get: Getter, arg: str | None) -> str:
    if get("answer"):
        return _("Accept the truce") if get("answer") == "yes" else _("Refuse the truce")
    return _("Offer a truce to {realm}", realm=the_realm(get("realm"), "acc"))


def _lineup_label(verb: str, get: Getter, arg: str | None) -> str:
    marks = {number(m) for m in get("marks").split(",") if m}
    if arg == "marks":
        if not marks:
            return _("markers on no card")
        return _("markers on {cards}", cards=comma(str(m) for m in sorted(m for m in marks if m is not None)))
    cards = [c for c in get("cards").split(",") if c in library().cards]
    return " | ".join(f"{card_name(c)}{'*' if i + 1 in marks else ''}" for i, c in enumerate(cards))


Labeller = Callable[[str, Getter, str | None], str]
#: How a command (or, with ``arg``, one of its options) reads, verb by verb.
LABELS: dict[str, Labeller] = {
    "assign": _assign_label,
    "march": _march_label, "move": _march_label, "voyage": _march_label, "retreat": _march_label,
    "attack": _attack_label,
    "pass": _pass_label,
    "campaign": lambda verb, get, arg: _("{unit}'s campaign", unit=unit_word(get("unit"), "gen")),
    "spy": _spy_label,
    "truce": _truce_label,
    "fields": lambda verb, get, arg: and_list([field_word(f) for f in get("fields").split(",")]),
    "field": lambda verb, get, arg: _("Fight on the {field}", field=field_word(get("field"), "in")),
    "lineup": _lineup_label,
    "deputy": lambda verb, get, arg: _("Tabula plays for the absent player"),
    "realm": lambda verb, get, arg: (realm_name(get("realm")) if arg else
                                     _("Take {realm}", realm=the_realm(get("realm"), "acc"))),
    "bid": lambda verb, get, arg: _n("Bid {count} point", "Bid {count} points", number(get("points")) or 0,
                                     count=number(get("points")) or 0),
}
