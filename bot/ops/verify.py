"""`python -m bot verify FILE`: check an exported game log offline, with this bot's own engine.

The export format (``/game export``), version 1 — one JSON object::

    {
      "format": "tabula-game-log",          # always this
      "version": 1,                          # this format's version; a reader refuses a newer one
      "exported_at": 1764580000.0,           # Unix time of the export
      "game": {
        "id": 12, "ruleset": "<game key>", "title": "<game title>",
        "status": "active" | "finished" | "abandoned",
        "complete": true,                    # the game had ended: everything below is in the file
        "options": {...},                    # the lobby's options as the rules settled them at the start
        "seats": [{"seat": 0, "name": "Ann", "tabula": false}, ...],   # tabula: a seat Tabula plays
        "seed": 123 | null,                  # the game's seed; null while the game runs
        "seed_sha256": "<hex>",              # sha256 of the seed's decimal digits: always there, so an export
                                             # taken while the game ran can be matched with the seed revealed
                                             # at its end
        "state_sha256": "<hex>" | null,      # sha256 of the stored final state's JSON (complete exports)
        "result": {"winners": [seat, ...], "scores": {"seat": n}, "summary": "..."} | null,
        "created_at": 1764500000.0, "finished_at": 1764580000.0 | null
      },
      "log": [                               # every row of the append-only log, in order
        {"seq": 3,                           # the row's sequence number: consecutive from the start row
         "kind": "start" | "move" | "roll" | "undo" | "abandon" | "other",
         "seat": 0 | null,                   # who acted (null: the start, an abandon)
         "by": "player" | "person" | "tabula" | "timeout",
                                             # tabula: a seat Tabula plays; timeout: Tabula moved for a player
                                             # whose time ran out; person: the host or a moderator (no seat)
         "at": 1764500100.0,                 # Unix time it was logged
         "action": {...} | null,             # the action as the engine encodes it (tagged by "type");
                                             # an undo is {"type": "tabula.undo", "undoes": SEQ}
         "events": [...] | null,             # every event it produced, as the engine encodes them
         "secret": true}                     # only on a secret move (the game's own meta says so)
      ]
    }

A complete export (a finished or abandoned game) holds everything: verify sets the game up from the seed,
options and seats, applies every row in order (an undo takes its move back, as the bot does), and compares
each move's and roll's events, the final state and the result with the file.  An export of a running game
leaves out the seed, the content of secret moves and the events of the game's own moves and of its start
(the seam does not mark which events are private, so none are given away); verify says so plainly, and checks
what it can: the rows' order, that every public action is one this game can read, that each take-back names an
earlier move, and that every table roll's dice fit its expression (count, faces and total; the dice themselves
come from the seed, so whether they are the right ones can be checked only once the game ends).

Exit status: 0 when everything checked matches, 1 when something does not (one line per mismatch, then a
summary), 2 when the file cannot be read as an export.  Once one move does not replay as recorded, the game has
gone elsewhere and most later moves cannot match either: those are counted on one line after the first
difference, while every table roll (which depends only on the seed and its place in the log) is still judged
on its own.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from bot.service.gamelog import kind_of
from bot.service.records import EXPORT_FORMAT, EXPORT_VERSION, Entry, LogRow, Timeline, walk
from rules import GameError, dice
from rules.core import SeatInfo
from rules.registry import AnyRuleset, games, ruleset

_enc = msgspec.json.Encoder()


class Unreadable(Exception):
    """The file is not an export this verifier can read (the message says why)."""


@dataclass(slots=True)
class Report:
    title: str
    complete: bool
    entries: int
    checked: int = 0
    mismatches: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def summary(self) -> str:
        if not self.complete:
            found = (f"{len(self.mismatches)} mismatch{'es' if len(self.mismatches) != 1 else ''}" if
                     self.mismatches else "nothing wrong")
            return (f"{self.title}: the game was still running when this was exported, so its seed and secret "
                    f"moves are not in the file and the moves cannot be replayed yet; export it again once it "
                    f"ends to check every move and roll. Checked what can be checked ({self.checked} of "
                    f"{self.entries} entries): {found}.")
        if self.ok:
            return (f"{self.title}: all {self.entries} entries match — every move and roll replays exactly as "
                    "recorded, and so do the final position and the result.")
        return (f"{self.title}: {len(self.mismatches)} mismatch{'es' if len(self.mismatches) != 1 else ''} in "
                f"{self.entries} entries.")


def _json(value: object) -> Any:
    return json.loads(_enc.encode(value))


def _short(value: object, limit: int = 140) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _differs(recorded: object, engine: object) -> str | None:
    """Where two event lists differ, in a few words (None when they are the same)."""
    if recorded == engine:
        return None
    if not isinstance(recorded, list) or not isinstance(engine, list):
        return f"the file records {_short(recorded)}, the engine gives {_short(engine)}"
    for i, (a, b) in enumerate(zip(recorded, engine, strict=False)):
        if a != b:
            return f"event {i + 1}: the file records {_short(a)}, the engine gives {_short(b)}"
    return (f"the file records {len(recorded)} event{'s' if len(recorded) != 1 else ''}, the engine gives "
            f"{len(engine)}")


def read(data: object) -> tuple[AnyRuleset, dict[str, Any], list[LogRow], list[dict[str, Any]]]:
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise Unreadable("this is not a Tabula game export (no \"format\": \"tabula-game-log\")")
    version = data.get("version")
    if not isinstance(version, int) or version > EXPORT_VERSION or version < 1:
        raise Unreadable(f"export format version {version!r} is not one this bot reads (it reads 1 to "
                         f"{EXPORT_VERSION})")
    game = data.get("game")
    log = data.get("log")
    if not isinstance(game, dict) or not isinstance(log, list) or not log:
        raise Unreadable("the export has no game or no log")
    key = game.get("ruleset")
    if key not in games():
        raise Unreadable(f"the game {key!r} is not installed in this bot")
    rows = []
    try:
        for item in log:
            rows.append(LogRow(seq=int(item["seq"]), user_id=0 if item.get("by") in ("tabula", "timeout") else 1,
                               seat=None if item.get("seat") is None else int(item["seat"]),
                               action=json.dumps(item.get("action")), events=json.dumps(item.get("events")),
                               created_at=float(item.get("at") or 0.0),
                               hidden=item.get("action") is None and item.get("kind") == "move"))
    except (KeyError, TypeError, ValueError) as err:
        raise Unreadable(f"a log row cannot be read ({err!r})") from err
    return ruleset(key), game, rows, log


def check(data: object) -> Report:
    rules, game, rows, log = read(data)
    try:
        seats = [SeatInfo(index=int(s["seat"]), name=str(s["name"])) for s in game.get("seats", [])]
    except (KeyError, TypeError, ValueError) as err:
        raise Unreadable(f"the seats cannot be read ({err!r})") from err
    names = {s.index: s.name for s in seats}
    start = next((r for r in rows if kind_of(r) == "start"), None)
    if start is not None:  # the names the game was set up with, if the start row keeps them (seats change hands)
        setup = json.loads(start.action).get("names") if start.action else None
        if isinstance(setup, list) and len(setup) == len(seats):
            seats = [SeatInfo(index=i, name=str(n)) for i, n in enumerate(setup)]
    seed = game.get("seed")
    complete = bool(game.get("complete")) and isinstance(seed, int)
    title = f"{rules.spec.title} #{game.get('id', '?')}"
    report = Report(title=title, complete=complete, entries=max(len(rows) - 1, 0))
    options = game.get("options") or {}
    try:
        timeline = walk(rules, seats, options, seed if complete else None, rows)
    except (GameError, ValueError, TypeError) as err:
        report.mismatches.append(f"the game cannot be set up from the file's seats and options: {err}")
        return report
    report.mismatches += [f"log: {p}" for p in timeline.problems]
    if complete and isinstance(seed, int):
        _check_complete(report, rules, game, timeline, log, names, seed)
    else:
        _check_running(report, timeline, names)
    return report


def _who(entry: Entry, names: dict[int, str]) -> str:
    return names.get(entry.row.seat, "?") if entry.row.seat is not None else "no seat"


def _check_complete(report: Report, rules: AnyRuleset, game: dict[str, Any], timeline: Timeline,
                    log: Sequence[dict[str, Any]], names: dict[int, str], seed: int) -> None:
    if game.get("seed_sha256") not in (None, hashlib.sha256(str(seed).encode()).hexdigest()):
        report.mismatches.append("the seed does not match the seed_sha256 the export carries")
    start_events = log[0].get("events")
    differs = _differs(start_events, _json(list(timeline.start_events)))
    if differs:
        report.mismatches.append(f"the start: {differs}")
    diverged: Entry | None = None  # the first move that did not replay as recorded
    later: list[int] = []  # moves after it that do not match either (the game had already gone elsewhere)
    for entry, item in zip(timeline.entries, log[1:], strict=False):
        report.checked += 1
        label = f"entry {entry.number} ({entry.kind}, {_who(entry, names)})"
        problem = entry.problem
        if problem is None and entry.kind in ("move", "roll"):
            if entry.engine is None:
                problem = "the engine could not replay it"
            else:
                problem = _differs(item.get("events"), _json(list(entry.engine)))
        if problem is None:
            continue
        if entry.kind == "move" and diverged is not None:
            later.append(entry.number)
            continue
        if entry.kind == "move":
            diverged = entry
        report.mismatches.append(f"{label}: {problem}")
    if diverged is not None and later:
        report.mismatches.append(
            f"entries {later[0]}–{later[-1]}: {len(later)} later move{'s' if len(later) != 1 else ''} no longer "
            f"match; they follow from the difference at entry {diverged.number} (rolls are checked on their own)")
    final = _enc.encode(timeline.final).decode()
    wanted = game.get("state_sha256")
    if wanted and hashlib.sha256(final.encode()).hexdigest() != wanted:
        report.mismatches.append("the final position the engine reaches is not the one the bot stored")
    result = game.get("result")
    outcome = rules.outcome(timeline.final)
    if game.get("status") == "finished":
        if outcome is None:
            report.mismatches.append("the file says the game finished, but the engine's game has not ended")
        elif isinstance(result, dict):
            scores = {str(k): v for k, v in outcome.scores.items()}
            if list(outcome.winners) != list(result.get("winners", [])) or scores != result.get("scores"):
                report.mismatches.append(f"the result differs: the file records {_short(result)}, the engine "
                                         f"gives winners {list(outcome.winners)} and scores {_short(scores)}")


def _check_running(report: Report, timeline: Timeline, names: dict[int, str]) -> None:
    for entry in timeline.entries:
        label = f"entry {entry.number} ({entry.kind}, {_who(entry, names)})"
        if entry.problem:
            report.checked += 1
            report.mismatches.append(f"{label}: {entry.problem}")
            continue
        if entry.kind == "roll":
            report.checked += 1
            wrong = _roll_fits(entry)
            if wrong:
                report.mismatches.append(f"{label}: {wrong}")
        elif entry.kind in ("undo", "abandon") or (entry.kind == "move" and entry.action is not None):
            report.checked += 1  # read, ordered and (an undo) pointing at an earlier move


def _roll_fits(entry: Entry) -> str | None:
    """Whether a table roll's recorded dice fit its expression (count and faces of each term, and the total)."""
    action = entry.action
    expr = getattr(action, "expr", "")
    try:
        terms = dice.parse(str(expr))
        [event] = json.loads(entry.row.events)
        rolled, total = event["dice"], int(event["total"])
    except (GameError, ValueError, KeyError, TypeError):
        return "its dice cannot be read"
    if len(rolled) != len(terms):
        return f"`{expr}` has {len(terms)} terms, the file records {len(rolled)}"
    expected = 0
    for (sign, count, sides), faces in zip(terms, rolled, strict=True):
        if not sides:
            if faces:
                return f"the constant {count} of `{expr}` has dice in the file"
            expected += sign * count
            continue
        if len(faces) != count or any(not 1 <= int(f) <= sides for f in faces):
            return f"`{count}d{sides}` cannot show {faces}"
        expected += sign * sum(int(f) for f in faces)
    if expected != total:
        return f"the dice {rolled} add up to {expected}, the file says {total}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot verify",
                                     description="Check an exported Tabula game log with this bot's engine.")
    parser.add_argument("file", help="the JSON file /game export gave")
    args = parser.parse_args(argv)
    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
        report = check(data)
    except (OSError, ValueError, Unreadable) as err:
        print(f"{args.file}: cannot be checked: {err}", file=sys.stderr)
        return 2
    for line in report.mismatches:
        print(f"MISMATCH {line}")
    print(report.summary())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
