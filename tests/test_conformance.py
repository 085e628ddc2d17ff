"""Every game Tabula finds passes the same checks, by existing: random play ends, the log replays, the state
survives its JSON form, views keep secrets, the codec names every legal action and reads it back, `/roll`
works, and the terminal runner plays it.  Race to Ten, kept in the test tree, is checked too: a plug-in gets
all of this without a line of platform code."""

from __future__ import annotations

import argparse
import importlib
import io
import json
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bot.delivery.tellings import undo_line
from bot.service.play import GameService, Person
from bot.service.records import Game, LogRow, build, export, frame, history_lines, public_words
from bot.store.db import Database
from bot.store.models import Game as GameRow
from bot.store.models import Seat as SeatRow
from bot.store.records import GameFacts
from rules import GameError
from rules.core import Rng, SeatInfo, seed_state
from rules.registry import AnyRuleset, games, package_of, register, unregister
from rules.ruleset import stands_in
from rules.spec import ID_LIMIT, Command
from rules.telling import event_types, untold

PLUGIN = "tests.plugins.race"
register(PLUGIN)
KEYS = sorted(games())
unregister(PLUGIN)
MOVE_LIMIT = 6000
#: What the platform puts in front of an encoded command in a button id: ``tb:do:<game>:<moment>:``.
ID_PREFIX = len("tb:do:2147483647:99999999:")
_enc = msgspec.json.Encoder()


@pytest.fixture(params=KEYS)
def key(request: pytest.FixtureRequest) -> Iterator[str]:
    register(PLUGIN)
    yield str(request.param)
    unregister(PLUGIN)


def configurations(rules: AnyRuleset) -> list[tuple[int, dict[str, Any]]]:
    spec = rules.spec
    found = [(b.players, dict(b.options)) for b in spec.bench] or [(spec.min_players, {})]
    return found


def play_out(rules: AnyRuleset, players: int, options: dict[str, Any], seed: int,
             visit: Any = None, trace: list[tuple[Any, int, Any, tuple[object, ...]]] | None = None
             ) -> tuple[Any, list[tuple[int, Any]], int]:
    """A whole game, mostly by Tabula's policy and sometimes a random legal move; returns the final state,
    the actions taken and how many moves it took.  With ``trace``, each move is kept there as (the state it
    was made in, the seat, the action, its events)."""
    seats = [SeatInfo(index=i, name=f"P{i}") for i in range(players)]
    checked = rules.check_options(options, players)
    state = rules.setup(seats, checked, seed).state
    rng = Rng(seed_state(seed))
    log: list[tuple[int, Any]] = []
    for moves in range(MOVE_LIMIT):
        if rules.outcome(state) is not None:
            return state, log, moves
        acting = sorted(rules.to_act(state))
        assert acting, "nobody can act, yet the game has not ended"
        seat = acting[rng.below(len(acting))]
        legal = list(rules.legal(state, seat))
        assert legal, f"seat {seat} must act but has no legal action"
        action = rules.policy(state, seat, rng) if rng.below(10) < 8 else None
        if action is None:
            action = legal[rng.below(len(legal))]
        if visit is not None:
            visit(state, seat, legal)
        try:
            step = rules.apply(state, seat, action)
        except GameError as err:
            # Every action `legal` lists, `apply` accepts; only a policy's own move, one the list does not hold,
            # may be refused (with a game error, never a crash).
            assert action not in legal, f"{rules.spec.title}: seat {seat} was offered {action!r}, and refused: {err}"
            continue
        if trace is not None:
            trace.append((state, seat, action, tuple(step.events)))
        state = step.state
        log.append((seat, action))
    raise AssertionError(f"{rules.spec.title}: no end after {MOVE_LIMIT} moves")


def test_random_play_ends_and_replays_exactly(key: str) -> None:
    rules = games()[key]
    for players, options in configurations(rules):
        for seed in (1, 2):
            final, log, _moves = play_out(rules, players, options, seed)
            seats = [SeatInfo(index=i, name=f"P{i}") for i in range(players)]
            again = rules.setup(seats, rules.check_options(options, players), seed).state
            for seat, action in log:
                again = rules.apply(again, seat, action).state
            assert msgspec.json.encode(again) == msgspec.json.encode(final)
            copy = msgspec.json.decode(msgspec.json.encode(final), type=rules.state_type)
            assert copy == final
            assert rules.outcome(final) is not None


def test_a_timeouts_stand_in_plays_only_the_timed_out_seats_own_moves(key: str) -> None:
    """Where the Tabula level searches, a turn timeout's stand-in (``rules.ruleset.stands_in``, optional: one move
    without it) goes on only while the timed-out seat has a move to make, and ends."""
    rules = games()[key]
    for players, options in configurations(rules):
        trace: list[tuple[Any, int, Any, tuple[object, ...]]] = []
        play_out(rules, players, options, 3, trace=trace)
        for state, _seat, _action, _events in trace[::5]:
            pending = rules.timeout(state)
            if pending is None:
                continue
            seat, _stand_in = pending
            now, played, rng = state, 0, Rng(seed_state(len(trace)))
            while stands_in(rules, state, now, seat, played):
                assert seat in rules.to_act(now) and rules.legal(now, seat), (rules.spec.key, played)
                assert played < MOVE_LIMIT, f"{rules.spec.title}: a stand-in that never ends"
                move = rules.policy(now, seat, rng) or rules.legal(now, seat)[0]
                now, played = rules.apply(now, seat, move).state, played + 1


def test_the_codec_names_every_legal_action_and_reads_it_back(key: str) -> None:
    rules = games()[key]
    codec = rules.codec
    seen = 0

    def visit(state: Any, seat: int, legal: list[Any]) -> None:
        nonlocal seen
        for action in legal:
            command = codec.encode(state, seat, action)
            assert codec.parse(state, seat, command) == action, (command, action)
            assert codec.parse(state, seat, Command.decode(command.encode())) == action
            assert ID_PREFIX + len(command.encode()) <= ID_LIMIT, command.encode()
            assert 0 < len(codec.label(state, seat, command)) <= 100
            for name, _ in command.args:
                assert codec.label(state, seat, command, name)
            seen += 1

    for players, options in configurations(rules):
        play_out(rules, players, options, 3, visit)
    assert seen > 20


@pytest.mark.slow
def test_every_action_legal_lists_apply_accepts(key: str) -> None:
    """At every moment of a whole game per configuration, each action the acting seat is offered is applied to the
    same state: none may be refused (a refusal would be a button that answers 'not allowed')."""
    rules = games()[key]
    accepted = 0

    def visit(state: Any, seat: int, legal: list[Any]) -> None:
        nonlocal accepted
        for action in legal:
            try:
                rules.apply(state, seat, action)
            except GameError as err:
                raise AssertionError(f"{rules.spec.title}: seat {seat} was offered {action!r}, and refused: {err}") \
                    from err
            accepted += 1

    for players, options in configurations(rules):
        play_out(rules, players, options, 6, visit)
    assert accepted >= 10


@pytest.mark.parametrize("game", [k for k in KEYS if k != "race"])
def test_every_event_of_the_game_has_its_telling(game: str) -> None:
    """The game's telling table (``rules/<key>/telling.py``) names every event type its ``state.py`` declares (a
    ``silent`` entry for an event told by another's line): a new event cannot reach the thread untold by
    accident.  (Race to Ten, the plug-in kept in one file in the test tree, tells its one event itself.)"""
    package = package_of(game)
    state = importlib.import_module(f"{package}.state")
    telling = importlib.import_module(f"{package}.telling")
    assert event_types(state), f"{key}: no events found in {package}.state"
    assert untold(telling.TELLERS, state) == []


def test_no_view_shows_what_only_another_seat_may_know(key: str) -> None:
    rules = games()[key]
    checked = 0
    for players, options in configurations(rules):

        def visit(state: Any, seat: int, legal: list[Any], players: int = players) -> None:
            nonlocal checked
            for owner in range(players):
                public = rules.view(state, None)
                others = {s: rules.view(state, s) for s in range(players) if s != owner}
                for variant in rules.secret_variants(state, owner):
                    assert rules.view(variant, None) == public, f"the public view shows seat {owner}'s secret"
                    for s, view in others.items():
                        assert rules.view(variant, s) == view, f"seat {s} sees seat {owner}'s secret"
                    checked += 1

        play_out(rules, players, options, 4, _every(7, visit))
    assert checked > 0


#: How many secret moves of each whole game are told again with another secret choice in their place.
TWINS = 5


def _log(rules: AnyRuleset, players: int, moves: list[tuple[int, Any, tuple[object, ...]]]) -> list[LogRow]:
    """The stored log of a game played by ``moves`` (the start, then each move as the service writes it)."""
    rows = [LogRow(seq=1, user_id=0, seat=None, action=json.dumps({"type": "start",
                                                                     "names": [f"P{i}" for i in range(players)]}),
                   events="[]")]
    for n, (seat, action, events) in enumerate(moves):
        rows.append(LogRow(seq=n + 2, user_id=100 + seat, seat=seat, action=_enc.encode(action).decode(),
                           events=_enc.encode(list(events)).decode()))
    return rows


def _stored(rules: AnyRuleset, players: int, options: dict[str, Any], seed: int, rows: list[LogRow],
            earlier: Game | None = None) -> Game:
    """The game as history, replay and export read it from the database, still running (``earlier``: the same
    game with a shorter log, walked already)."""
    facts = GameFacts(game=GameRow(id=1, guild_id=1, ruleset=rules.spec.key, options=json.dumps(options),
                                   status="active", seed=seed, host_id=100),
                      seats=[SeatRow(game_id=1, user_id=100 + i, seat=i, name=f"P{i}") for i in range(players)])
    return build(facts, rows, earlier)


def _public_lines(rules: AnyRuleset, players: int, options: dict[str, Any], seed: int, earlier: Game,
                  state: Any, move: tuple[int, Any, tuple[object, ...]]) -> dict[str, Any]:
    """Every line the platform can post about a game (``earlier``, walked) once ``move`` is made in ``state``:
    its history, the replay of its newest position (text and pictures), its export, the thread's line when that
    move is taken back, and the history, replay and export once it has been."""
    seat, action, events = move
    rows = [*earlier.rows, LogRow(seq=len(earlier.rows) + 1, user_id=100 + seat, seat=seat,
                                  action=_enc.encode(action).decode(), events=_enc.encode(list(events)).decode())]
    undone = [*rows, LogRow(seq=len(rows) + 1, user_id=100 + seat, seat=seat,
                            action=json.dumps({"type": "tabula.undo", "undoes": len(rows)}), events="[]")]
    out: dict[str, Any] = {"undo": undo_line(f"P{seat}", public_words(rules, state, seat, action, reveal=False))}
    for name, log in (("moved", rows), ("taken back", undone)):
        game = _stored(rules, players, options, seed, log, earlier)
        lines = history_lines(game)
        shown = frame(game, lines)
        out[name] = {"history": lines, "replay": shown.text, "export": export(game, now=0.0)}
        if name == "moved":  # (taken back, the board is the one before the move, drawn from the same state)
            out[name]["pictures"] = [p.png for p in shown.pictures]
    return out


@pytest.mark.slow
def test_no_undo_history_replay_or_export_line_tells_a_secret_move(key: str) -> None:
    """Over whole games: a secret move told again with another secret choice in its place that leaves the same
    public view (a different row of orders, another card) must leave every line the platform can post — the
    history, the replay, the export, the thread's line when it is taken back, and all of them after the take-back
    — exactly as they were.  The lines may say only what the move's own public telling said."""
    rules = games()[key]
    secret = compared = 0
    for players, options in configurations(rules):
        checked = rules.check_options(options, players)
        trace: list[tuple[Any, int, Any, tuple[object, ...]]] = []
        play_out(rules, players, options, 6, trace=trace)
        moves = [(seat, action, events) for _state, seat, action, events in trace]
        chosen = [i for i, (_state, _seat, action, _e) in enumerate(trace) if rules.meta(action).secret]
        secret += len(chosen)
        earlier: Game | None = None
        for i in chosen[::max(1, len(chosen) // TWINS)][:TWINS]:
            state, seat, action, _events = trace[i]
            public = rules.view(rules.apply(state, seat, action).state, None)
            twins: list[tuple[Any, tuple[object, ...]]] = []
            for other in rules.legal(state, seat):
                if other == action or not rules.meta(other).secret:
                    continue
                try:
                    step = rules.apply(state, seat, other)
                except GameError:
                    continue
                if rules.view(step.state, None) == public:
                    twins.append((other, tuple(step.events)))
                if len(twins) == 2:
                    break
            if not twins:
                continue
            earlier = _stored(rules, players, checked, 6, _log(rules, players, moves[:i]), earlier)
            told = _public_lines(rules, players, checked, 6, earlier, state, moves[i])
            for other, events in twins:
                again = _public_lines(rules, players, checked, 6, earlier, state, (seat, other, events))
                for part, lines in told.items():
                    assert again[part] == lines, (f"{rules.spec.title}: the {part} lines tell seat {seat}'s secret "
                                                  f"move {i + 1} ({type(action).__name__})")
                compared += 1
    if secret:
        assert compared > 0, f"{rules.spec.title}: no secret move had another with the same public view"


def test_the_words_for_a_move_never_tell_another_seats_secret(key: str) -> None:
    """The words history, replay and an undo use for a public move are the same whatever another seat holds
    in secret (as the views are: see above)."""
    rules = games()[key]
    checked = 0
    for players, options in configurations(rules):

        def visit(state: Any, seat: int, legal: list[Any], players: int = players) -> None:
            nonlocal checked
            public = [a for a in legal if not rules.meta(a).secret][:6]
            said = {i: public_words(rules, state, seat, a, reveal=False) for i, a in enumerate(public)}
            for owner in range(players):
                if owner == seat:
                    continue
                for variant in islice(rules.secret_variants(state, owner), 2):
                    allowed = list(rules.legal(variant, seat))
                    for i, action in enumerate(public):
                        if action in allowed:
                            assert public_words(rules, variant, seat, action, reveal=False) == said[i], \
                                f"the words for seat {seat}'s {type(action).__name__} tell seat {owner}'s secret"
                            checked += 1

        play_out(rules, players, options, 4, _every(5, visit))
    assert checked > 0


def _every(n: int, visit: Any) -> Any:
    count = 0

    def sometimes(*args: Any) -> None:
        nonlocal count
        count += 1
        if count % n == 1:
            visit(*args)
    return sometimes


async def test_roll_works_in_every_game(db: Database, key: str) -> None:
    rules = games()[key]
    players, options = configurations(rules)[0]
    svc = GameService(db)
    people = [Person(100 + i, f"P{i}") for i in range(players)]
    info = await svc.create(key, people[0], options=options, seed=9)
    for p in people[1:]:
        await svc.join(info.game_id, p)
    started = await svc.start(info.game_id, people[0].id)
    rolled = await svc.act(info.game_id, people[-1].id, verb="roll", args={"expr": "2d6+1"})
    assert rolled.meta.free and rolled.stamp == started.stamp
    assert rolled.command == Command.of("roll", expr="2d6+1")
    assert [type(e).__name__ for e in rolled.events] == ["DiceRolled"]
    assert await svc.replay(info.game_id) == (await svc.get(info.game_id)).state


@pytest.mark.slow
async def test_the_terminal_runner_plays_it(tmp_path: Path, key: str) -> None:
    from bot.front.offline import add_arguments, play
    from bot.store.db import open_database

    rules = games()[key]
    for n, (players, options) in enumerate(configurations(rules)):
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        folder = tmp_path / str(n)
        argv = [key, "--players", ",".join(f"P{i}" for i in range(players)), "--seed", "5", "--auto", "--moves",
                "40", "--images", str(folder)]
        for name, value in options.items():
            flag = f"--{name.replace('_', '-')}"
            argv += [flag] if value is True else [flag, str(value)]
        out = io.StringIO()
        assert await play(parser.parse_args(argv), out=out) == 0
        typed = out.getvalue().count("\n> /")
        assert typed >= 10
        # every line Tabula typed was a move (none only opened a view and left the game where it was)
        db = await open_database(f"sqlite+aiosqlite:///{folder / 'offline.db'}")
        try:
            assert len(await GameService(db).history(1)) == typed + 1  # and the start
        finally:
            await db.close()


@pytest.mark.slow
async def test_one_person_against_tabula_in_every_other_seat_plays_to_the_end(db: Database, key: str) -> None:
    """Every game keeps working with Tabula in any number of seats: here one person and Tabula in all the
    others (the person moves by Tabula's policy too, through the service), and then a game whose one person
    leaves, so that Tabula plays every seat to the end by itself."""
    from bot.longplay.service import LongGameService

    rules = games()[key]
    players, options = configurations(rules)[0]
    svc = LongGameService(db)
    host = Person(100, "P0")
    info = await svc.create(key, host, options={**options, "clock": "none"}, seed=13)
    for _ in range(max(players, rules.spec.min_players) - 1):
        await svc.add_tabula(info.game_id, host.id)
    moment = await svc.start(info.game_id, host.id)
    rng = Rng(seed_state(13))
    for _ in range(MOVE_LIMIT):
        moment = await svc.get(info.game_id)
        if moment.status != "active":
            break
        seats = sorted(moment.to_act)
        assert seats == [0] or 0 in seats, "Tabula's seats should have moved by themselves"
        action = rules.policy(moment.state, 0, rng)
        if action is None:
            legal = list(rules.legal(moment.state, 0))
            action = legal[rng.below(len(legal))]
        try:
            await svc.act(info.game_id, host.id, action)
        except GameError:
            continue
    assert moment.status == "finished", f"{rules.spec.title}: no end with one person against Tabula"

    again = await svc.create(key, host, options={**options, "clock": "none"}, seed=14)
    for _ in range(max(players, rules.spec.min_players) - 1):
        await svc.add_tabula(again.game_id, host.id)
    await svc.start(again.game_id, host.id)
    if (await svc.get(again.game_id)).status == "active":
        await svc.leave_game(again.game_id, host.id)
        await svc.play_tabula(again.game_id)  # the leave is answered first; Tabula then plays to the end
    assert (await svc.get(again.game_id)).status == "finished", "Tabula alone did not finish the game"
