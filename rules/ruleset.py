"""The base every game's ``ruleset.py`` extends: ``GameRuleset`` satisfies ``rules.spec.Ruleset`` with the
defaults most games share, so that a game writes only what is its own.

A game's ruleset names its ``spec``, ``state_type``, ``action_type``, ``codec`` and ``engine`` (an ``Engine``:
setup, to_act, legal, apply, outcome, moment) and its ``view``; the rest has a default here — the lobby's
options checked against the spec's declarations, every action plain, no timeout move (and, where the
level searches, a stand-in of one move), a random legal move for a seat Tabula plays, no secret variants — and
is overridden where the game differs.  Nothing here names a game."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from rules.core import Event, IllegalAction, Outcome, Rng, SeatInfo, Step
from rules.i18n import TABULA, Catalogue, _, catalogue_of
from rules.spec import ActionMeta, Codec, GameSpec, OptionSpec

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")

#: How a flag may be typed (the terminal runner and the lobby pass booleans; an old form may hold words).
ON = ("true", "yes", "on", "1")
OFF = ("false", "no", "off", "0", "")


class Engine(Protocol[S, A]):
    """A game's rules themselves (``rules/<key>/engine``): pure, the state copied and never changed in place."""

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step[S, Event]: ...
    def to_act(self, state: S) -> frozenset[int]: ...
    def legal(self, state: S, seat: int) -> Sequence[A]: ...
    def apply(self, state: S, seat: int, action: A) -> Step[S, Event]: ...
    def outcome(self, state: S) -> Outcome | None: ...
    def moment(self, state: S) -> int: ...


def flag(option: OptionSpec, value: object) -> bool:
    """A flag's value: a boolean as it is; a word from ``ON`` or ``OFF``; missing, the declared default."""
    if value is None:
        return bool(option.default)
    if isinstance(value, str):
        word = value.strip().lower()
        if word not in ON + OFF:
            raise IllegalAction(_("The {flag} variant is on or off (true/false), not '{value}'.", flag=option.name,
                                  value=value[:40]))
        return word in ON
    return bool(value)


def choice(option: OptionSpec, value: object, words: Catalogue = TABULA) -> object:
    """A choice's value, one of the declared ``choices`` (any case); missing, the declared default (which may be
    None: the game chooses it from the table in ``check_table``).  A refusal names the choices as ``words`` (the
    game's catalogue) name them to the player."""
    if value is None or value == "":
        return option.default
    word = str(value).strip().lower()
    if word not in option.choices:
        choices = TABULA.comma(f"**{words.pgettext('choice', c)}**" for c in option.choices)
        raise IllegalAction(_("`{option}:{value}` is not on offer: choose {choices}.",
                              option=words.pgettext("option", option.name), value=str(value)[:40], choices=choices))
    return word


def number(option: OptionSpec, value: object) -> object:
    """A number's value, inside the declared range; missing, the declared default."""
    if value is None or value == "":
        return option.default
    try:
        found = float(str(value))
    except ValueError:
        found = float("nan")
    low = option.minimum if option.minimum is not None else float("-inf")
    high = option.maximum if option.maximum is not None else float("inf")
    if not low <= found <= high:  # NaN fails both comparisons
        raise IllegalAction(_("`{option}` is a number from {low:g} to {high:g}.", option=option.name, low=low,
                              high=high))
    return found


def checked_options(spec: GameSpec, options: Mapping[str, object], words: Catalogue = TABULA) -> dict[str, object]:
    """The lobby's options with every option the spec declares checked and given its value (or its default);
    options the spec does not declare (the platform's own, such as the clock) pass through untouched."""
    out = dict(options)
    for option in spec.options:
        given = options.get(option.name)
        if option.kind == "flag":
            out[option.name] = flag(option, given)
        elif option.kind == "number":
            out[option.name] = number(option, given)
        else:
            out[option.name] = choice(option, given, words)
    return out


class GameRuleset(Generic[S, A, V]):
    """What the platform calls on a game, with the defaults most games share.  A subclass sets ``spec``,
    ``state_type``, ``action_type``, ``codec`` and ``engine``, writes ``view``, and overrides what differs."""

    spec: GameSpec
    state_type: type[S]
    #: The tagged union of the game's actions, for decoding the log.
    action_type: object
    codec: Codec[S, A]
    engine: Engine[S, A]

    # --- the lobby ------------------------------------------------------------------------------

    def check_options(self, options: Mapping[str, object], players: int) -> dict[str, object]:
        """The lobby's options normalised, or an IllegalAction saying what fits: first against the spec's
        declarations, then against the table (``check_table``)."""
        return self.check_table(checked_options(self.spec, options, self.words), players)

    @property
    def words(self) -> Catalogue:
        """The game's own catalogue (its package's ``locale/``), for the names of its options and choices."""
        return catalogue_of(type(self).__module__.rpartition(".")[0])

    def check_table(self, options: dict[str, object], players: int) -> dict[str, object]:
        """The game's own checks of the options against the table: player counts, a default that depends on
        them.  ``options`` already holds every declared option, checked."""
        return options

    # --- the rules, from the engine -------------------------------------------------------------

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step[S, Event]:
        return self.engine.setup(seats, self.check_options(options, len(seats)), seed)

    def to_act(self, state: S) -> frozenset[int]:
        return self.engine.to_act(state)

    def legal(self, state: S, seat: int) -> Sequence[A]:
        return self.engine.legal(state, seat)

    def apply(self, state: S, seat: int, action: A) -> Step[S, Event]:
        return self.engine.apply(state, seat, action)

    def outcome(self, state: S) -> Outcome | None:
        return self.engine.outcome(state)

    def moment(self, state: S) -> int:
        return self.engine.moment(state)

    # --- what a seat sees -----------------------------------------------------------------------

    def view(self, state: S, seat: int | None) -> V:
        raise NotImplementedError(f"{type(self).__name__} must say what a seat sees")

    def secret_variants(self, state: S, seat: int) -> Iterator[S]:
        """No seat holds a secret."""
        return iter(())

    # --- what each action is, and what Tabula plays ---------------------------------------------

    def meta(self, action: A) -> ActionMeta:
        return ActionMeta()

    def verbs_offered(self, options: Mapping[str, object]) -> frozenset[str] | None:
        """The verbs a game started with these (checked) options offers, as `/help` lists them; None: every
        verb of the spec (a game whose variants add commands names the ones the variant in play has)."""
        return None

    def timeout(self, state: S) -> tuple[int, A] | None:
        """Nothing to play when the game's turn timeout runs out."""
        return None

    def stands_in(self, start: S, now: S, seat: int, played: int) -> bool:
        """Where the game's Tabula level searches, whether Tabula, standing in for ``seat`` whose turn timed out
        at ``start``, chooses the seat's next move at ``now`` after ``played`` moves of its own (see
        ``stands_in`` below).  By default the stand-in is one move, when the seat has a choice."""
        return one_move(self, start, seat, played)

    def policy(self, state: S, seat: int, rng: Rng) -> A | None:
        """A random legal move."""
        legal = self.legal(state, seat)
        return legal[rng.below(len(legal))] if legal else None


def one_move(rules: Any, start: Any, seat: int, played: int) -> bool:
    """The default stand-in: one move of the seat's, chosen at the game's level, when it has more than one."""
    return played == 0 and len(rules.legal(start, seat)) > 1


def stands_in(rules: Any, start: Any, now: Any, seat: int, played: int) -> bool:
    """Whether Tabula, standing in at the game's (searching) Tabula level for ``seat`` whose turn timed out at
    ``start``, chooses and plays the seat's next move at ``now``, after ``played`` of its own.

    The platform plays each such move as its own action, logged (so a replay never searches); it stops at the
    first False.  False at once (``played == 0``) means the game's own ``timeout`` action is played as it is:
    there is nothing to choose (a card read out), or that action is itself chosen at the game's level (one that
    asks Tabula, ``ActionMeta.asks_tabula``).  A game whose stand-in covers several moves (a realm's whole turn)
    answers True for as long as it does.  The hook is optional: a ruleset without it gets ``one_move``."""
    hook = getattr(rules, "stands_in", None)
    if callable(hook):
        return bool(hook(start, now, seat, played))
    return one_move(rules, start, seat, played)
