"""The terminal runner in another language: `--language` starts the game in it, a resumed game keeps the language
it was started in, and refusals before a game exists follow `--language` too."""

from __future__ import annotations

import argparse
import contextlib
import io
from pathlib import Path

from bot.front.offline import add_arguments, play
from rules.i18n import language


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(argv))


async def _run(args: argparse.Namespace, lines: list[str], code: int = 0) -> str:
    out = io.StringIO()
    assert await play(args, lines=lines, out=out) == code
    return out.getvalue()


async def test_a_game_played_in_hungarian_in_the_terminal_and_resumed_in_hungarian(tmp_path: Path) -> None:
    images = str(tmp_path)
    text = await _run(_args("legend", "--players", "Ann,Bob", "--seed", "3", "--images", images, "--language",
                            "hu"), ["/súgó", "/nosuch", "/quit"])
    # commands are named as the game's language names them, and typed that way too (English still works)
    assert "A képek ide kerülnek" in text and "A parancsokért írd be: /súgó." in text
    assert "Minden játékban" in text and "`/quit` kilépés" in text and "`/játék állás`" in text
    assert "Megállítva. A játékot elmentettük (" in text
    assert language() == "en"  # the runner's language ends with it
    again = await _run(_args("legend", "--resume", "--images", images), ["/quit"])
    assert "A képek ide kerülnek" in again  # the stored game's language, without --language
    english = await _run(_args("legend", "--resume", "--images", images, "--language", "en"), ["/quit"])
    assert "Pictures go to" in english


async def test_a_refusal_before_any_game_follows_the_language(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        assert await play(_args("legend", "--images", str(tmp_path), "--language", "el"), lines=["/quit"],
                          out=out) == 2
    assert "Δώσε τουλάχιστον έναν παίκτη" in err.getvalue()
