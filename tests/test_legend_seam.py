"""Legend of Heroes as a plug-in: the spec, the codec's round trip, the views' secrets, Tabula's policy and
timeout, and the presenter over real games (built through ``bot.service.moment.moment_for``)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from bot.present.base import Button, Menu, SeatName, Telling
from bot.present.legend import PRESENTER
from bot.service.moment import moment_for
from rules.core import GameError, IllegalAction, Rng, SeatInfo
from rules.legend import RULESET
from rules.legend.ruleset import LegendRuleset
from rules.legend.state import (
    Attack,
    Cast,
    Keep,
    Lead,
    Move,
    Narrate,
    Order,
    Place,
    Rest,
    Retreat,
    Roll,
    SceneNote,
    State,
)
from rules.registry import ruleset
from rules.spec import Command
from tests.legend_helpers import play_moves

RULES: LegendRuleset = RULESET  # type: ignore[assignment]
TABLES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("starter", ["Ann", "Bob", "Cy"], {"mode": "starter"}),
    ("starter-narrated", ["Ann", "Bob", "Cy"], {"mode": "starter", "narration": "players"}),
    ("solo", ["Ann"], {"mode": "solo"}),
    ("expanded", ["Ann", "Bob", "Cy"], {"mode": "expanded"}),
    ("expanded-narrated", ["Ann", "Bob", "Cy", "Di"], {"mode": "expanded", "narration": "players"}),
]
IDS = [t[0] for t in TABLES]


def _games(names: list[str], options: dict[str, Any], seeds: range = range(3)) -> list[list[tuple[State, Any]]]:
    return [play_moves(RULES, names, 2000, seed=seed, **options) for seed in seeds]


# --- the spec -------------------------------------------------------------------------------------------

def test_the_game_is_found_by_its_key_and_declares_itself() -> None:
    assert ruleset("legend") is RULESET
    spec = RULES.spec
    assert spec.key == "legend" and spec.min_players == 1 and spec.max_players == 5
    assert "Dungeons of Legend" in spec.summary and spec.intro.count("\n") <= 2
    names = [v.name for v in spec.verbs]
    for verb in ("explore", "narrate", "attack", "cast", "study", "heal", "lead", "keep", "retreat", "front",
                 "back", "party", "sheet"):
        assert verb in names, verb
    assert "roll" not in names  # the platform's own
    assert len(names) == len(set(names))
    for v in spec.verbs:
        assert len(v.description) <= 100 and v.help.startswith("`/") and "\n" not in v.help
    assert spec.verb("narrate") is not None and spec.verb("narrate").view == "card"  # type: ignore[union-attr]
    assert {v.view for v in spec.verbs if v.kind == "view"} == {"party", "sheet"}
    assert not any(v.slash for v in spec.verbs if v.name in ("lead", "keep", "retreat", "front", "back"))
    assert [o.name for o in spec.options] == ["mode", "narration", "tabula_level"]
    assert all(len(o.description) <= 100 for o in spec.options)
    for bench in spec.bench:
        RULES.check_options(bench.options, bench.players)


# --- the codec ------------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize(("names", "options"), [(t[1], t[2]) for t in TABLES], ids=IDS)
def test_every_legal_action_round_trips_through_its_command(names: list[str], options: dict[str, Any]) -> None:
    codec = RULES.codec
    seen = 0
    for game in _games(names, options):
        for state, _events in game:
            for seat in range(len(names)):
                for action in RULES.legal(state, seat):
                    command = codec.encode(state, seat, action)
                    assert len(command.encode()) <= 70, command
                    assert codec.parse(state, seat, command) == action, command
                    assert codec.parse(state, seat, Command.decode(command.encode())) == action
                    assert codec.label(state, seat, command).strip()
                    for name, value in command.args:
                        assert codec.label(state, seat, Command(command.verb, ((name, value),)), arg=name)
                    seen += 1
                view = RULES.view(state, seat)
                for entry in (*view.front, *view.back):  # the `/party` menus
                    assert len(entry.command.encode()) <= 70
                    order = codec.parse(state, seat, entry.command)
                    assert isinstance(order, Order) and codec.encode(state, seat, order) == entry.command
                    RULES.apply(state, seat, order)  # a reorder on offer is accepted
    assert seen > 100


def test_what_players_type_today_still_parses() -> None:
    rules = LegendRuleset()
    game = play_moves(rules, ["Ann", "Bob"], 0, mode="expanded")
    state = game[0][0]
    seat = state.order[0]
    codec = rules.codec
    door = rules.table.destinations(state, seat)[0]
    assert codec.parse(state, seat, Command.of("explore", to=door.lower())) == Place(to=door)
    assert codec.parse(state, seat, Command.of("explore", to=door[1:])) == Place(to=door)
    party = state.players[seat].party
    hero = party[1].id
    name = rules.codec.hero_id(state, seat, hero)
    assert codec.parse(state, seat, Command.of("lead", hero=hero.upper())) == Lead(hero=name)
    assert codec.parse(state, seat, Command.of("front", hero=hero)).heroes[-1] == hero  # type: ignore[union-attr]
    assert codec.parse(state, seat, Command.of("back", hero=hero)).heroes[0] == hero  # type: ignore[union-attr]
    # the buttons of games stored before the plug-in work
    assert codec.parse(state, seat, Command("attack")) == Attack()
    assert codec.parse(state, seat, Command("keep")) == Keep()
    assert codec.parse(state, seat, Command("cast")) == Cast()
    assert codec.parse(state, seat, Command("retreat")) == Retreat()
    assert codec.parse(state, seat, Command("study")) == codec.parse(state, seat, Command("heal")) == Rest()
    assert codec.parse(state, seat, Command("narrate")) == Narrate()  # "Let Tabula read it"
    assert codec.parse(state, seat, Command.of("narrate", note="Dust.")) == SceneNote(text="Dust.")
    both = codec.parse(state, seat, Command.of("narrate", text="A hall.", note="Dust."))
    assert both == Narrate(text="A hall.", note="Dust.")
    assert codec.parse(state, seat, codec.encode(state, seat, Narrate(auto=True))) == Narrate(auto=True)
    with pytest.raises(IllegalAction, match="There is no"):
        codec.parse(state, seat, Command.of("lead", hero="nobody"))
    with pytest.raises(IllegalAction, match=r"no `/roll`"):
        codec.parse(state, seat, Command.of("roll", expr="d20"))  # `/roll` is the platform's now
    assert codec.encode(state, seat, Roll(expr="d20")) == Command.of("roll", expr="d20")  # old logs still named
    starter = play_moves(rules, ["Ann", "Bob"], 0)[0][0]
    with pytest.raises(IllegalAction, match="Expanded Game"):
        codec.parse(starter, 0, Command("attack"))


def test_a_telling_with_a_note_pins_the_note_then_tells_the_card() -> None:
    rules = LegendRuleset()
    for state, _events in play_moves(rules, ["Ann", "Bob", "Cy"], 400, narration="players", seed=3):
        narrator = rules.table.narrator(state)
        if narrator is not None and rules.legal(state, narrator) == [Narrate()]:
            step = rules.apply(state, narrator, Narrate(text="A cold hall.", note="Frost on the walls."))
            assert any(type(e).__name__ == "NoteAdded" for e in step.events)
            assert any(type(e).__name__ == "CardRead" and e.words == "A cold hall." for e in step.events)
            return
    pytest.fail("no narration in the game")


# --- meta, timeout, policy ------------------------------------------------------------------------------

def test_meta() -> None:
    assert RULES.meta(SceneNote(text="x")).free and RULES.meta(Order(heroes=[])).free
    assert not RULES.meta(SceneNote(text="x")).secret
    for rolls in (Narrate(), Move(to="D1"), Attack(), Cast(), Keep(), Lead(hero="x"), Rest(), Roll(expr="d6")):
        assert not RULES.meta(rolls).undoable
    assert RULES.meta(Place(to="D1")).undoable and not RULES.meta(Place(to="D1")).free


@pytest.mark.parametrize(("names", "options"), [(t[1], t[2]) for t in TABLES], ids=IDS)
def test_tabula_plays_every_seat_to_the_end_in_hundreds_of_moves(names: list[str], options: dict[str, Any]) -> None:
    for game in _games(names, options, range(6)):
        assert RULES.outcome(game[-1][0]) is not None and len(game) < 1500


def test_an_absent_narrator_is_read_for_by_tabula() -> None:
    for state, _events in play_moves(RULES, ["Ann", "Bob"], 300, narration="players", seed=5):
        pending = RULES.timeout(state)
        if pending is not None:
            seat, action = pending
            assert action == Narrate(auto=True) and RULES.to_act(state) == {seat}
            RULES.apply(state, seat, action)
            return
    pytest.fail("no narration in the game")


def test_policy_moves_only_for_a_seat_that_may_act() -> None:
    state = play_moves(RULES, ["Ann", "Bob"], 0)[0][0]
    idle = next(s for s in range(2) if s not in RULES.to_act(state))
    assert RULES.policy(state, idle, Rng(1)) is None


# --- secrets --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("names", "options"), [(t[1], t[2]) for t in TABLES], ids=IDS)
def test_no_view_but_the_seats_own_changes_with_its_secrets(names: list[str], options: dict[str, Any]) -> None:
    differed = 0
    for game in _games(names, options, range(2)):
        for state, _events in game[::3]:
            for seat in range(len(names)):
                public = RULES.view(state, None)
                others = {o: RULES.view(state, o) for o in range(len(names)) if o != seat}
                mine = RULES.view(state, seat)
                for variant in RULES.secret_variants(state, seat):
                    assert RULES.view(variant, None) == public
                    for other, seen in others.items():
                        assert RULES.view(variant, other) == seen
                    differed += RULES.view(variant, seat) != mine
    if "narration" in options:
        assert differed  # the variants do hide something: the card in a Narrator's hand (spells lie face up)


def test_public_view_holds_no_pile_order_nor_a_waiting_card() -> None:
    for state, _events in play_moves(RULES, ["Ann", "Bob", "Cy"], 300, narration="players", seed=2):
        ex = state.exploring
        text = msgspec.json.encode(RULES.view(state, None)).decode()
        assert "rng" not in text and "piles" not in text
        if ex is not None and ex.pending is not None and ex.decision is None:
            assert f'"{ex.pending}"' not in text


# --- the presenter --------------------------------------------------------------------------------------

def _check_telling(telling: Telling | None, users: set[int]) -> None:
    if telling is None:
        return
    assert isinstance(telling.text, str)
    for picture in telling.pictures:
        assert picture.png.startswith(b"\x89PNG") and len(picture.alt) <= 1000
    prompt = telling.prompt
    if prompt is None:
        return
    assert set(prompt.users) <= users
    for menu in prompt.menus:
        assert isinstance(menu, Menu) and 0 < len(menu.choices) <= 25
        for label, command in menu.choices:
            assert label and len(command.encode()) <= 70
    for button in prompt.buttons:
        assert isinstance(button, Button) and (button.command is not None) != (button.view is not None)
        if button.command is not None:
            assert len(button.command.encode()) <= 70


@pytest.mark.slow
@pytest.mark.parametrize(("names", "options"), [(t[1], t[2]) for t in TABLES], ids=IDS)
def test_the_presenter_tells_every_moment_of_a_game(names: list[str], options: dict[str, Any]) -> None:
    seats = [SeatName(seat=i, user_id=100 + i, name=n) for i, n in enumerate(names)]
    users = {s.user_id for s in seats}
    step = RULES.setup([SeatInfo(index=i, name=n) for i, n in enumerate(names)], options, seed=11)
    state, rng = step.state, Rng(11)
    moment = moment_for(RULES, state, seats, events=step.events)
    _check_telling(PRESENTER.telling(moment), users)
    cards = 0
    for n in range(400):
        acting = sorted(RULES.to_act(state))
        if not acting:
            break
        seat = acting[rng.below(len(acting))]
        action = RULES.policy(state, seat, rng)
        assert action is not None
        after = RULES.apply(state, seat, action)
        moment = moment_for(RULES, after.state, seats, events=after.events, actor=seat, action=action,
                            _before=state)
        assert moment.command is not None and RULES.codec.parse(state, seat, moment.command) == action
        telling = PRESENTER.telling(moment)
        _check_telling(telling, users)
        if telling.prompt is not None and telling.prompt.users:
            assert telling.prompt.users == [moment.user_of(s) for s in sorted(RULES.to_act(after.state))]
            for button in telling.prompt.buttons:  # every button plays a legal move, or opens a view
                if button.command is not None:
                    to = min(RULES.to_act(after.state))
                    assert RULES.codec.parse(after.state, to, button.command) in RULES.legal(after.state, to)
        if n % 7 == 0:
            _check_telling(PRESENTER.status(moment), users)
        for s in range(len(names)):
            for name in ("sheet", "party", "card"):
                try:
                    private = PRESENTER.private(name, moment, s)
                except IllegalAction as refusal:  # a view with nothing now says why, in the player's words
                    assert name in ("party", "card") and str(refusal)
                    private = None
                _check_telling(private, users)
                if name == "party":
                    assert (private is None) == (options.get("mode") != "expanded")
                if name == "card" and private is not None:
                    assert s == RULES.table.narrator(after.state)
                    cards += 1
        state = after.state
    if options.get("narration") == "players":
        assert cards
    end = moment_for(RULES, state, seats, status="finished")
    _check_telling(PRESENTER.status(end), users)


def test_the_narrator_is_offered_the_card_and_tabulas_reading() -> None:
    seats = [SeatName(seat=i, user_id=100 + i, name=n) for i, n in enumerate(["Ann", "Bob", "Cy"])]
    for state, events in play_moves(RULES, ["Ann", "Bob", "Cy"], 300, narration="players", seed=4):
        narrator = RULES.table.narrator(state)
        if narrator is not None and RULES.legal(state, narrator) == [Narrate()]:
            telling = PRESENTER.telling(moment_for(RULES, state, seats, events=events))
            assert telling.prompt is not None and telling.prompt.users == [100 + narrator]
            read, auto = telling.prompt.buttons
            assert (read.label, read.view, read.style, read.emoji) == ("Read the card", "card", "primary", "📜")
            assert (auto.label, auto.command, auto.emoji) == ("Let Tabula read it", Command("narrate", (("text", ""),)),
                                                              "🤖")
            assert auto.typed == "/narrate text:"  # typed in the terminal, it reads the card (`/narrate` shows it)
            card = PRESENTER.private("card", moment_for(RULES, state, seats), narrator)
            assert card is not None and "What it does" in card.text and card.pictures
            for other in range(3):
                if other != narrator:
                    with pytest.raises(IllegalAction, match="no card to read"):
                        PRESENTER.private("card", moment_for(RULES, state, seats), other)
            return
    pytest.fail("no narration in the game")


def test_the_party_panel_offers_front_and_back_menus_only_outside_its_fights() -> None:
    seats = [SeatName(seat=i, user_id=100 + i, name=n) for i, n in enumerate(["Ann", "Bob"])]
    state = play_moves(RULES, ["Ann", "Bob"], 0, mode="expanded")[0][0]
    panel = PRESENTER.private("party", moment_for(RULES, state, seats), 0)
    assert panel is not None and panel.prompt is not None and panel.prompt.users == []
    front, back = panel.prompt.menus
    assert front.placeholder.startswith("Put at the front") and back.placeholder.startswith("Send to the back")
    assert all(c.verb == "front" for _label, c in front.choices) and all(c.verb == "back" for _l, c in back.choices)
    assert "Choose below" in panel.text and panel.pictures[0].filename == "party-0.png"
    over = moment_for(RULES, state, seats, status="finished")
    closed = PRESENTER.private("party", over, 0)
    assert closed is not None and closed.prompt is None


@pytest.mark.slow
def test_warm_draws_the_static_pictures() -> None:
    assert PRESENTER.warm() > 50


def test_a_game_error_is_all_a_wrong_command_gives() -> None:
    state = play_moves(RULES, ["Ann", "Bob"], 0)[0][0]
    for command in (Command("explore"), Command.of("explore", to="D999"), Command("party"), Command("sheet")):
        with pytest.raises(GameError):
            RULES.apply(state, state.order[0], RULES.codec.parse(state, state.order[0], command))
