"""Legend of Heroes in words, as players met them: refusals stay short and say what is allowed, a choice left
out is asked for (never guessed), and the private views are the ones the spec names."""

from __future__ import annotations

from typing import Any

import pytest

from bot.present.base import SeatName
from bot.present.legend import PRESENTER
from bot.service.moment import moment_for
from rules.core import GameError, IllegalAction, NotYourTurn
from rules.legend import RULESET
from rules.legend.ruleset import LegendRuleset
from rules.legend.state import Keep, Lead, State
from rules.spec import Command
from tests.legend_helpers import play_moves

RULES: LegendRuleset = RULESET  # type: ignore[assignment]
TABLES: list[tuple[list[str], dict[str, Any]]] = [
    (["Ann", "Bob", "Cy"], {"mode": "starter"}),
    (["Ann", "Bob", "Cy"], {"mode": "starter", "narration": "players"}),
    (["Ann"], {"mode": "solo"}),
    (["Ann", "Bob", "Cy"], {"mode": "expanded"}),
    (["Ann", "Bob", "Cy", "Di"], {"mode": "expanded", "narration": "players"}),
    (["Ann"], {"mode": "expanded"}),
]
REFUSAL_MAX = 250


def _commands() -> list[Command]:
    """Every verb of the spec, bare and with odd values, plus verbs from elsewhere."""
    out = [Command("explore"), Command.of("explore", to="D99"), Command.of("explore", to="D1"),
           Command.of("explore", to="kitchen"), Command("narrate"), Command.of("narrate", text="x" * 1600),
           Command.of("narrate", note="A draught."), Command.of("narrate", note="x" * 400), Command("note"),
           Command("bogus"), Command("hand"), Command("play"), Command("voyage")]
    for verb in ("attack", "cast", "study", "heal", "lead", "keep", "retreat", "order", "front", "back"):
        out += [Command(verb), Command.of(verb, hero="nobody"), Command.of(verb, order="rolf,nobody")]
    return out


def _refusals(names: list[str], options: dict[str, Any], seeds: range) -> dict[str, str]:
    """Each distinct refusal met in real games, with the command that drew it."""
    seen: dict[str, str] = {}
    commands = _commands()
    for seed in seeds:
        for state, _events in play_moves(RULES, names, 700, seed=seed, **options)[::4]:
            for seat in range(len(names)):
                for command in commands:
                    try:
                        RULES.apply(state, seat, RULES.codec.parse(state, seat, command))
                    except GameError as e:
                        seen.setdefault(str(e), command.typed())
                for other in range(len(names)):  # someone else's legal move, tried by this seat
                    for action in RULES.legal(state, other)[:4]:
                        try:
                            RULES.apply(state, seat, action)
                        except GameError as e:
                            seen.setdefault(str(e), RULES.codec.encode(state, other, action).typed())
    return seen


@pytest.mark.slow
@pytest.mark.parametrize(("names", "options"), TABLES, ids=[str(o) + str(len(n)) for n, o in TABLES])
def test_every_refusal_met_in_play_is_short_and_says_what_is_allowed(names: list[str],
                                                                     options: dict[str, Any]) -> None:
    seen = _refusals(names, options, range(2))
    assert len(seen) > 15  # the commands above do draw many different refusals
    too_long = {text: typed for text, typed in seen.items() if len(text) > REFUSAL_MAX}
    assert not too_long, f"refusals over {REFUSAL_MAX} characters: {too_long}"
    for text in seen:
        assert text.strip() == text and text[-1] in ".!?)`*", text
        assert "NotImplemented" not in text and "Traceback" not in text
    unknown = next(text for text, typed in seen.items() if typed == "/bogus")
    assert "`/explore to:`" in unknown and "`/narrate text:`" in unknown
    assert ("`/attack`" in unknown) == (options["mode"] == "expanded")


def test_an_unknown_verb_lists_the_modes_verbs_compactly() -> None:
    for names, options in TABLES:
        state = play_moves(RULES, names, 0, **options)[0][0]
        with pytest.raises(IllegalAction) as caught:
            RULES.codec.parse(state, 0, Command("hand"))
        text = str(caught.value)
        assert text.startswith("Legend of Heroes has no `/hand`.") and len(text) <= 180
        for verb in ("attack", "cast", "study", "heal", "party"):
            assert (f"`/{verb}`" in text) == (options["mode"] == "expanded"), text


def _deciding(kind: str) -> tuple[State, int]:
    """A real Expanded Game stopped where its explorer must choose (``kind``: leader or fight)."""
    for seed in range(40):
        for state, _events in play_moves(RULES, ["Ann", "Bob"], 400, seed=seed, mode="expanded"):
            ex = state.exploring
            if ex is not None and ex.decision == kind and RULES.table.can_lead(state, RULES.table.current(state)):
                return state, RULES.table.current(state)
    raise AssertionError(f"no {kind} decision in 40 games")


@pytest.mark.parametrize("kind", ["leader", "fight"])
def test_lead_with_no_hero_asks_who_and_changes_nothing(kind: str) -> None:
    state, seat = _deciding(kind)
    before = RULES.view(state, None)
    with pytest.raises(IllegalAction) as caught:
        RULES.codec.parse(state, seat, Command("lead"))
    text = str(caught.value)
    assert text.startswith("Who should lead?") and len(text) <= REFUSAL_MAX
    for hero in RULES.table.can_lead(state, seat):
        assert f"**{hero.name}**" in text
    leader = RULES.table.leader(state, seat)
    assert leader is not None and f"**{leader.name}**" not in text  # the Leader is not offered to himself
    assert ("`/keep`" in text) == (kind == "leader")
    assert RULES.view(state, None) == before  # nothing was played
    blank = Command.of("lead", hero="  ")
    with pytest.raises(IllegalAction, match="Who should lead"):
        RULES.codec.parse(state, seat, blank)
    # naming a hero still leads, and `/keep` still keeps
    hero = RULES.table.can_lead(state, seat)[0]
    assert RULES.codec.parse(state, seat, Command.of("lead", hero=hero.name)) == Lead(hero=hero.id)
    if kind == "leader":
        assert RULES.codec.parse(state, seat, Command("keep")) == Keep()


def test_lead_with_no_hero_outside_a_decision_explains_when_the_leader_changes() -> None:
    state = play_moves(RULES, ["Ann", "Bob"], 0, mode="expanded")[0][0]
    with pytest.raises(IllegalAction) as caught:
        RULES.codec.parse(state, 0, Command("lead"))
    text = str(caught.value)
    assert "when asked" in text and "`/front hero:`" in text and len(text) <= REFUSAL_MAX


def test_the_spec_names_legends_private_views_and_no_hand() -> None:
    views = {v.name: v.view for v in RULES.spec.verbs if v.view}
    assert views == {"narrate": "card", "sheet": "sheet", "party": "party"}
    assert not any(v.name == "hand" for v in RULES.spec.verbs)


def test_narrate_for_someone_who_is_not_the_narrator_refuses_in_legends_words() -> None:
    names = ["Ann", "Bob", "Cy"]
    found = 0
    for state, _events in play_moves(RULES, names, 300, seed=3, narration="players"):
        narrator = RULES.table.narrator(state)
        if narrator is None or state.exploring is None or state.exploring.pending is None:
            continue
        if state.exploring.decision is not None:
            continue
        seats = [SeatName(seat=i, user_id=100 + i, name=n) for i, n in enumerate(names)]
        for seat in (s for s in range(len(names)) if s != narrator):
            moment = moment_for(RULES, state, seats)
            with pytest.raises(IllegalAction) as caught:
                PRESENTER.private("card", moment, seat)
            assert "Narrator" in str(caught.value) and len(str(caught.value)) <= REFUSAL_MAX
            with pytest.raises(NotYourTurn) as told:
                RULES.apply(state, seat, RULES.codec.parse(state, seat, Command.of("narrate", text="Once…")))
            assert f"{names[narrator]} is the Narrator" in str(told.value)
            found += 1
        moment = moment_for(RULES, state, seats)
        assert PRESENTER.private("card", moment, narrator) is not None
        if found > 6:
            break
    assert found


def test_narrate_with_no_card_says_why_in_each_case() -> None:
    names = ["Ann", "Bob", "Cy"]
    seats = [SeatName(seat=i, user_id=100 + i, name=n) for i, n in enumerate(names)]
    bot = play_moves(RULES, names, 0)[0][0]
    with pytest.raises(IllegalAction, match="Tabula narrates this game, so you have no card to read"):
        PRESENTER.private("card", moment_for(RULES, bot, seats), 0)
    start = play_moves(RULES, names, 0, narration="players")[0][0]
    with pytest.raises(IllegalAction, match="no card to read: no room is being explored"):
        PRESENTER.private("card", moment_for(RULES, start, seats), 1)
    for state, _events in play_moves(RULES, names, 300, seed=3, narration="players"):
        narrator = RULES.table.narrator(state)
        if state.phase == "explore" and narrator is not None and RULES.to_act(state) == {narrator}:
            other = next(s for s in range(3) if s != narrator)
            with pytest.raises(IllegalAction, match=f"{names[narrator]} is the Narrator for this room"):
                PRESENTER.private("card", moment_for(RULES, state, seats), other)
            return
    raise AssertionError("nobody narrated")
