"""One table of commands, typed in the terminal and sent as slash commands on Discord: each is accepted by
both or refused by both, with the same words (names aside).  The terminal accepts every command Discord
accepts."""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import pytest

from bot.front.offline import add_arguments, play
from bot.store.db import Database
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory, uid
from tests.test_discord import last, start_game

#: (verb, options, "refused" | "public" | "private") at the first turn of a two-player starter game.
TABLE: list[tuple[str, dict[str, str], str]] = [
    ("narrate", {"note": "Dust lies thick on every stair"}, "refused"),  # no room entered yet
    ("roll", {"expr": "2d6+1"}, "public"),
    ("sheet", {}, "private"),
    ("explore", {"to": "D999"}, "refused"),
    ("hand", {}, "refused"),  # Legend has no hands
    ("rules", {"topic": "no-such-topic"}, "refused"),
    ("help", {}, "private"),
    ("attack", {}, "refused"),  # no fight
]


def _typed(verb: str, options: dict[str, str]) -> str:
    return " ".join([f"/{verb}", *(f"{k}:{v}" for k, v in options.items())])


def _words(text: str) -> str:
    """A refusal without names, ids and markdown, to compare the two transports' words."""
    text = re.sub(r"<@\d+>|\b(Alice|Bob|Ann|Bo)\b", "NAME", text.replace("**", ""))
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.slow
async def test_every_command_means_the_same_in_the_terminal_and_on_discord(db: Database, tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    terminal: dict[str, str] = {}
    for verb, options, _ in TABLE:
        out = io.StringIO()
        argv = ["legend", "--players", "Ann,Bo", "--seed", "11", "--mode", "starter", "--images",
                str(tmp_path / verb)]
        assert await play(parser.parse_args(argv), lines=[_typed(verb, options), "/quit"], out=out) == 0
        terminal[verb] = out.getvalue().split(f"> {_typed(verb, options)}", 1)[1].split("\n> /quit", 1)[0]

    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _ = await start_game(h, h.bob, mode="starter")
        users = {uid(h.alice): h.alice, uid(h.bob): h.bob}
        first = users[next(iter(last(h, thread.id).pings.users))]
        for verb, options, kind in TABLE:
            said = terminal[verb]
            answer = await h.slash(first, thread.payload, verb, options)
            if kind == "refused":
                assert said.strip().startswith("✋"), (verb, said)
                assert answer.ephemeral, (verb, answer.content)
                assert _words(answer.content) == _words(said.strip()[1:]), verb
            elif kind == "private":
                assert "✋" not in said and answer.ephemeral, (verb, said, answer.content)
            else:
                assert "✋" not in said and not answer.ephemeral, (verb, said, answer.content)
