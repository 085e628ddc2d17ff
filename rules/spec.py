"""The seam between the platform and the games: what a game declares about itself, and what it must do.

A game is a package ``rules/<key>/`` whose ``__init__`` exposes ``RULESET``: an object that satisfies
``Ruleset`` below.  Everything the platform shows or accepts for a game — the ``/game new`` choices and
options, the lobby text, the slash commands and their autocomplete, the terminal runner's flags and help,
the benchmark entry — is built from its ``GameSpec``; every button, menu value, autocomplete entry and typed
command is made by its ``Codec``.  Nothing here imports the platform: specs are plain data.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Literal, Protocol, TypeVar
from urllib.parse import parse_qsl, quote

import msgspec

from rules.core import Event, Outcome, Rng, SeatInfo, Step

S = TypeVar("S")
S_in = TypeVar("S_in", contravariant=True)
A = TypeVar("A")
V = TypeVar("V", covariant=True)

#: Discord's limit for a custom id, a select option's value and a choice's name.
ID_LIMIT = 100

OptionKind = Literal["choice", "flag", "number"]


class OptionSpec(msgspec.Struct, frozen=True):
    """One ``/game new`` option (and one flag of the terminal runner): ``mode``, ``fate``, ``short``…"""

    name: str
    description: str  # ≤ 100 characters, what the option does in this game
    kind: OptionKind = "choice"
    choices: tuple[str, ...] = ()
    default: str | bool | float | None = None
    minimum: float | None = None
    maximum: float | None = None


#: The catalogue context of the words an option takes (``ArgSpec.values``): ``N_p("value", "gold")``.
VALUE = "value"

#: The catalogue context of an option name one command means in its own way (``msgctxt "option:program"``), looked
#: up before the shared ``option``: see ``ArgSpec.own``.
OWN_OPTION = "option:{command}"


def own_option(command: str) -> str:
    """The context an option name of ``command`` is marked with when it means something of its own there."""
    return OWN_OPTION.format(command=command)


class ArgSpec(msgspec.Struct, frozen=True):
    """One option of a verb: ``to`` of ``/explore to:``."""

    name: str
    description: str
    required: bool = False
    #: Offered from the legal actions as the player types (never for free text such as a telling).
    complete: bool = True
    #: A telling or a note: runs to the end of a typed line, ``word:`` and all.
    free_text: bool = False
    max_length: int = 100
    #: The name means something of this verb's own, unlike the same option of another game's verb
    #: (``/program order:``, a command in a row, where ``/defend order:`` is a sequence): the game marks it
    #: ``N_p("option:<verb>", name)`` and its catalogue names it apart in every language; the English name, the one
    #: Discord sends back and stored controls carry, stays the same.
    own: bool = False
    #: The words the option takes, as typed in English (``xp``, ``gold``; a list's or a row's words: ``torso``,
    #: ``red``), each marked ``N_p("value", word)`` so that the game's catalogue gives it a one-word, typeable name
    #: in every language: a hint in help (``reward:xp|gold``) shows the reader's words, and a value typed in any
    #: language the game speaks reaches the codec in English (``rules.values``).
    values: tuple[str, ...] = ()
    #: Or the context the option's named things are translated under in the game's catalogue (``hero``: a hint's
    #: ``hero:Rolf`` reads ``ήρωας:Ρολφ``, and ``Ρολφ`` typed reaches the codec as ``Rolf``).
    value_context: str = ""


VerbKind = Literal["act", "view"]


class VerbSpec(msgspec.Struct, frozen=True):
    """A verb the game answers to.  ``act`` verbs become actions through the codec; ``view`` verbs open one of
    the game's private views (``/sheet``, ``/hand``), answered only to the person who asked.

    An ``act`` verb with ``view`` set opens that view instead when it is used with no option at all
    (``/narrate`` alone shows the Narrator the card; ``/narrate text:`` tells it)."""

    name: str
    description: str  # ≤ 100 characters: what the verb does in this game
    help: str  # one line of the game's command list: "`/explore to:` move to a doorway"
    args: tuple[ArgSpec, ...] = ()
    kind: VerbKind = "act"
    view: str | None = None
    #: Verbs typed in the terminal or pressed as buttons but not worth a slash command of their own.
    slash: bool = True

    def context_of(self, arg: ArgSpec) -> str:
        """The catalogue context ``arg``'s name is translated with: ``option``, or this verb's own."""
        return own_option(self.name) if arg.own else "option"


class BenchSpec(msgspec.Struct, frozen=True):
    """A configuration the benchmark plays: a label and the lobby options."""

    label: str
    options: dict[str, str | bool | float] = msgspec.field(default_factory=dict)
    players: int = 3


class BalanceSpec(msgspec.Struct, frozen=True):
    """A setting the balance command plays (``python -m bot.balance <game>``): a short key to pick it by, a label,
    the lobby options and the number of seats.  A game without any is measured on its ``bench`` settings."""

    key: str
    label: str
    options: dict[str, str | bool | float] = msgspec.field(default_factory=dict)
    players: int = 2


class RulesSection(msgspec.Struct, frozen=True):
    """One section of a game's rules summary, shown by `/rules topic:` (a page each)."""

    topic: str  # short lower-case key players type: "turn", "fights", "winning"
    title: str  # the section's heading
    text: str  # the summary itself, in our own words (≤ ~1,500 characters: one Discord embed page)


class GameSpec(msgspec.Struct, frozen=True):
    key: str
    title: str
    summary: str  # the lobby's description of the game
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()
    verbs: tuple[VerbSpec, ...] = ()
    bench: tuple[BenchSpec, ...] = ()
    #: The settings whose balance is measured (``python -m bot.balance``); empty: the ``bench`` settings.
    balance: tuple[BalanceSpec, ...] = ()
    #: How to win and how a turn goes, in two or three lines, said when a game starts.
    intro: str = ""
    #: The rules summary `/rules` pages through, section by section (the first section is the overview).
    rules: tuple[RulesSection, ...] = ()
    #: The languages the game's catalogue is complete in (its book's language at least; English is the
    #: source).  A test fails when one of them lacks a text; any other language falls back to English per text.
    languages: tuple[str, ...] = ("en",)

    def verb(self, name: str) -> VerbSpec | None:
        return next((v for v in self.verbs if v.name == name), None)

    def option(self, name: str) -> OptionSpec | None:
        return next((o for o in self.options if o.name == name), None)


class ActionMeta(msgspec.Struct, frozen=True):
    """What the platform needs to know about one action.

    ``free``: stales nobody's controls, pings nobody and gives no extra time (a note, a reorder);
    ``secret``: the action's own words must not be shown (the platform never echoes the command publicly);
    ``undoable``: taking it back reveals nothing and rerolls nothing;
    ``asks_tabula``: the player asks Tabula to choose their move ("program my year"): where the game's Tabula
    level searches, the platform plays what the search finds among the moves that do what was asked."""

    free: bool = False
    secret: bool = False
    undoable: bool = True
    asks_tabula: bool = False


class Command(msgspec.Struct, frozen=True):
    """A verb and its options, exactly as a player could type them: the one form every button id, menu value,
    autocomplete entry and typed command is made from."""

    verb: str
    args: tuple[tuple[str, str], ...] = ()

    def get(self, name: str, default: str = "") -> str:
        return next((v for k, v in self.args if k == name), default)

    @property
    def mapping(self) -> dict[str, str]:
        return dict(self.args)

    def encode(self) -> str:
        """``explore?path=latium>campania`` — compact enough for a custom id."""
        if not self.args:
            return self.verb
        return self.verb + "?" + "&".join(f"{k}={quote(v, safe='>,-_.:')}" for k, v in self.args)

    @classmethod
    def decode(cls, text: str) -> Command:
        verb, _, query = text.partition("?")
        return cls(verb=verb, args=tuple(parse_qsl(query, keep_blank_values=True)))

    def typed(self) -> str:
        """As typed in Discord or the terminal: ``/explore path:latium>campania``."""
        return " ".join([f"/{self.verb}", *(f"{k}:{v}" for k, v in self.args)])

    @classmethod
    def of(cls, verb: str, **args: str | int | None) -> Command:
        return cls(verb=verb, args=tuple((k, str(v)) for k, v in args.items() if v is not None and v != ""))


#: The longest number a command may name (a seat, a slot, a city, a card: never more than a few digits).
NUMBER_DIGITS = 9


def number(text: str) -> int | None:
    """The whole number ``text`` names in ASCII digits, spaces around it allowed (``" 08"`` → 8), or None.

    Every codec reads typed numbers through this one helper: ``str.isdigit`` also accepts a superscript ``²`` or
    an Arabic-Indic ``٣``, on which ``int`` then raises, and a number of thousands of digits is never a choice
    a game offers."""
    text = text.strip()
    if not text or len(text) > NUMBER_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


class Codec(Protocol[S_in, A]):
    """One game's words: ``parse`` and its inverse ``encode``, and the one ``label`` every place shows."""

    def parse(self, state: S_in, seat: int, command: Command) -> A:
        """The action a command names, or an IllegalAction saying what the verb needs."""
        ...

    def encode(self, state: S_in, seat: int, action: A) -> Command:
        """The command that names ``action`` (``parse(encode(a)) == a`` for every legal action)."""
        ...

    def label(self, state: S_in, seat: int, command: Command, arg: str | None = None) -> str:
        """How a person reads ``command`` (a button or menu entry), or with ``arg`` one of its values (an
        autocomplete entry): "D7 — beside the Guard Room (explore it)"."""
        ...


class Ruleset(Protocol[S, A, V]):
    """Everything the platform calls on a game.  Pure: no I/O, no clocks, no module-level randomness."""

    @property
    def spec(self) -> GameSpec: ...

    @property
    def state_type(self) -> type[S]: ...

    @property
    def action_type(self) -> object:
        """The tagged union of the game's actions, for decoding the log."""
        ...

    @property
    def codec(self) -> Codec[S, A]: ...

    def check_options(self, options: Mapping[str, object], players: int) -> dict[str, object]:
        """The lobby's options normalised, or an IllegalAction saying what fits."""
        ...

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step[S, Event]: ...

    def to_act(self, state: S) -> frozenset[int]:
        """The seats that may act now (several at once for simultaneous secret choices)."""
        ...

    def legal(self, state: S, seat: int) -> Sequence[A]: ...

    def apply(self, state: S, seat: int, action: A) -> Step[S, Event]:
        """A new state (the input is never changed) and the events, or a GameError."""
        ...

    def view(self, state: S, seat: int | None) -> V:
        """What ``seat`` may see (``None``: everyone); the only way state reaches presenters and renderers."""
        ...

    def outcome(self, state: S) -> Outcome | None: ...

    def moment(self, state: S) -> int:
        """Changes whenever what may be done next changes; controls carry it, so an old one is refused."""
        ...

    def meta(self, action: A) -> ActionMeta: ...

    def timeout(self, state: S) -> tuple[int, A] | None:
        """What Tabula plays when the game's turn timeout runs out now (None: the clock does not run), as the
        game's ``easy`` play.  Where the game's Tabula level searches, the optional ``stands_in`` (see
        ``rules.ruleset.stands_in``: one move by default) says how far the search plays the seat instead."""
        ...

    def policy(self, state: S, seat: int, rng: Rng) -> A | None:
        """A sensible legal move for a seat Tabula plays (None when the seat has nothing to do)."""
        ...

    def secret_variants(self, state: S, seat: int) -> Iterator[S]:
        """States that differ from ``state`` only in what ``seat`` alone may know (its hand, its spell), and
        in what nobody may know (deck order): the conformance suite checks that no other view changes."""
        ...
