"""Play without Discord: the same service, the same commands, typed in a terminal.

    python -m bot play legend --players Ann,Bob --seed 7

Type the commands you would type in Discord (`/explore to:D7`, `/narrate text:...`, `/game status`,
`/sheet`); the story is printed and every picture is written to a folder.  Whoever must act acts: the
runner plays every seat at the table, so pass the keyboard around.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path
from typing import Any, TextIO

from bot.db import open_database
from bot.play import GameService, Person, Result
from bot.present import Picture, Telling, presenter, typed
from rules import RULESETS, GameError

HELP = """Commands (the same as in Discord; a button is typed as its verb):
  /game status          the board, whose turn it is, the scores
  /sheet [name]         a player's sheet (the current player's if no name)
  /roll expr:2d20+3     roll dice for everyone
  /hand                 the acting player's private choices (a hand of combat cards, a first hero choice)
  /help                 this list
  /quit                 stop; the game is kept, and --resume carries on with it later
Champion of the Empire (the menus and buttons under each prompt show the exact commands):
  /hand                 the acting player's private choices: a hero to pick, a hand of combat cards
  /explore path:latium>campania · /caravan to:campania · /voyage to:alexandria
  /commission reward:xp · /recuperate · /lore · /develop attribute:life · /use item:herb-salve · /attack
  /choose option:1 · /buy item:gladius · /pass · /drop item:javelins
  in a fight: /weapon item: · /ranged item: target:1 · /play card:torso target:1 · /defend card:head ·
  /keep cards:head,leg (whoever plays the opponents adds foe:1)
Legend of Heroes:
  /explore to:D7        move (or enter the dungeon) — `/explore` alone lists the choices
  /narrate              the Narrator looks at the card in hand (players narration)
  /narrate text:...     the Narrator tells the card in their own words (empty text: Tabula reads it)
  /narrate note:...     the Narrator pins a scene note to the room
  Expanded Game: /party, /attack, /cast, /retreat, /keep, /lead hero:Rolf, /study, /heal,
                 /front hero:Rolf and /back hero:Rolf (reorder the party)"""

#: A verb's main option, for a value typed without its name (`/explore D7`).  A value runs to the end of the
#: line (a telling may itself contain "word:").
OPTIONS = {"explore": "to", "narrate": "text", "roll": "expr", "lead": "hero", "front": "hero", "back": "hero",
           "caravan": "to", "voyage": "to", "commission": "reward", "develop": "attribute", "buy": "item",
           "use": "item", "attack": "target"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=sorted(RULESETS), help="which game (legend)")
    p.add_argument("--players", help="comma-separated names in seating order, e.g. Ann,Bob")
    p.add_argument("--seed", type=int, default=None, help="fix the dice and shuffles (same seed, same game)")
    p.add_argument("--mode", choices=["starter", "solo", "expanded"], default=None,
                   help="Legend of Heroes: starter, solo or expanded (default: solo for one player, else starter)")
    p.add_argument("--narration", choices=["bot", "players"], default="bot", help="who reads the cards")
    p.add_argument("--opponents", choices=["players", "bot"], default=None,
                   help="Champion of the Empire: who plays story opponents (default: players)")
    for variant, what in (("fate", "the fate track"), ("short", "the shorter version"),
                          ("heroic", "the heroic version")):
        p.add_argument(f"--{variant}", action="store_true", help=f"Champion of the Empire: {what}")
    p.add_argument("--images", default="tabula-images", help="folder for the pictures (default: %(default)s)")
    p.add_argument("--db", default=None, help="SQLite file for the games (default: offline.db in the images folder)")
    p.add_argument("--resume", action="store_true", help="carry on with the newest unfinished game in the file")
    p.add_argument("--auto", action="store_true", help="let Tabula play random legal moves to the end")


def parse_command(line: str) -> tuple[str, dict[str, str]]:
    """`/explore to:D7` → ("explore", {"to": "D7"}); `/game status` → ("game status", {})."""
    line = line.strip()
    if line.startswith("/"):
        line = line[1:]
    head, _, rest = line.partition(" ")
    verb = head.lower()
    if verb == "game":
        sub, _, rest = rest.strip().partition(" ")
        verb = f"game {sub.lower()}"
    args: dict[str, str] = {}
    rest = rest.strip()
    named = re.match(r"([a-z_]+):(.*)$", rest, re.DOTALL)
    if named and verb in ("narrate", "note"):  # a telling runs to the end of the line, "word:" and all
        args[named.group(1)] = named.group(2).strip()
    elif named:  # `/hero hero:labienus side:1 weapon:pilum`
        for part in re.split(r"\s+(?=[a-z_]+:)", rest):
            key, _, value = part.partition(":")
            args[key.strip()] = value.strip()
    elif rest:
        args["_"] = rest
    return verb, args


def plain(text: str) -> str:
    """Discord markdown read in a terminal: bold and italics unmarked, quotes indented."""
    text = text.replace("**", "")
    text = re.sub(r"(?<![\w*])\*(\S[^*\n]*?)\*(?![\w*])", r"\1", text)
    return re.sub(r"^> ", "   ", text, flags=re.MULTILINE)


class Terminal:
    def __init__(self, service: GameService, game_id: int, people: list[Person], images: Path,
                 out: TextIO = sys.stdout) -> None:
        self.service, self.game_id, self.people, self.images, self.out = service, game_id, people, images, out
        self.count = 0

    def say(self, text: str = "", *, raw: bool = False) -> None:
        print(text if raw else plain(text), file=self.out, flush=True)

    def save(self, pictures: list[Picture]) -> None:
        for pic in pictures:
            self.count += 1
            path = self.images / f"{self.count:03d}-{pic.filename}"
            path.write_bytes(pic.png)
            self.say(f"  [picture: {path} — {pic.alt}]")

    def show(self, result: Result, telling: Telling) -> None:
        self.say(telling.text)
        self.save(telling.pictures)
        prompt = telling.prompt
        if prompt is not None:
            names = ", ".join(self.people[self._seat_of(u)].name for u in prompt.users)
            if names and prompt.text:
                self.say(f"➡️  {names}, {prompt.text}")
            for label, value in prompt.choices:
                self.say(f"     {label}" + (f"  → {typed(value)}" if prompt.verb == "act" else ""))
            for b in prompt.buttons:
                self.say(f"     [{b.label}] → {b.command}")
            if prompt.private:
                self.say(f"     [{prompt.private}] → /hand (only the player who must act should look)")

    def _seat_of(self, user_id: int) -> int:
        return next(i for i, p in enumerate(self.people) if p.id == user_id)

    async def actor(self) -> Person:
        """Whoever must act now (the runner plays every seat)."""
        result = await self.service.get(self.game_id)
        seats = sorted(result.rules.to_act(result.state))
        return self.people[seats[0]] if seats else self.people[0]

    async def handle(self, line: str) -> bool:
        """Run one command; False to stop."""
        verb, args = parse_command(line)
        if verb in ("quit", "exit", "q"):
            return False
        if verb in ("help", "?", ""):
            self.say(HELP)
            return True
        try:
            await self._dispatch(verb, args)
        except GameError as err:
            self.say(f"✋ {err}")
        return True

    async def _dispatch(self, verb: str, args: dict[str, str]) -> None:
        svc = self.service
        if verb == "game status":
            result = await svc.get(self.game_id)
            self.show(result, presenter(result.rules.key).status(result))
            return
        if verb == "sheet":
            result = await svc.get(self.game_id)
            name = (args.get("_") or "").lower()
            seat = next((i for i, p in enumerate(self.people) if p.name.lower() == name), None)
            if name and seat is None:
                players = ", ".join(p.name for p in self.people)
                self.say(f"✋ There is no player called {args['_']}. The players are {players}.")
                return
            if seat is None:
                seat = result.rules.current(result.state) if result.state.phase != "over" else 0
            self.show(result, presenter(result.rules.key).sheet(result, seat))
            return
        if verb.startswith("game "):
            self.say("Offline play knows `/game status`; the other `/game` commands belong to Discord.")
            return
        if verb == "hand":  # what only the acting player may see: pass the keyboard first
            result = await svc.get(self.game_id)
            shown = presenter(result.rules.key)
            who = await self.actor()
            seat = self._seat_of(who.id)
            telling = shown.private(result, seat) if hasattr(shown, "private") else None
            if telling is None:
                self.say("✋ Nothing private waits for anyone right now.")
                return
            self.say(f"(only {who.name} should look)")
            self.show(result, telling)
            return
        if verb == "party":
            result = await svc.get(self.game_id)
            shown = presenter(result.rules.key)
            if not hasattr(shown, "party_sheet") or getattr(result.state, "mode", "") != "expanded":
                self.say("✋ Parties belong to the Expanded Game of Legend of Heroes; try /sheet.")
                return
            seat = result.rules.current(result.state) if result.state.phase != "over" else 0
            self.say(f"(only {self.people[seat].name} should look)")
            self.show(result, shown.party_sheet(result, seat))
            return
        if "_" in args and verb in OPTIONS:
            args[OPTIONS[verb]] = args.pop("_")
        who = await self.actor()
        if verb == "explore" and not (args.get("to") or args.get("path")):
            result = await svc.get(self.game_id, who.id)
            seat = result.rules.current(result.state)
            self.say("Where to? " + "; ".join(label for label, _ in result.rules.choices(result.state, seat,
                                                                                        "explore", "to")))
            return
        if verb == "narrate" and "text" not in args:
            result = await svc.get(self.game_id, who.id)
            card = presenter(result.rules.key).narrator_card(result, result.actor) if result.actor is not None else None
            if card is None:
                self.say("✋ There is no card waiting for a Narrator right now.")
            else:
                self.say(f"(only {who.name} should look)\n{card.text}")
                self.save(card.pictures)
            return
        result = await svc.act(self.game_id, who.id, verb=verb, args=args)
        self.show(result, presenter(result.rules.key).telling(result))


async def _new_game(svc: GameService, args: argparse.Namespace) -> tuple[int, list[Person], Result] | str:
    names = [n.strip() for n in (args.players or "").split(",") if n.strip()]
    if not names:
        return "Name at least one player: --players Ann,Bob (or --resume an unfinished game)."
    if len({n.lower() for n in names}) != len(names):
        return "Give each player a different name."
    people = [Person(i + 1, name) for i, name in enumerate(names)]
    options: dict[str, Any] = {}
    if args.game == "legend":
        options["narration"] = args.narration
        if args.mode:
            options["mode"] = args.mode
    else:
        options.update({k: True for k in ("fate", "short", "heroic") if getattr(args, k, False)})
        if args.opponents:
            options["opponents"] = args.opponents
    try:
        info = await svc.create(args.game, people[0], options=options, seed=args.seed)
        for person in people[1:]:
            await svc.join(info.game_id, person)
        result = await svc.start(info.game_id, people[0].id)
    except GameError as err:
        return str(err)
    return info.game_id, people, result


async def _resume(svc: GameService, args: argparse.Namespace, db_file: Path) -> tuple[int, list[Person], Result] | str:
    games = [g for g in await svc.list_games(None) if g.ruleset == args.game and g.status == "active"]
    if not games:
        return f"There is no unfinished {args.game} game in {db_file} to resume."
    info = await svc.lobby(games[0].game_id)
    people = [Person(s.user_id, s.name) for s in info.seats]
    return info.game_id, people, await svc.get(info.game_id)


async def play(args: argparse.Namespace, *, lines: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    images = Path(args.images)
    images.mkdir(parents=True, exist_ok=True)
    db_file = Path(args.db) if args.db else images / "offline.db"
    db = await open_database(f"sqlite+aiosqlite:///{db_file}")
    try:
        svc = GameService(db)
        opened = await (_resume(svc, args, db_file) if args.resume else _new_game(svc, args))
        if isinstance(opened, str):
            print(f"✋ {opened}", file=sys.stderr)
            return 2
        game_id, people, result = opened
        folder = images / f"game-{game_id}"
        folder.mkdir(exist_ok=True)
        term = Terminal(svc, game_id, people, folder, out)
        seed = (await svc.lobby(game_id)).seed
        term.say(f"Tabula — {result.rules.title} · #{game_id} (seed {seed}). Pictures go to {folder}/. "
                 "Type /help for commands.\n")
        if result.options.get("mode") == "solo" and args.narration == "players" and not args.resume:
            term.say("(A solo game is always narrated by Tabula: nobody sits to a lone fighter's right.)")
        present = presenter(result.rules.key)
        term.show(result, present.status(result) if args.resume else present.telling(result))
        rng = random.Random(seed)
        feed = iter(lines) if lines is not None else None
        while (await svc.get(game_id)).status == "active":
            if args.auto:
                line = await _random_command(svc, game_id, rng)
                term.say(f"\n> {line}", raw=True)
            elif feed is not None:
                line = next(feed, None)
                if line is None:
                    break
                term.say(f"\n> {line}", raw=True)
            else:
                try:  # the terminal is this runner's only client, so waiting here blocks nobody
                    line = input("\n> ")
                except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: stop, keeping the game
                    print(file=out)
                    break
            if not await term.handle(line):
                break
        final = await svc.get(game_id)
        if final.outcome is not None:
            term.say(f"\nThe game is over. Pictures are in {folder}/.")
        else:
            again = f"python -m bot play {args.game} --resume" + (f" --db {db_file}" if args.db else "")
            if args.images != "tabula-images":
                again += f" --images {args.images}"
            term.say(f"\nStopped. The game is kept in {db_file}; carry on with: {again}")
        return 0
    finally:
        await db.close()


async def _random_command(svc: GameService, game_id: int, rng: random.Random) -> str:
    """A random legal move, typed as a player would type it (the ruleset says how)."""
    result = await svc.get(game_id)
    rules, state = result.rules, result.state
    seat = sorted(rules.to_act(state))[0]
    return str(rules.command(state, seat, rng))
