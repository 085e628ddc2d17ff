"""Play without Discord: the same service, the same commands, typed in a terminal.

    python -m bot play <game> --players Ann,Bob --seed 7

Type the commands you would type in Discord (`/explore to:D7`, `/narrate text:...`, `/game status`,
`/sheet`); the story is printed and every picture is written to a folder.  Whoever must act acts: the
runner plays every seat at the table, so pass the keyboard around.  The flags, the help and what each verb
means come from the games' specs, as on Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import os
import re
import sys
import zlib
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

from sqlmodel import select

from bot.delivery.tellings import told
from bot.longplay.clock import CLOCK_OPTION
from bot.longplay.service import LongGameService
from bot.ops import allocator
from bot.present import presenter
from bot.present.base import Button, Picture, Telling
from bot.service.gamelog import effective
from bot.service.guide import help_text, rules_page
from bot.service.lobby import TABULA_NAME
from bot.service.moment import GameMoment
from bot.service.play import GameService, Person
from bot.service.records import Records, export_bytes, frame, history_page, leaderboard_text, stats_text
from bot.service.thinking import level_line
from bot.service.verbs import TABLE_VERBS, new_game_options, not_here, nothing_to_show, options_of, verb_spec
from bot.store.db import Database, open_database
from bot.store.models import Seat
from render.cache import default_directory, kept_in
from rules import GameError
from rules.core import Rng, seed_state
from rules.i18n import LANGUAGES, N_, NATIVE, _, _p, command_typed, english_name, set_language, using
from rules.registry import AnyRuleset, game_text, games, ruleset
from rules.spec import Command, GameSpec

#: The terminal's own commands, listed under every game's in `/help`.
TABLE_LINES = (
    N_("`/rules topic:` the rules summary, a section at a time (`/rules` alone: the first)"),
    N_("`/help` this list"),
    N_("`/game status` the board, whose turn it is, the scores · `/game list` the games in this file"),
    N_("`/game undo` take back the last move · `/game history from:` the moves so far · `/game replay move:` the "
       "board after any move · `/game export` the log to a file · `/game leave` Tabula takes the acting seat · "
       "`/game abandon` end the game"),
    N_("`/stats player:` a player's finished games in this file · `/leaderboard game:` this file's best players"),
    N_("`/quit` stop; the game is kept, and `--resume` carries on with it later"),
    N_("a private view (`/sheet`, `/hand`…) shows the acting player's unless you name a player: `/sheet Bob`"),
)
#: The terminal's own commands (besides each game's verbs and `/roll`), for tab completion and "did you mean".
TERMINAL_ONLY = ("help", "rules", "quit", "game status", "game list", "game undo", "game history", "game replay",
                 "game export", "game leave", "game abandon", "stats", "leaderboard")
#: The options of the terminal's own commands (typed in the game's language or in English).
OWN_OPTIONS = {"game history": ("from", "game"), "game replay": ("move", "game"), "game export": ("game",),
               "stats": ("player", "game"), "leaderboard": ("game", "min_games"), "rules": ("topic",)}
_CLOCK = N_("`/{command}` works the turn clock, and the terminal's games have none: everyone plays at one keyboard, "
            "so nobody is waited for.")
#: Discord's commands that mean nothing at one keyboard, and why (`/help` on Discord lists them).
NOT_OFFLINE = {
    "game new": N_("A new game starts from the shell: `python -m bot play <game> --players …` (with `--tabula N` "
                   "for seats Tabula plays)."),
    "game nudge": _CLOCK, "game vacation": _CLOCK, "game pause": _CLOCK, "game resume": _CLOCK,
    "game defaults": N_("`/game defaults` sets a Discord server's turn clock and policy; the terminal's games have "
                        "no server and no clock."),
    "game replace": N_("The players are named when the game starts (`--players`); here `/game leave` hands the "
                       "acting seat to Tabula."),
    "game watch": N_("Spectators follow a game's thread on Discord; here everyone at the screen already sees the "
                     "table."),
    "game unwatch": N_("Spectators follow a game's thread on Discord; here everyone at the screen already sees the "
                       "table."),
    "notify": N_("`/notify` turns reminders by direct message on or off on Discord; the terminal sends no messages: "
                 "the prompt is on the screen."),
}
#: Wide enough that a long game's pictures still sort by name.
PICTURE_DIGITS = 5
#: `--auto` without `--moves`: a demo of this many moves, then the game is kept to carry on.
AUTO_MOVES = 300


def add_arguments(p: argparse.ArgumentParser) -> None:
    keys = sorted(games())
    p.add_argument("game", choices=keys, help="which game: " + ", ".join(keys))
    p.add_argument("--players", help="comma-separated names in seating order, e.g. Ann,Bob")
    p.add_argument("--tabula", type=int, default=0, metavar="N", help="seat N players that Tabula plays itself")
    p.add_argument("--seed", type=int, default=None, help="fix the dice and shuffles (same seed, same game)")
    defaults = {o.name: o.default for r in games().values() for o in r.spec.options if o.kind == "flag"}
    for o in new_game_options().values():
        flag = f"--{o.name.replace('_', '-')}"
        if o.kind == "flag":  # a real on/off: --raids and --no-raids, whichever the game's default is
            on = f"on unless --no-{flag[2:]}" if defaults.get(o.name) else "off unless given"
            p.add_argument(flag, dest=o.name, action=argparse.BooleanOptionalAction, default=None,
                           help=f"{o.description} ({on})")
        elif o.kind == "number":
            p.add_argument(flag, dest=o.name, type=float, default=None, help=o.description)
        else:
            p.add_argument(flag, dest=o.name, choices=o.choices or None, default=None, help=o.description)
    p.add_argument("--images", default="tabula-images", help="folder for the pictures (default: %(default)s)")
    p.add_argument("--db", default=None, help="SQLite file for the games (default: offline.db in the images folder)")
    p.add_argument("--resume", nargs="?", type=int, const=0, default=None, metavar="N",
                   help="carry on with game #N in the file (no number: the newest unfinished game)")
    p.add_argument("--auto", action="store_true",
                   help=f"a quick demo: Tabula plays every seat with its own policy ({AUTO_MOVES} moves, or --moves)")
    p.add_argument("--moves", type=int, default=None, metavar="N", help="with --auto: stop after N moves")
    p.add_argument("--alt-text", action="store_true", help="print each picture's description (for screen readers)")
    p.add_argument("--web", nargs="?", type=int, const=0, default=None, metavar="PORT",
                   help="serve the game's live web page on 127.0.0.1:PORT (no number: any free port) and print "
                        "its address")
    p.add_argument("--language", choices=LANGUAGES, default=None,
                   help="the game's language: " + ", ".join(f"{k} ({NATIVE[k]})" for k in LANGUAGES)
                   + " (default: English, or the language a resumed game was started in)")


def free_text_args() -> tuple[str, ...]:
    """Options that hold a telling or a note in any game: each runs to the end of a typed line."""
    return tuple(sorted({a.name for rules in games().values() for v in rules.spec.verbs for a in v.args
                         if a.free_text}))


def parse_command(line: str, free_text: tuple[str, ...] | None = None,
                  verbs: Mapping[str, tuple[str, ...]] | None = None) -> tuple[str, dict[str, str]]:
    """`/explore to:D7` → ("explore", {"to": "D7"}); `/game status` → ("game status", {}).

    Commands and options may be typed as the current language names them (`/felfedezés hova:D7`, the way
    the game's texts and Discord show them) or in English; they come back in English (``verbs``: the game's
    own with their options, which win when two games' names share a translation).  A free-text option
    (a telling, a note) runs to the end of the line, "word:" and all."""
    line = line.strip()
    if line.startswith("/"):
        line = line[1:]
    head, _sep, rest = line.partition(" ")
    verbs = verbs or {}
    verb = english_name(head.lower(), "command", among=verbs)
    if verb == "game":
        sub, _sep, rest = rest.strip().partition(" ")
        verb = f"game {english_name(sub.lower(), 'command')}"
    args: dict[str, str] = {}
    rest = rest.strip()
    if free_text is None:
        free_text = free_text_args()
    options = verbs.get(verb, ())
    named = re.match(r"([^\W\dA-Z][\w-]*):(.*)$", rest, re.DOTALL)
    if named and english_name(named.group(1), "option", among=options) in free_text:
        args[english_name(named.group(1), "option", among=options)] = named.group(2).strip()
    elif named:  # `/hero hero:labienus side:1 weapon:pilum`
        for part in re.split(r"\s+(?=[^\W\dA-Z][\w-]*:)", rest):
            key, _sep, value = part.partition(":")
            args[english_name(key.strip(), "option", among=options)] = value.strip()
    elif rest:
        args["_"] = rest
    return verb, args


def plain(text: str) -> str:
    """Discord markdown read in a terminal: bold and italics unmarked, quotes indented, and Discord's own
    advice (open a lobby) said the terminal's way."""
    text = text.replace("**", "").replace("__", "")
    new = f"`/{_p('command', 'game')} {_p('command', 'new')}`"  # Discord's `/game new`, as the language names it
    text = text.replace(new, "`python -m bot play <game> --players …`")
    text = re.sub(r"(?<![\w*])\*(\S[^*\n]*?)\*(?![\w*])", r"\1", text)
    return re.sub(r"^> ", "   ", text, flags=re.MULTILINE)


def typed(encoded: str) -> str:
    """An encoded command (a button's or menu's value) as typed: ``/explore path:latium>campania``."""
    return Command.decode(encoded).typed()


def last_picture(folder: Path) -> int:
    """The number of the newest picture already in ``folder`` (a resumed game numbers on from it)."""
    numbers = [int(m.group(1)) for p in folder.glob("*.png") if (m := re.match(r"(\d+)-", p.name))]
    return max(numbers, default=0)


def local_id(name: str, taken: set[int] | None = None) -> int:
    """A person's id in the terminal's file: the same name is the same person in every game there (so `/stats Ann`
    counts all of Ann's games), and never one of ``taken``."""
    found = zlib.crc32(name.strip().casefold().encode()) % 2_000_000_000 + 1
    while taken and found in taken:
        found += 1
    return found


Own = Callable[[GameMoment[Any], int, dict[str, str]], Awaitable[None]]


class Terminal:
    def __init__(self, service: GameService, game_id: int, people: list[Person], images: Path,
                 out: TextIO = sys.stdout, *, alt_text: bool = False, pictures: bool = True,
                 db: Database | None = None) -> None:
        self.service, self.game_id, self.people, self.images, self.out = service, game_id, people, images, out
        self.count = last_picture(images)
        self.alt_text = alt_text
        #: Whether to write pictures now (a demo writes only some); ``written`` counts them.
        self.pictures = pictures
        self.written = 0
        self.completions: list[str] = []
        #: The game's spec, once known: a button that opens a private view is typed as the verb that opens it.
        self.spec: GameSpec | None = None
        self.db = db or service.db
        self.records = Records(self.db.sessions)
        self.own: dict[str, Own] = {
            "game status": self._status, "game list": self._list, "rules": self._rules, "game undo": self._undo,
            "game history": self._history, "game replay": self._replay, "game export": self._export,
            "game leave": self._leave, "game abandon": self._abandon, "stats": self._stats,
            "leaderboard": self._leaderboard}

    def say(self, text: str = "", *, raw: bool = False) -> None:
        print(text if raw else plain(text), file=self.out, flush=True)

    def save(self, pictures: list[Picture]) -> None:
        if not self.pictures:
            return
        for pic in pictures:
            self.count += 1
            self.written += 1
            path = self.images / f"{self.count:0{PICTURE_DIGITS}d}-{pic.filename}"
            path.write_bytes(pic.png)
            self.say(_("  [picture: {path} — {alt}]", path=path, alt=pic.alt) if self.alt_text
                     else _("  [picture: {path}]", path=path))

    def show(self, telling: Telling) -> None:
        self.say(telling.text)
        self.save(telling.pictures)
        prompt = telling.prompt
        if prompt is None:
            return
        if prompt.users and not any(u > 0 for u in prompt.users):
            return  # only Tabula's seats are asked: it moves by itself, and its choices are nobody's to type
        names = _p("list", ", ").join(self._name(u) for u in prompt.users if u > 0)
        if names and prompt.text:
            asked = _("{who}, {prompt}", who=names, prompt=prompt.text)
            self.say(f"➡️  {asked}")
        for menu in prompt.menus:
            for label, command in menu.choices:
                self.say(f"     {label}  → {command_typed(command.typed())}")
        for b in prompt.buttons:
            alone = _(" (only that player should look)") if b.view else ""
            self.say(f"     [{b.label}] → {command_typed(self.button_typed(b))}{alone}")

    def button_typed(self, button: Button) -> str:
        """What to type for a button: its command, or the verb that opens its private view (`/narrate` opens
        the Narrator's card, `/hand` a hand)."""
        if button.command is not None or not button.view or self.spec is None:
            return button.typed
        verbs = [v for v in self.spec.verbs if v.view == button.view]
        verb = next((v for v in verbs if v.kind == "view"), verbs[0] if verbs else None)
        return f"/{verb.name}" if verb is not None else button.typed

    def _name(self, user_id: int) -> str:
        return next((p.name for p in self.people if p.id == user_id), TABULA_NAME)

    async def acting(self) -> tuple[GameMoment[Any], int]:
        """The game now, and the seat that must act (the runner plays every seat)."""
        moment = await self.service.get(self.game_id)
        seats = sorted(moment.to_act)
        return moment, (seats[0] if seats else 0)

    async def handle(self, line: str) -> bool:
        """Run one command; False to stop."""
        moment, _seat = await self.acting()
        free = tuple(a.name for v in moment.spec.verbs for a in v.args if a.free_text)
        verbs = {v.name: tuple(a.name for a in v.args) for v in (*moment.spec.verbs, *TABLE_VERBS)}
        verb, args = parse_command(line, free, {**OWN_OPTIONS, **verbs})
        if verb in ("quit", "exit", "q"):
            return False
        if verb == "":
            self.say(_("Type a command — the ones under the prompt above, `/help` for the list, `/quit` to stop."))
            return True
        if verb in ("help", "?"):
            self.say(help_text(moment.rules, options=moment.options, table=TABLE_LINES))
            return True
        try:
            await self._dispatch(verb, args)
        except GameError as err:
            self.say(f"✋ {err}")
        return True

    def did_you_mean(self, moment: GameMoment[Any], verb: str) -> str:
        names = [v.name for v in (*moment.spec.verbs, *TABLE_VERBS)]
        known = names + [command_typed(f"/{name}")[1:] for name in names] + list(TERMINAL_ONLY)
        close = difflib.get_close_matches(verb, known, n=1, cutoff=0.6)
        if close and not verb_spec(moment.rules, verb):
            return _("There is no `/{verb}` in {game} — did you mean `/{close}`? `/help` lists them all.", verb=verb,
                     game=game_text(moment.spec.key, moment.spec.title), close=close[0])
        return not_here(moment.rules, verb)

    def complete_with(self, moment: GameMoment[Any], seat: int) -> None:
        """What tab completes at the next prompt: the commands, and every legal move typed out in full."""
        verbs = [f"/{name} " for v in (*moment.spec.verbs, *TABLE_VERBS)
                 for name in {v.name, command_typed(f"/{v.name}")[1:]}]
        verbs += [f"/{v} " for v in TERMINAL_ONLY]
        moves = [command_typed(c.command.typed()) for c in moment.choices(seat)] if moment.status == "active" else []
        self.completions = sorted(set(verbs + moves))

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the candidates that begin with the whole line typed so far."""
        import readline

        line = readline.get_line_buffer()
        start = readline.get_begidx()
        found = [c[start:] for c in self.completions if c.startswith(line)]
        return found[state] if state < len(found) else None

    def _seat_named(self, moment: GameMoment[Any], name: str) -> int | None:
        wanted = name.strip().lower()
        return next((s.seat for s in moment.seats if s.name.lower() == wanted), None)

    async def _dispatch(self, verb: str, args: dict[str, str]) -> None:
        moment, seat = await self.acting()
        own = self.own.get(verb)
        if own is not None:
            await own(moment, seat, args)
            return
        if verb in NOT_OFFLINE:
            raise GameError(_(NOT_OFFLINE[verb], command=verb))
        if verb.startswith("game "):
            listed = _p("list", ", ").join(f"`/{c}`" for c in TERMINAL_ONLY if c.startswith("game "))
            raise GameError(_("There is no `/{command}`. The terminal's `/game` commands are {listed}.",
                              command=verb, listed=listed))
        spec = verb_spec(moment.rules, verb)
        if spec is None:
            raise GameError(self.did_you_mean(moment, verb))
        if spec.kind == "view" or (spec.view and not args):
            await self._private(moment, seat, spec.view, args.pop("_", ""))
            return
        if "_" in args and spec.args:
            args[spec.args[0].name] = args.pop("_")
        if not args and spec.args and spec.args[0].required:
            values = [label for label, _ in await self.service.choices(self.game_id, moment.user_of(seat), verb,
                                                                       spec.args[0].name)]
            named = command_typed(f"/{verb} {spec.args[0].name}:").split(" ")  # as the language names them
            self.say(_("Choices for /{verb} {option}: {values}", verb=named[0][1:], option=named[-1][:-1],
                       values=_p("list", "; ").join(values) or _("none right now")))
            return
        result = await self.service.act(self.game_id, moment.user_of(seat), verb=verb, args=args)
        self.show_moment(result)

    async def _private(self, moment: GameMoment[Any], seat: int, view: str | None, name: str) -> None:
        """A private view (`/sheet`, `/hand`): the acting player's, or the named player's."""
        if name:
            found = self._seat_named(moment, name)
            if found is None:
                players = _p("list", ", ").join(s.name for s in moment.seats)
                raise GameError(_("There is no player called {name}. The players are {players}.", name=name,
                                  players=players))
            seat = found
        assert view is not None
        look = await self.service.get(self.game_id, moment.user_of(seat))
        telling = presenter(moment.spec.key).private(view, look, seat)
        if telling is None:
            raise GameError(nothing_to_show(look, view))
        self.say(_("(only {name} should look)", name=moment.name_of(seat)))
        self.show(telling)

    def show_moment(self, result: GameMoment[Any]) -> None:
        # Each picture is drawn as ``save`` writes it: a demo, which writes the board only every tenth move,
        # draws no picture it does not write.
        for m in (result, *result.followups):
            self.show(told(m))

    # --- the terminal's own commands: the same services as Discord's `/game` subcommands and records ------------

    async def _status(self, moment: GameMoment[Any], seat: int, args: dict[str, str]) -> None:
        self.show(presenter(moment.spec.key).status(moment))
        level = level_line(moment)
        if level:
            self.say(level.replace("**", ""))

    async def _list(self, moment: GameMoment[Any], seat: int, args: dict[str, str]) -> None:
        self.say(await list_local(self.service))

    async def _rules(self, moment: GameMoment[Any], seat: int, args: dict[str, str]) -> None:
        topic = args.get("topic") or args.get("_") or None
        self.say(rules_page(moment.rules, topic).text())

    def _long(self) -> LongGameService:
        assert isinstance(self.service, LongGameService), "the terminal plays on the long-game service"
        return self.service

    async def _undo(self, moment: GameMoment[Any], seat: int, args: dict[str, str]) -> None:
        """Take back the last move: whoever made it is at the keyboard (the service says when it must stand)."""
        standing = effective(await self.service.history(self.game_id))
        last = standing[-1].user_id if standing and standing[-1].user_id > 0 else moment.user_of(seat)
        done = await self._long().undo(self.game_id, last)
        self.show(told(done.moment))  # as the thread tells it: a secret move is not named

    async def _leave(self, moment: GameMoment[Any], seat: int, args: dict[str, str]) -> None:
        long = self._long()
        name = (await long.leave_game(self.game_id, moment.user_of(seat)))[1]
        self.say(_("{name} left the game; Tabula plays their seat from now on.", name=name))
        for m in await long.play_tabula(self.game_id):  # as on Discord, Tabula then plays what is due at once
            self.show(told(m))

    async def _abandon(self, moment: GameMoment[Any], seat: int, args: dict[str, str]) -> None:
        info = await self.service.abandon(self.game_id, 0, can_manage=True)
        self.say(_("**{game} · #{number}** was abandoned by {who}. Nothing more can be played in it.",
                   game=game_text(info.ruleset, ruleset(info.ruleset).spec.title), number=self.game_id,
                   who=moment.name_of(seat)))

    def _game_of(self, args: dict[str, str]) -> int:
        given = args.get("game") or ""
        if not given:
            return self.game_id
        if not given.lstrip("#").isdigit():
            raise GameError(_("Name a game by its number, as `/game list` shows it: `game:2`."))
        return int(given.lstrip("#"))

    async def _history(self, moment: GameMoment[Any], seat: int, args: dict[str, str]) -> None:
        game_id = self._game_of(args)
        found = await self.records.game(game_id, None)
        lines = await self.records.lines(found)
        start = _number(args.get("from") or args.get("_"), "from")
        page = history_page(found, lines, None if start is None else start - 1)
        self.say(page.text)
        if page.previous is not None or page.next is not None:
            pages = [f"`/game history from:{n + 1}`" for n in (page.previous, page.next) if n is not None]
            self.say(_("More: {commands}", commands=_p("list", ", ").join(command_typed(p) for p in pages)))

    async def _replay(self, moment: GameMoment[Any], seat: int, args: dict[str, str]) -> None:
        game_id = self._game_of(args)
        found = await self.records.game(game_id, None)
        lines = await self.records.lines(found)
        shown = await asyncio.to_thread(frame, found, lines, _number(args.get("move") or args.get("_"), "move"))
        self.say(shown.text)
        self.save(shown.pictures)
        if shown.first != shown.last:
            steps = sorted({shown.first, shown.previous, shown.next, shown.last} - {shown.number})
            self.say(_("Step: {commands}", commands=_p("list", ", ").join(
                command_typed(f"`/game replay move:{n}`") for n in steps)))

    async def _export(self, moment: GameMoment[Any], seat: int, args: dict[str, str]) -> None:
        game_id = self._game_of(args)
        found = await self.records.game(game_id, None)
        data = await asyncio.to_thread(export_bytes, found, now=self.service.clock())
        path = self.images / f"tabula-game-{game_id}.json"
        path.write_bytes(data)
        self.say(_("The whole log of {game} ({entries} entries after the start) is in {file}. Anyone can check it "
                   "with the engine: `python -m bot verify {file}`.", game=found.title,
                   entries=len(found.timeline.entries), file=path))
        if not found.ended:
            self.say(_("The game is still running, so the seed, secret moves and the moves' events are left out; "
                       "export it again once it ends to check every move and roll."))

    async def _stats(self, moment: GameMoment[Any], seat: int, args: dict[str, str]) -> None:
        """A player's finished games in this file (by default the acting player's): people are known by name."""
        name = (args.get("player") or args.get("_") or moment.name_of(seat)).strip()
        key = _game_key(args.get("game"))
        self.say(stats_text(await self.records.stats(None, local_id(name), key), name))

    async def _leaderboard(self, moment: GameMoment[Any], seat: int, args: dict[str, str]) -> None:
        key = _game_key(args.get("game") or args.get("_")) or moment.spec.key
        least = _number(args.get("min_games"), "min_games") or 3
        text = leaderboard_text(game_text(key, ruleset(key).spec.title),
                                await self.records.leaderboard(None, key, least), least)
        names = await _names(self.db)
        self.say(re.sub(r"<@(\d+)>", lambda m: names.get(int(m.group(1)), m.group(0)), text))


def _number(given: str | None, option: str) -> int | None:
    if not given:
        return None
    if not given.strip().lstrip("#").isdigit():
        raise GameError(_("`{option}:` takes a number, such as `{option}:1`.", option=option))
    return int(given.strip().lstrip("#"))


def _game_key(given: str | None) -> str | None:
    """A game named by its key or by its title in any of its languages."""
    if not given:
        return None
    wanted = given.strip().casefold()
    for key, rules in games().items():
        if wanted in (key, rules.spec.title.casefold(), game_text(key, rules.spec.title).casefold()):
            return key
    listed = _p("list", ", ").join(f"`{k}`" for k in games())
    raise GameError(_("There is no game called {name}. The games are {games}.", name=given, games=listed))


async def _names(db: Database) -> dict[int, str]:
    """Everyone's name in this file, by their id (the leaderboard names people; the terminal pings nobody)."""
    async with db.sessions() as session:
        return {int(u): n for u, n in (await session.exec(select(Seat.user_id, Seat.name))).all()}


async def list_local(svc: GameService) -> str:
    """`/game list` in the terminal: the games kept in this file, newest first."""
    listed = await svc.list_games(None, limit=50)
    if not listed:
        return _("No unfinished games in this file.")
    rows = [f"#{g.game_id} {game_text(g.ruleset, ruleset(g.ruleset).spec.title)} — {_p('status', g.status)} — "
            f"{', '.join(g.players)}" for g in listed]
    return _("Unfinished games in this file (carry on with `--resume N`):") + "\n" + "\n".join(rows)


async def _new_game(svc: GameService, args: argparse.Namespace) -> tuple[int, list[Person], GameMoment[Any]] | str:
    names = [n.strip() for n in (args.players or "").split(",") if n.strip()]
    if not names:
        return _("Name at least one player: --players Ann,Bob (or --resume an unfinished game).")
    if len({n.lower() for n in names}) != len(names):
        return _("Give each player a different name.")
    people: list[Person] = []
    for name in names:
        people.append(Person(local_id(name, {p.id for p in people}), name))
    rules = ruleset(args.game)
    own = set(options_of(args.game))
    options: dict[str, Any] = {k: getattr(args, k) for k in own if getattr(args, k, None) is not None}
    options[CLOCK_OPTION] = "none"  # the terminal's players sit at one keyboard: no turn clock
    stray = sorted(o.name for o in new_game_options().values()
                   if o.name not in own and getattr(args, o.name, None) not in (None, False))
    if stray:
        return _("{game} has no option {given}; its options are {allowed}.",
                 game=game_text(args.game, rules.spec.title), given=_p("list", ", ").join("--" + s for s in stray),
                 allowed=_p("list", ", ").join("--" + o for o in sorted(own)) or _("none"))
    # Everything a start could refuse is checked before a game is made, so a refusal leaves no lobby behind
    # and uses up no game number.
    refused = _seats_refused(rules, options, len(people), max(args.tabula, 0))
    if refused:
        return refused
    try:
        info = await svc.create(args.game, people[0], options=options, seed=args.seed,
                                language=getattr(args, "language", None))
        for person in people[1:]:
            await svc.join(info.game_id, person)
        for _extra in range(args.tabula):
            await svc.add_tabula(info.game_id, people[0].id)
        result = await svc.start(info.game_id, people[0].id)
    except GameError as err:
        return str(err)
    return info.game_id, people, result


def _seats_refused(rules: AnyRuleset, options: dict[str, Any], named: int, tabula: int) -> str | None:
    """Why the table cannot start with ``named`` people and ``tabula`` seats for Tabula, said the terminal's way:
    when Tabula in more seats would make it fit, the refusal names the flag (`--tabula 1`)."""
    spec = rules.spec
    seated = named + tabula

    def fits(n: int) -> bool:
        try:
            rules.check_options(options, n)
        except GameError:
            return False
        return spec.min_players <= n <= spec.max_players

    more = next((k for k in range(1, spec.max_players - seated + 1) if fits(seated + k)), None)
    hint = " " + _("Add `--tabula {n}` and Tabula plays the missing seats.", n=tabula + more) if more else ""
    if not spec.min_players <= seated <= spec.max_players:
        span = (f"{spec.min_players}" if spec.min_players == spec.max_players
                else f"{spec.min_players}–{spec.max_players}")
        title = game_text(spec.key, spec.title)
        if tabula:
            return _("{game} is for {span} players; you named {named} and seated {tabula} for Tabula.",
                     game=title, span=span, named=named, tabula=tabula) + hint
        return _("{game} is for {span} players; you named {named}.", game=title, span=span, named=named) + hint
    try:
        rules.check_options(options, seated)
    except GameError as err:
        return str(err) + hint
    return None


async def _resume(svc: GameService, args: argparse.Namespace, db_file: Path
                  ) -> tuple[int, list[Person], GameMoment[Any]] | str:
    listed = [g for g in await svc.list_games(None, limit=1000) if g.status == "active"]
    if args.resume:
        picked = [g for g in listed if g.game_id == args.resume]
        if not picked:
            games_here = _p("list", ", ").join(f"#{g.game_id} ({game_text(g.ruleset, ruleset(g.ruleset).spec.title)})"
                                   for g in listed) or _("none")
            return _("There is no unfinished game #{number} in {file}. Unfinished games there: {games}.",
                     number=args.resume, file=db_file, games=games_here)
    else:
        picked = [g for g in listed if g.ruleset == args.game]
    if not picked:
        return _("There is no unfinished {game} game in {file} to resume.", game=args.game, file=db_file)
    info = await svc.lobby(picked[0].game_id)
    people = [Person(s.user_id, s.name) for s in info.seats if not s.auto]
    return info.game_id, people, await svc.get(info.game_id)


async def play(args: argparse.Namespace, *, lines: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    """Play in the terminal, in the game's language (``--language``, or the one a resumed game has)."""
    with using(getattr(args, "language", None)):
        return await _play(args, lines=lines, out=out)


async def _play(args: argparse.Namespace, *, lines: list[str] | None, out: TextIO) -> int:
    allocator.tune()  # as the bot does: freed pictures go back to the system (bot/ops/allocator.py)
    images = Path(args.images)
    images.mkdir(parents=True, exist_ok=True)
    db_file = Path(args.db) if args.db else images / "offline.db"
    url = f"sqlite+aiosqlite:///{db_file}"

    # Pictures and the maps' static layers are kept as the bot keeps them (PICTURE_CACHE_DIR, else beside the
    # database): a second run draws no layer again, and none is drawn twice in one.
    with kept_in(Path(os.environ.get("PICTURE_CACHE_DIR") or default_directory(url))):
        return await _play_in(args, images, db_file, url, lines=lines, out=out)


async def _play_in(args: argparse.Namespace, images: Path, db_file: Path, url: str, *, lines: list[str] | None,
                   out: TextIO) -> int:
    db = await open_database(url)
    web: Any = None
    try:
        svc = LongGameService(db)  # the long-game service: undo, leaving a seat (its clocks stay off here)
        resuming = args.resume is not None
        opened = await (_resume(svc, args, db_file) if resuming else _new_game(svc, args))
        if isinstance(opened, str):
            print(f"✋ {opened}", file=sys.stderr)
            return 2
        term = await _opened(svc, args, opened, images, out, resuming=resuming)
        if getattr(args, "web", None) is not None:  # the game's web page, served while the game is played here
            from bot.web.server import WebServer

            web = WebServer(db, base_url="http://127.0.0.1")
            web.base_url = f"http://127.0.0.1:{await web.start('127.0.0.1', args.web)}"
            term.say(_("🗺️ The board, live in your browser: {url}", url=await web.public_url(term.game_id)))
        played = await _loop(svc, term, args, lines)
        final = await svc.get(term.game_id)
        if args.auto:  # a demo ends with the board as it stands (its last move may have drawn none)
            term.pictures = True
            term.save(presenter(final.spec.key).status(final).pictures)
            term.say("\n" + _("{played} moves played; {written} pictures written.", played=played,
                                written=term.written))
        if final.status != "active":
            term.say("\n" + _("The game is over. Pictures are in {folder}/.", folder=term.images))
        else:
            again = f"python -m bot play {final.spec.key} --resume {term.game_id}" + (
                f" --db {db_file}" if args.db else "")
            if args.images != "tabula-images":
                again += f" --images {args.images}"
            term.say("\n" + _("Stopped. The game is kept in {file}; carry on with: {again}", file=db_file, again=again))
        return 0
    finally:
        if web is not None:
            await web.close()
        await db.close()


async def _opened(svc: GameService, args: argparse.Namespace, opened: tuple[int, list[Person], GameMoment[Any]],
                  images: Path, out: TextIO, *, resuming: bool) -> Terminal:
    """The terminal for a game just started or resumed, after it has said where it is."""
    game_id, people, result = opened
    folder = images / f"game-{game_id}"
    folder.mkdir(exist_ok=True)
    term = Terminal(svc, game_id, people, folder, out, alt_text=args.alt_text)
    term.spec = result.spec
    info = await svc.lobby(game_id)
    set_language(getattr(args, "language", None) or info.language)  # inside play()'s own `using`
    key = result.spec.key
    term.say(_("Tabula — {game} · #{number} (seed {seed}). Pictures go to {folder}/. Type /help for commands.",
               game=game_text(key, result.spec.title), number=game_id, seed=info.seed, folder=folder) + "\n")
    if resuming:
        term.show(presenter(key).status(result))
    else:
        if result.spec.intro:
            term.say(game_text(key, result.spec.intro))
        term.show_moment(result)
    return term


async def _loop(svc: GameService, term: Terminal, args: argparse.Namespace, lines: list[str] | None) -> int:
    """Read and run commands until the game ends, the input ends or `/quit`; the number of lines read."""
    info = await svc.lobby(term.game_id)
    rng = Rng(seed_state(info.seed))
    feed = iter(lines) if lines is not None else None
    played = 0
    limit = (args.moves if args.moves is not None else AUTO_MOVES) if args.auto else None
    if feed is None and not args.auto and sys.stdin.isatty():
        _readline(term)
    while (now := await svc.get(term.game_id)).status == "active":
        if limit is not None and played >= limit:
            break
        played += 1
        if args.auto:
            # A demo writes the board every tenth move and at the end, not every picture of every move.
            term.pictures = played % 10 == 0 or played == limit
            line: str | None = await _policy_command(svc, term.game_id, rng)
        elif getattr(args, "web", None) is not None and feed is None:
            line = await asyncio.to_thread(_next_line, term, now, feed)  # the web page is served meanwhile
        else:
            line = _next_line(term, now, feed)
        if line is None:
            break
        if feed is not None or args.auto:
            term.say(f"\n> {line}", raw=True)
        if not await term.handle(line):
            break
    return played


def _next_line(term: Terminal, now: GameMoment[Any], feed: Any) -> str | None:
    """The next line typed (None: the input ended, or Ctrl-D / Ctrl-C at the prompt, which keep the game)."""
    if feed is not None:
        return next(feed, None)
    seats = sorted(now.to_act)
    term.complete_with(now, seats[0] if seats else 0)
    try:  # the terminal is this runner's only client, so waiting here blocks nobody
        return input("\n> ")
    except (EOFError, KeyboardInterrupt):
        print(file=term.out)
        return None


def _readline(term: Terminal) -> None:
    """Line editing, history and tab completion at the prompt, where the standard library has readline."""
    try:
        import readline
    except ImportError:  # Windows without pyreadline: plain input() still works
        return
    readline.set_completer_delims(" ")
    readline.set_completer(term.complete)
    readline.parse_and_bind("tab: complete")


async def _policy_command(svc: GameService, game_id: int, rng: Rng) -> str:
    """Tabula's own choice for whoever must act, typed as a player would type it."""
    moment = await svc.get(game_id)
    seat = sorted(moment.to_act)[0]
    rules = moment.rules
    action = rules.policy(moment.state, seat, rng)
    if action is None:
        legal = list(rules.legal(moment.state, seat))
        action = legal[rng.below(len(legal))]
    return command_typed(rules.codec.encode(moment.state, seat, action).typed())
