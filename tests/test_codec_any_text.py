"""Whatever a player types, every game's codec answers with a move or a game error — never a crash (issue 28:
``/city city:²`` once raised, since ``str.isdigit`` accepts a superscript two that ``int`` refuses).

Hypothesis types random Unicode (superscript and other-script digits, signs, spaces, very long numbers, names
in any script) into every verb of every game, with the verb's own options and stray ones, at moments taken
from real games; what the codec makes of it is then played as the platform would, and may only be refused."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import GameError
from rules.core import Rng, SeatInfo, seed_state
from rules.registry import games, register, unregister
from rules.spec import Command, number

PLUGIN = "tests.plugins.race"
register(PLUGIN)
KEYS = sorted(games())
unregister(PLUGIN)

#: Text that has broken number parsing before, or could: digits of other scripts, signs, spaces, long numbers.
NASTY = ["²", "³", "١", "٣", "৩", "۳", "٢٣", "１", "Ⅻ", "½", "-1", "+2", " 2 ", "0", "00", "9" * 30, "1e3", "2.5",
         "1,2", "1>2", "", " ", "none", "\x00", "\u200b3", "3\u0301", "ß", "İ", "𝟑"]
TEXT = st.one_of(st.sampled_from(NASTY), st.sampled_from(NASTY), st.text(max_size=24),
                 st.text(alphabet=st.characters(categories=("Nd", "No", "Nl", "Pd", "Zs")), max_size=6))


@cache
def moments(key: str) -> list[tuple[Any, int]]:
    """States of a real game of ``key`` (the start, every few moves and every change of phase, to the end or
    400 moves), each with its number of players."""
    register(PLUGIN)
    try:
        rules = games()[key]
    finally:
        unregister(PLUGIN)
    spec = rules.spec
    found: list[tuple[Any, int]] = []
    for bench in spec.bench or ():
        players, options = bench.players, dict(bench.options)
        seats = [SeatInfo(index=i, name=f"P{i}") for i in range(players)]
        state = rules.setup(seats, rules.check_options(options, players), 11).state
        rng = Rng(seed_state(11))
        phase = None
        for move in range(400):
            if move % 7 == 0 or getattr(state, "phase", None) != phase:  # and each new phase (a fight, a market…)
                found.append((state, players))
                phase = getattr(state, "phase", None)
            acting = sorted(rules.to_act(state))
            if rules.outcome(state) is not None or not acting:
                break
            seat = acting[rng.below(len(acting))]
            action = rules.policy(state, seat, rng)
            if action is None:
                break
            try:
                state = rules.apply(state, seat, action).state
            except GameError:
                continue
        found.append((state, players))
    return found


def test_numbers_are_read_in_ascii_digits_only() -> None:
    assert [number(t) for t in ("8", " 08 ", "12", "0")] == [8, 8, 12, 0]
    assert [number(t) for t in ("²", "٣", "１", "-1", "+2", "2.5", "", "9" * 30, "3\u0301")] == [None] * 9


@pytest.mark.parametrize(("key", "phase", "verb", "args"), [
    ("eiyu", "city", "city", (("city", "²"),)),
    ("eiyu", "program", "program", (("slot", "²"), ("order", "red"))),
    ("eiyu", "show", "choose", (("option", "show-²"),)),
    ("champion", "combat", "play", (("card", "head"), ("target", "²"))),
    ("champion", "combat", "play", (("card", "head"), ("foe", "٣"))),
    ("champion", "story", "choose", (("option", "١"),)),
    ("autokrator", "battle", "lineup", (("cards", "a,b,c"), ("marks", "²"))),
])
def test_a_number_in_another_script_is_refused_politely(key: str, phase: str, verb: str,
                                                          args: tuple[tuple[str, str], ...]) -> None:
    """The typed numbers that crashed before (issue 28), at a moment the verb means something."""
    register(PLUGIN)
    try:
        rules = games()[key]
    finally:
        unregister(PLUGIN)
    found = [(state, players) for state, players in moments(key) if getattr(state, "phase", None) == phase]
    assert found, f"no {phase} moment in a {key} game"
    for state, players in found[:5]:
        for seat in range(players):
            try:
                action = rules.codec.parse(state, seat, Command(verb=verb, args=args))
            except GameError:
                continue
            try:
                rules.apply(state, seat, action)
            except GameError:
                pass


@pytest.mark.slow
@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_text_typed_is_a_move_or_a_polite_refusal(key: str, data: st.DataObject) -> None:
    register(PLUGIN)
    try:
        rules = games()[key]
    finally:
        unregister(PLUGIN)
    state, players = data.draw(st.sampled_from(moments(key)), label="moment")
    seat = data.draw(st.integers(min_value=0, max_value=players - 1), label="seat")  # the platform asks for seats only
    verbs = [v.name for v in rules.spec.verbs]
    verb = data.draw(st.one_of(st.sampled_from(verbs), st.sampled_from(verbs), st.sampled_from(verbs), TEXT),
                     label="verb")
    spec = rules.spec.verb(verb)
    names = [a.name for a in spec.args] if spec else []
    own = data.draw(st.lists(st.sampled_from(names), max_size=len(names), unique=True) if names else st.just([]),
                    label="options")
    stray = data.draw(st.lists(TEXT, max_size=2, unique=True), label="stray options")
    args = tuple((k, data.draw(TEXT, label=k)) for k in dict.fromkeys([*own, *stray]))
    command = Command(verb=verb, args=args)
    try:
        action = rules.codec.parse(state, seat, command)
    except GameError:
        return
    msgspec.json.encode(action)  # the platform logs it
    try:
        rules.apply(state, seat, action)
    except GameError:
        pass
