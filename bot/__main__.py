"""`python -m bot` runs the Discord bot; `python -m bot play <game> --players Ann,Bob` plays in the terminal.

    python -m bot                 run the bot (DISCORD_TOKEN from the environment or .env); also `run`
    python -m bot play <game> ... play offline, no Discord needed (see --help)
    python -m bot migrate         create or upgrade the database schema and exit
    python -m bot backup FILE     a consistent copy of the live SQLite database (restore FILE puts one back)
    python -m bot i18n-report     how complete each language's catalogues are (i18n-extract refreshes them)
    python -m bot verify FILE     check a `/game export` file with the engine (exit 0: all match)
    python -m bot bench           print the benchmark figures on this machine (--quick: a short run)
    python -m bot arena GAME      play Tabula's levels against each other and print win rates (see --help)
"""

from __future__ import annotations

import gc

# Start-up builds some 120,000 long-lived objects (modules, classes, functions) and almost no garbage (2,000
# objects): in a process of its own (not when a test imports this module) the cyclic collector is off until
# ``_settled``, and a start costs 0.1 s less CPU (docs/operators.md).
_STARTING = __name__ == "__main__"
if _STARTING:
    gc.disable()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import contextlib  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from pydantic import ValidationError  # noqa: E402

from bot.ops.config import Settings  # noqa: E402

# The subcommands import what they need inside their own branch, on purpose: `--help`, `migrate`, `backup` and
# `verify` start without loading discord.py, the renderer or the games' pictures (a start-up cost, not a cycle).


class _NoVoiceNotes(logging.Filter):
    """discord.py warns on every start that voice libraries are missing; Tabula never speaks, so the warning is
    noise that buries the one line a failed start prints."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


class _JsonLines(logging.Formatter):
    """One JSON object a line (LOG_FORMAT=json), for log collectors."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"), "level": record.levelname,
                 "logger": record.name, "message": record.getMessage()}
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def _settled() -> None:
    """What start-up made is kept for the life of the process: the collector stops looking at it (``gc.freeze``:
    each later full collection is that much shorter) and collects from here on."""
    global _STARTING
    if _STARTING:
        _STARTING = False
        gc.freeze()
        gc.enable()


def _logging(level: str, form: str = "plain") -> None:
    logging.basicConfig(level=getattr(logging, level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    if form == "json":
        for handler in logging.getLogger().handlers:
            handler.setFormatter(_JsonLines())
    logging.getLogger("discord.gateway").setLevel(logging.WARNING)
    client = logging.getLogger("discord.client")
    client.addFilter(_NoVoiceNotes())
    from bot.ops.shutdown import QuietReconnects

    client.addFilter(QuietReconnects())  # a lost gateway is one line, not a traceback per retry
    logging.getLogger("discord.shard").addFilter(QuietReconnects())  # the same, from a sharded client
    client.setLevel(max(client.getEffectiveLevel(), logging.WARNING))  # "logging in using static token"


async def _run(settings: Settings) -> int:
    from bot.front.client import TabulaBot
    from bot.ops.testing_endpoints import patch_from_env

    patch_from_env()  # loopback tests only: no effect unless TABULA_FAKE_DISCORD is set
    from bot.delivery.outbox import test_gate

    _settled()  # (the cogs' few imports come later, with the collector on)
    await test_gate()  # (loopback tests only, as above)
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        print("tabula: DISCORD_TOKEN is not set. Put it in a .env file or the environment "
              "(see README: 'Create the Discord application').", file=sys.stderr)
        return 2
    bot = TabulaBot(settings)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        # discord.py only handles SIGINT; systemd and docker stop send SIGTERM. Close cleanly on both.
        with contextlib.suppress(NotImplementedError):  # Windows has no loop signal handlers
            loop.add_signal_handler(sig, bot.stopper.on_signal)  # bot.close(), bounded (bot/ops/shutdown.py)
    try:
        async with bot:
            await bot.start(token)
        await bot.close()  # start() returns as soon as the socket closes: wait for the database to close too
    except Exception as err:
        if not bot.stopper.signalled:
            return _start_failed(err)
        # A stop while the start was still under way (logging in, syncing, opening the database): what failed
        # failed because the stop closed it under it; the stop itself is the story.
        logging.getLogger("tabula.shutdown").info("stopping: the start under way ended (%s)", type(err).__name__)
        await bot.close()
    from bot.ops.shutdown import leave

    if bot.lease is not None and bot.lease.lost.is_set():
        print("tabula: stopped: another process took this process's shards (see the log above)", file=sys.stderr)
        leave(4)
        return 4
    leave(0)  # closed: a picture still being drawn in a worker thread is not waited for
    return 0


def _start_failed(err: Exception) -> int:
    """One line for a start that could not be made, and the exit code; anything unforeseen is raised."""
    import aiohttp
    import discord

    from bot.ops.shards import ProcessConflict

    if isinstance(err, ProcessConflict):  # a second process on the same shards, or on the same SQLite file
        print(f"tabula: {err}", file=sys.stderr)
        return 2
    if isinstance(err, discord.LoginFailure):
        print("tabula: Discord refused the token (DISCORD_TOKEN is wrong or was reset). Copy a fresh one from "
              "the Developer Portal → your application → Bot → Reset Token.", file=sys.stderr)
        return 2
    if isinstance(err, discord.PrivilegedIntentsRequired):
        print("tabula: Discord asked for a privileged intent; Tabula needs none. Check the bot's settings.",
              file=sys.stderr)
        return 2
    if isinstance(err, (aiohttp.ClientError, OSError)):
        print(f"tabula: cannot reach Discord ({type(err).__name__}: {err}). Check this machine's network "
              "connection, then start the bot again.", file=sys.stderr)
        return 3
    raise err


async def _migrate(settings: Settings) -> int:
    from bot.store.db import migrate

    await migrate(settings.database_url)
    print(f"tabula: database is up to date ({settings.database_url})")
    return 0


def _backup(command: str, url: str, file: Path) -> int:
    from bot.ops.backup import BackupError, backup, restore

    try:
        if command == "backup":
            saved = backup(url, file)
            print(f"tabula: backed up {saved} game{'' if saved == 1 else 's'} to {file}")
        else:
            games, kept = restore(url, file)
            print(f"tabula: restored {games} game{'' if games == 1 else 's'} from {file}"
                  + (f"; the database it replaced is {kept}" if kept else ""))
    except BackupError as err:
        print(f"tabula: {err}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Tabula: board games by message.")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the Discord bot (the default)")
    sub.add_parser("migrate", help="create or upgrade the database schema")
    sub.add_parser("verify", help="check an exported game log (/game export) with the engine").add_argument(
        "file", help="the JSON file /game export gave")
    sub.add_parser("backup", help="copy the live SQLite database consistently to FILE").add_argument(
        "file", help="the new file to write")
    sub.add_parser("restore", help="check FILE and put it in place of the database (stop the bot first)"
                   ).add_argument("file", help="a file `backup` made")
    sub.add_parser("i18n-extract", help="refresh every message template from the code and merge it into each .po")
    sub.add_parser("i18n-report", help="print how complete each catalogue is in each language")
    from bot.front.offline import add_arguments

    add_arguments(sub.add_parser("play", help="play a game in the terminal, without Discord"))
    sub.add_parser("bench", help="print the benchmark figures on this machine (medians and ratios)").add_argument(
        "--quick", action="store_true", help="fewer repetitions (a short run)")
    from bot.arena import add_arguments as arena_arguments

    arena_arguments(sub.add_parser("arena", help="play Tabula's levels against each other (win rates, speed)"))
    args = parser.parse_args(argv)
    if args.command not in (None, "run", "play"):
        _settled()  # (a tool's run: its own imports come with the collector on)
    if args.command == "arena":
        from bot.arena import from_args as arena

        return arena(args)
    if args.command == "bench":
        from bot.bench import main as bench

        asyncio.run(bench(args.quick))
        return 0
    if args.command == "verify":
        from bot.ops.verify import main as verify

        return verify([args.file])
    if args.command in ("i18n-extract", "i18n-report"):
        from bot.lang.catalogues import main as i18n

        return i18n(args.command)
    try:
        settings = Settings()
    except ValidationError as err:  # e.g. SHARD_IDS without SHARD_COUNT: one line, not a traceback
        problems = "; ".join((f"{'.'.join(map(str, e['loc'])).upper()}: " if e["loc"] else "")
                             + e["msg"].removeprefix("Value error, ") for e in err.errors())
        print(f"tabula: the settings are wrong: {problems}", file=sys.stderr)
        return 2
    if args.command in ("backup", "restore"):
        return _backup(args.command, settings.database_url, Path(args.file))
    if args.command == "play":
        from bot.front.offline import play

        _settled()
        logging.basicConfig(level=logging.WARNING)

        def interrupt(*_: object) -> None:
            raise KeyboardInterrupt  # at the prompt: caught there, and the game is kept

        # asyncio's own Ctrl-C handling cancels the game's task but leaves input() waiting for Enter.
        signal.signal(signal.SIGINT, interrupt)
        try:
            return asyncio.run(play(args))
        except KeyboardInterrupt:
            print("\nStopped.", file=sys.stderr)
            return 130
    _logging(settings.log_level, settings.log_format)
    if args.command == "migrate":
        return asyncio.run(_migrate(settings))
    try:
        return asyncio.run(_run(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
