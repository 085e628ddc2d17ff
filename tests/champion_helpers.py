"""Small tools for Champion of the Empire tests: scripted dice, the book's fixture cards, stacked decks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import msgspec

from rules.champion.content import Library, Opponent, Outcome, Story, library
from rules.champion.engine import Engine
from rules.champion.engine.combat import card_type
from rules.champion.ruleset import ChampionRuleset
from rules.champion.state import Pass, Pick, State
from rules.champion.view import ChampionView, HeroView
from rules.core import Rng, SeatInfo


class ScriptedDice(Rng):
    """Dice that roll what the test says (then the seeded generator); shuffles keep order; lots pick the first."""

    script: ClassVar[list[int]] = []

    def die(self, sides: int) -> int:
        if ScriptedDice.script:
            return ScriptedDice.script.pop(0)
        return super().die(sides)

    def below(self, n: int) -> int:
        return 0

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        return list(items)


def _fixture_stories() -> list[Story]:
    """The book's example cards, with the book's numbers, for any the data files do not hold (yet)."""
    return [
        Story(id="greek-scholars", deck="medium", title="Greek Scholars", text="Roll a d6.", roll=True, outcome=(
            Outcome(rolls=(1, 2), text="Nothing happens."),
            Outcome(rolls=(3, 6), text="Gain 1 information.", info=1),
        )),
        Story(id="servants-of-mars", deck="medium", title="Servants of the God Mars", text="", outcome=(
            Outcome(text="Raise your maximum life by 1.", max_life=1),
        )),
        Story(id="tax-collector", deck="hard", title="The Tax Collector", text="", outcome=(
            Outcome(text="Fight!", rounds=1, opponent=(
                Opponent(name="Tax collector", combat=2, initiative=2, life=1, xp=1),
                Opponent(name="First guard", combat=2, initiative=2, life=1, xp=1),
                Opponent(name="Second guard", combat=2, initiative=2, life=1, xp=1),
            )),
        )),
        Story(id="bodyguard", deck="medium", title="The Bodyguard", text="", outcome=(
            Outcome(text="Fight!", opponent=(Opponent(name="Bodyguard", combat=6, initiative=4, life=3, xp=2),)),
        )),
    ]


def book_library() -> Library:
    """The game's data plus the book's fixture cards that the data does not have under those ids."""
    base = library()
    extra = tuple(s for s in _fixture_stories() if s.id not in base.story)
    return Library(map_data=base.map, heroes=base.heroes, items=base.items, events=base.events,
                   monsters=base.monsters, stories=base.stories + extra, combat=base.combat)


def scripted(rolls: Sequence[int] = ()) -> Engine:
    ScriptedDice.script = list(rolls)
    return Engine(book_library(), dice=ScriptedDice)


def champion_rules(game: Engine) -> ChampionRuleset:
    """The platform's ruleset around an engine (a scripted one, or one with the book's fixture cards)."""
    return ChampionRuleset(game)


def started(game: Engine, picks: Sequence[tuple[str, int, str]], names: Sequence[str] = (),
            **options: Any) -> State:
    """Seat players (seat 0 starts), pick their heroes, pass the item offers: round 1 begins."""
    names = list(names) or [f"P{i}" for i in range(len(picks))]
    seats = [SeatInfo(index=i, name=n) for i, n in enumerate(names)]
    state: State = game.setup(seats, options, seed=1).state
    for seat, (hero, side, weapon) in enumerate(picks):
        state = game.apply(state, seat, Pick(hero=hero, side=side, weapon=weapon)).state
    for seat in range(len(picks)):
        state = game.apply(state, seat, Pass()).state
    return state


def story_on_top(state: State, card: str) -> None:
    """Put a story card on top of its deck (the test builds the situation the book describes)."""
    lib = book_library()
    deck = lib.story[card].deck
    for pile in (state.stories[deck], state.story_discard[deck]):
        if card in pile:
            pile.remove(card)
    state.stories[deck].insert(0, card)


def stack_combat(state: State, types: Sequence[str]) -> None:
    """Put combat cards of these types, in this order, on top of the combat deck."""
    top: list[str] = []
    for kind in types:
        card = next(c for c in state.combat_deck if card_type(c) == kind and c not in top)
        top.append(card)
    rest = [c for c in state.combat_deck if c not in top]
    state.combat_deck = top + rest


def next_to(game: Engine, here: str, deck: str) -> str:
    """A neighbour of ``here`` whose icon draws from ``deck``."""
    lib = game.lib
    return next(p for p in lib.near[here] if lib.deck_of(p) == deck)


def calm(state: State) -> None:
    """Make the round's event one without effect, so a test sees only the rule it checks."""
    state.event = next(e.id for e in book_library().events if e.effect == "none")


def midgame(seed: int = 5, players: int = 4, rounds: int = 3) -> tuple[State, ChampionView]:
    """A real game Tabula plays in every seat, stopped at the start of a turn in round ``rounds`` just after a
    move (a busy map: tokens, a last move, provinces in reach, an event), and its public view."""
    rules = ChampionRuleset()
    state: State = rules.setup([SeatInfo(i, n) for i, n in enumerate(["Ann", "Bálint", "Cy", "Dóra"][:players])],
                               {"opponents": "bot"}, seed).state
    rng = Rng(seed)
    for _ in range(5000):
        if state.round >= rounds and state.phase == "action" and state.last_move and not state.tasks:
            break
        acting = sorted(rules.to_act(state))
        seat = acting[rng.below(len(acting))]
        action = rules.policy(state, seat, rng)
        assert action is not None
        state = rules.apply(state, seat, action).state
    return state, rules.view(state, None)


def sample_hero() -> HeroView:
    """A hero of a real game, with the numbers the sheet tests read (life 3 of 6, combat 6 of 7…)."""
    _state, view = midgame()
    shrines = tuple(p.id for p in library().map.province if p.shrine)[:2]
    return msgspec.structs.replace(
        view.heroes[0], player="Ann", hero="labienus", colour="red", letter="R", province="latium", life=3,
        max_life=6, combat=6, max_combat=7, initiative=3, xp=4, gold=5, info=2,
        items=("pilum", "gladius", "small-shield"), fate=0, to_act=True, shrines=shrines, regions_left=4,
        side="Veteran", info_needed=6)


def typed_view(data: dict[str, Any]) -> ChampionView:
    """A view of a made-up map (a test fixture no real game can reach), from plain data."""
    base: dict[str, Any] = {"round": 1, "phase": "action", "heroes": [], "caption": "", "opponents": "players",
                            "order": [], "to_act": [], "info_needed": 6}
    return msgspec.convert({**base, **data}, ChampionView)


# --- fights measured through the service ---------------------------------------------------------------


class FightFigures(msgspec.Struct):
    """One fight as the thread saw it: the commands people gave, the messages posted, the pings, the maps."""

    seed: int
    foes: int
    commands: int = 0
    messages: int = 0
    pings: int = 0
    maps: int = 0
    dashes: int = 0  # messages with nothing to say ("—")
    kinds: dict[str, int] = msgspec.field(default_factory=dict)  # the commands given, by verb


async def fight_figures(db: Any, seeds: Sequence[int], *, players: int = 3, opponents: str = "players",
                        fights: int = 4, queue: bool = True) -> list[FightFigures]:
    """Play seeded games through ``bot.service.play.GameService`` (every seat a person whom Tabula's policy moves) and
    measure each fight from the message that starts it to the one that ends it.  ``queue``: a hero's player
    who is offered to queue their defence for the rest of the fight takes it (once per fight)."""
    from bot.delivery.tellings import telling_now
    from bot.service.play import GameService, Person
    from rules.champion.state import Defend, FightBegan, FightEnded

    svc = GameService(db)
    out: list[FightFigures] = []
    for seed in seeds:
        people = [Person(i + 1, name) for i, name in enumerate(["Ann", "Bob", "Cy", "Dee"][:players])]
        info = await svc.create("champion", people[0], options={"opponents": opponents}, seed=seed)
        for p in people[1:]:
            await svc.join(info.game_id, p)
        result = await svc.start(info.game_id, people[0].id)
        rules = result.rules
        rng = Rng(seed)
        current: FightFigures | None = None
        found = 0
        for _ in range(4000):
            if result.outcome is not None or found >= fights:
                break
            state = result.state
            seat = sorted(rules.to_act(state))[0]
            legal = list(rules.legal(state, seat))
            queued = [a for a in legal if isinstance(a, Defend) and getattr(a, "order", ())]
            action = queued[0] if queue and queued else rules.policy(state, seat, rng)
            if not queue and isinstance(action, Defend) and getattr(action, "order", ()):
                action = Defend(card=action.card, foe=action.foe)
            result = await svc.act(info.game_id, people[seat].id, action)
            if current is not None:
                current.commands += 1
                verb = type(action).__name__.lower()
                current.kinds[verb] = current.kinds.get(verb, 0) + 1
            for moment in (result, *result.followups):
                events = moment.events
                if current is None and any(isinstance(e, FightBegan) for e in events):
                    began = next(e for e in events if isinstance(e, FightBegan))
                    current = FightFigures(seed=seed, foes=len(began.foes))
                if current is None:
                    continue
                telling = telling_now(moment)
                current.messages += 1
                current.dashes += telling.text.strip() in ("", "—")
                current.maps += sum(p.filename == "map.png" for p in telling.pictures)
                users = [u for u in (telling.prompt.users if telling.prompt else []) if u > 0]
                current.pings += len(users)
                if any(isinstance(e, FightEnded) for e in events):
                    out.append(current)
                    current = None
                    found += 1
    return out


async def _print_fight_figures(players: int, seeds: int) -> None:
    import tempfile

    from bot.store.db import open_database

    with tempfile.TemporaryDirectory() as work:
        db = await open_database(f"sqlite+aiosqlite:///{work}/figures.db")
        figures = await fight_figures(db, list(range(1, seeds + 1)), players=players, fights=5)
        await db.close()
    for label, chosen in (("1 opponent", [f for f in figures if f.foes == 1]),
                          ("2+ opponents", [f for f in figures if f.foes > 1]), ("all", figures)):
        if not chosen:
            continue

        def mean(key: str, chosen: list[FightFigures] = chosen) -> float:
            return sum(getattr(f, key) for f in chosen) / len(chosen)

        print(f"{players} players, {label:12s} fights={len(chosen):3d} commands={mean('commands'):5.1f} "
              f"messages={mean('messages'):5.1f} pings={mean('pings'):5.1f} maps={mean('maps'):4.1f} "
              f"empty={mean('dashes'):4.1f} most commands={max(f.commands for f in chosen)}")


if __name__ == "__main__":  # python -m tests.champion_helpers [players] [seeds]: the figures per fight
    import asyncio
    import sys

    asyncio.run(_print_fight_figures(int(sys.argv[1]) if len(sys.argv) > 1 else 3,
                                     int(sys.argv[2]) if len(sys.argv) > 2 else 20))


def labienus_and_jahmesz(rules: Any) -> State:
    """Ann (Labienus) and Bob (Jahmesz) picked and past the setup's market, in a round whose event does
    nothing: the start most wording tests tell from."""
    state: State = rules.setup([SeatInfo(0, "Ann"), SeatInfo(1, "Bob")], {}, 11).state
    state = rules.apply(state, 0, Pick(hero="labienus", side=1, weapon="pilum")).state
    state = rules.apply(state, 1, Pick(hero="jahmesz", side=1, weapon="khopesh")).state
    state = rules.apply(state, 0, Pass()).state
    state = rules.apply(state, 1, Pass()).state
    state.event = next(e.id for e in rules.engine.lib.events if e.effect == "none")
    return state
