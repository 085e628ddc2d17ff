"""Race to Ten: a two-player game kept in the test tree to show that a game is a plug-in.

Players take turns to step 1, 2 or 3 squares along a track of ten; whoever lands exactly on ten wins.  Each
player also holds one secret "boost" number, seen only by its owner, which the view must never leak."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import msgspec

from rules.core import Action, Event, GameOver, IllegalAction, NotYourTurn, Outcome, Rng, SeatInfo, Step, seed_state
from rules.spec import ActionMeta, ArgSpec, BenchSpec, Command, GameSpec, OptionSpec, VerbSpec

GOAL = 10


class State(msgspec.Struct):
    names: list[str]
    at: list[int]
    boost: list[int]  # each player's secret number
    turn: int = 0
    moves: int = 0
    rng: int = 0


class Step_(Action, tag="step", frozen=True):
    by: int


class Stepped(Event, tag="stepped", frozen=True):
    seat: int
    by: int
    at: int


class RaceView(msgspec.Struct, frozen=True):
    names: tuple[str, ...]
    at: tuple[int, ...]
    turn: int
    my_boost: int | None = None


class Codec:
    def parse(self, state: State, seat: int, command: Command) -> Step_:
        if command.verb != "move":
            raise IllegalAction(f"Race to Ten has no `/{command.verb}`. Use `/move steps:1`, 2 or 3.")
        text = command.get("steps").strip()
        if text not in ("1", "2", "3"):
            raise IllegalAction("Step 1, 2 or 3 squares: `/move steps:2`.")
        return Step_(by=int(text))

    def encode(self, state: State, seat: int, action: Step_) -> Command:
        return Command.of("move", steps=action.by)

    def label(self, state: State, seat: int, command: Command, arg: str | None = None) -> str:
        by = int(command.get("steps", "0"))
        return f"{by} step{'s' if by > 1 else ''} → square {state.at[seat] + by}"


class Race:
    spec = GameSpec(
        key="race", title="Race to Ten", summary="Step 1, 2 or 3 squares a turn; land exactly on ten to win.",
        min_players=2, max_players=2,
        options=(OptionSpec(name="track", description="Race to Ten: how the track looks", choices=("plain", "dotted"),
                            default="plain"),),
        verbs=(VerbSpec(name="move", description="Race to Ten: step along the track", help="`/move steps:` 1, 2 or 3",
                        args=(ArgSpec(name="steps", description="How many squares", required=True),)),
               VerbSpec(name="sheet", description="Your secret boost", help="`/sheet` your secret boost",
                        kind="view", view="sheet")),
        bench=(BenchSpec(label="Race to Ten", players=2),),
        intro="Reach square ten exactly. On your turn step 1, 2 or 3 squares.",
    )
    state_type = State
    action_type = Step_
    codec = Codec()

    def check_options(self, options: Mapping[str, object], players: int) -> dict[str, object]:
        track = options.get("track") or "plain"
        if track not in ("plain", "dotted"):
            raise IllegalAction("The track is **plain** or **dotted**.")
        return {**options, "track": track}

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step:
        rng = Rng(seed_state(seed))
        boost = [rng.die(6) for _ in seats]
        return Step(state=State(names=[s.name for s in seats], at=[0] * len(seats), boost=boost, rng=rng.state),
                    events=())

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if GOAL in state.at else frozenset({state.turn})

    def legal(self, state: State, seat: int) -> list[Step_]:
        if seat not in self.to_act(state):
            return []
        return [Step_(by=b) for b in (1, 2, 3) if state.at[seat] + b <= GOAL]

    def apply(self, state: State, seat: int, action: Step_) -> Step:
        if GOAL in state.at:
            raise GameOver("The race is over.")
        if seat != state.turn:
            raise NotYourTurn(f"It is {state.names[state.turn]}'s turn.")
        if state.at[seat] + action.by > GOAL:
            raise IllegalAction(f"That overshoots square ten; step at most {GOAL - state.at[seat]}.")
        at = list(state.at)
        at[seat] += action.by
        new = msgspec.structs.replace(state, at=at, turn=1 - seat, moves=state.moves + 1)
        return Step(state=new, events=(Stepped(seat=seat, by=action.by, at=at[seat]),))

    def view(self, state: State, seat: int | None) -> RaceView:
        return RaceView(names=tuple(state.names), at=tuple(state.at), turn=state.turn,
                        my_boost=state.boost[seat] if seat is not None else None)

    def outcome(self, state: State) -> Outcome | None:
        if GOAL not in state.at:
            return None
        winner = state.at.index(GOAL)
        return Outcome(winners=(winner,), scores=dict(enumerate(state.at)), summary=f"{state.names[winner]} wins!")

    def moment(self, state: State) -> int:
        return state.moves

    def meta(self, action: Step_) -> ActionMeta:
        return ActionMeta()

    def timeout(self, state: State) -> tuple[int, Step_] | None:
        legal = self.legal(state, state.turn)
        return (state.turn, legal[0]) if legal else None

    def policy(self, state: State, seat: int, rng: Rng) -> Step_ | None:
        legal = self.legal(state, seat)
        return legal[rng.below(len(legal))] if legal else None

    def secret_variants(self, state: State, seat: int) -> Iterator[State]:
        boost = list(state.boost)
        boost[seat] = boost[seat] % 6 + 1
        yield msgspec.structs.replace(state, boost=boost)


RULESET = Race()
