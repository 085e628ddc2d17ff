"""A newcomer's first steps (issue 20): the settings read `.env.example` as shipped, `python -m bot --help` lists
every subcommand, and the terminal runner's rough edges — the Narrator's button typed as the command that works,
no menu for Tabula's seats, on/off game flags, `--tabula` named where a start needs seats, `/hand` to the player
who must act, and the long-game commands (undo, history, replay, export, stats, leaderboard, leave, abandon)
through the same services as Discord, with a reason for each command that means nothing offline."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.front.offline import NOT_OFFLINE, add_arguments, local_id, play
from bot.ops.config import Settings
from bot.ops.verify import main as verify
from bot.service.lobby import LobbyService
from bot.store.db import open_database

ROOT = Path(__file__).resolve().parent.parent


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser


async def _run(argv: list[str], lines: list[str] | None = None, code: int = 0) -> str:
    out = io.StringIO()
    assert await play(_parser().parse_args(argv), lines=lines, out=out) == code
    return out.getvalue()


# --- settings and the entry point ------------------------------------------------------------------------------


def test_an_empty_value_means_unset_for_every_optional_setting(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    for name in Settings.model_fields:
        monkeypatch.setenv(name.upper(), "")
    settings = Settings()
    assert settings == Settings.model_construct()  # every field at its default
    assert settings.dev_guild_id is None and settings.shard_ids is None and settings.health_port is None


def test_env_example_copied_unchanged_plus_a_token_reads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (*Settings.model_fields, "narrator_timeout_minutes"):
        monkeypatch.delenv(name.upper(), raising=False)
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert "\nDEV_GUILD_ID=\n" in example  # the empty line that used to stop the bot
    (tmp_path / ".env").write_text(example.replace("\nDISCORD_TOKEN=\n", "\nDISCORD_TOKEN=abc.def\n"),
                                   encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    settings = Settings()
    assert settings.discord_token is not None and settings.discord_token.get_secret_value() == "abc.def"
    assert settings.dev_guild_id is None


@pytest.mark.slow
def test_help_lists_every_subcommand_including_the_bench() -> None:
    run = subprocess.run([sys.executable, "-m", "bot", "--help"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=True)
    for command in ("run", "play", "migrate", "backup", "restore", "verify", "i18n-extract", "i18n-report", "bench"):
        assert re.search(rf"^\s+{re.escape(command)}\s", run.stdout, re.MULTILINE), (command, run.stdout)
    bench = subprocess.run([sys.executable, "-m", "bot", "bench", "--help"], cwd=ROOT, capture_output=True,
                           text=True, timeout=60, check=True)
    assert "--quick" in bench.stdout


# --- the terminal's rough edges -------------------------------------------------------------------------------


async def test_the_narrators_button_is_typed_as_the_command_that_works(tmp_path: Path) -> None:
    moves = ["/explore to:D1", "/explore to:D11", "/explore to:D7", "/explore to:D8", "/explore to:D9"]
    text = await _run(["legend", "--players", "Ann,Bob", "--seed", "7", "--narration", "players", "--images",
                       str(tmp_path)], [*moves, "/narrate", "/quit"])
    button = re.search(r"\[Read the card\] → (\S+)", text)
    assert button and button.group(1) == "/narrate", text[-1500:]
    after = text.split("\n> /narrate\n", 1)[1]
    assert not after.lstrip().startswith("✋") and "Tell it in your own words" in after


async def test_tabulas_seats_show_no_menu_only_what_the_person_may_type(tmp_path: Path) -> None:
    text = await _run(["champion", "--players", "Ann", "--tabula", "1", "--seed", "3", "--images", str(tmp_path)],
                      ["/game status"] * 3 + ["/quit"])
    for chunk in text.split("\n> "):
        offers = [line for line in chunk.splitlines() if re.match(r"\s{5}.*→ /", line)]
        if offers:  # a menu or buttons: only under a prompt that asks the person at the keyboard
            assert "➡️  Ann" in chunk or "(only" in chunk, chunk


async def test_game_flags_turn_on_and_off(tmp_path: Path) -> None:
    parser = _parser()
    assert parser.parse_args(["autokrator", "--no-raids"]).raids is False
    assert parser.parse_args(["autokrator", "--raids"]).raids is True
    assert parser.parse_args(["autokrator"]).raids is None  # the game's default (on)
    assert "(on unless --no-raids)" in re.sub(r"\s+", " ", parser.format_help())
    for flags, raids in (([], True), (["--no-raids"], False)):
        images = tmp_path / str(raids)
        await _run(["autokrator", "--players", "Ann,Bob", "--seed", "2", "--images", str(images), *flags], ["/quit"])
        db = await open_database(f"sqlite+aiosqlite:///{images / 'offline.db'}")
        try:
            info = await LobbyService(db).lobby(1)
            assert info.options.get("raids", True) is raids, info.options
        finally:
            await db.close()


@pytest.mark.parametrize(("game", "players", "tabula"), [("champion", "Ann", 1), ("autokrator", "Ann,Bob,Cy", 1),
                                                         ("autokrator", "Ann", 1), ("eiyu", "Ann", 1)])
async def test_a_start_that_needs_seats_names_the_terminals_way(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                game: str, players: str, tabula: int) -> None:
    await _run([game, "--players", players, "--images", str(tmp_path)], ["/quit"], code=2)
    said = capsys.readouterr().err
    assert f"`--tabula {tabula}`" in said and "lobby" not in said, said
    await _run([game, "--players", players, "--tabula", str(tabula), "--images", str(tmp_path)], ["/quit"])


async def test_hand_asked_by_the_player_who_must_act_says_it_is_their_move(tmp_path: Path) -> None:
    text = await _run(["eiyu", "--players", "Ann,Bob", "--seed", "3", "--images", str(tmp_path)], ["/hand", "/quit"])
    answer = text.split("\n> /hand\n", 1)[1]
    assert "it is your move" in answer and "waiting for" not in answer, answer


# --- the long-game commands at one keyboard -------------------------------------------------------------------


async def test_undo_takes_back_the_last_move_as_on_discord(tmp_path: Path) -> None:
    text = await _run(["eiyu", "--players", "Ann,Bob", "--seed", "3", "--images", str(tmp_path)],
                      ["/city city:1", "/city city:2", "/game undo", "/program slot:1 order:act", "/game undo",
                       "/game history", "/quit"])
    refused = text.split("\n> /game undo\n", 1)[1].split("\n> ", 1)[0]
    assert refused.startswith("✋") and "stands" in refused  # a city choice cannot be taken back: the service says so
    # the programmed order was secret, so the undo line names no order (issue 29): the terminal says what Discord says
    assert "↩️ Ann took back a secret choice." in text and "Slot 1" not in text.split("\n> /game undo\n")[2]
    history = text.split("\n> /game history\n", 1)[1]
    assert "(taken back)" in history and "↩ Ann took back move 3" in history


async def test_history_replay_and_export_work_as_on_discord(tmp_path: Path) -> None:
    images = tmp_path / "img"
    text = await _run(["legend", "--players", "Ann,Bob", "--seed", "7", "--images", str(images)],
                      ["/explore to:D1", "/explore to:D11", "/explore to:D7", "/game history",
                       "/game history from:2", "/game replay move:1", "/game export", "/quit"])
    history = text.split("\n> /game history\n", 1)[1].split("\n> ", 1)[0]
    assert "history, entries 1–3 of 3" in history and "3. Bob — D7" in history
    assert "entries 2–3 of 3" in text.split("\n> /game history from:2\n", 1)[1]
    replay = text.split("\n> /game replay move:1\n", 1)[1].split("\n> ", 1)[0]
    assert "the board after move 1 of 3" in replay and "[picture: " in replay
    assert "`/game replay move:0`" in replay and "`/game replay move:2`" in replay
    exported = images / "game-1" / "tabula-game-1.json"
    assert f"is in {exported}" in text and "still running" in text
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert data["format"] == "tabula-game-log" and data["game"]["seed"] is None  # hidden while it runs


@pytest.mark.slow
async def test_stats_leaderboard_and_a_finished_games_export_come_from_the_local_file(tmp_path: Path) -> None:
    images = str(tmp_path / "img")
    await _run(["legend", "--players", "Ann,Bob", "--seed", "3", "--auto", "--moves", "5000", "--images", images])
    text = await _run(["legend", "--players", "Bob,Ann", "--seed", "4", "--images", images],
                      ["/stats Ann", "/stats player:Cy", "/leaderboard game:legend min_games:1",
                       "/game export game:1", "/quit"])
    assert re.search(r"Ann — finished games.*\n.*1 played", text), text
    assert "Cy has not finished a game" in text
    board = text.split("/leaderboard game:legend min_games:1\n", 1)[1].split("\n> ", 1)[0]
    assert "<@" not in board and "Ann" in board and "Bob" in board, board
    exported = tmp_path / "img" / "game-2" / "tabula-game-1.json"
    assert verify([str(exported)]) == 0
    assert local_id("Ann") == local_id(" ann ") != local_id("Bob")


async def test_leave_and_abandon_at_one_keyboard(tmp_path: Path) -> None:
    text = await _run(["legend", "--players", "Ann,Bob", "--seed", "7", "--images", str(tmp_path)],
                      ["/explore to:D1", "/game leave", "/game status", "/game abandon", "/explore to:D3"])
    assert "Ann left the game; Tabula plays their seat from now on." in text
    assert "was abandoned by Bob" in text and "> /explore to:D3" not in text  # nothing more is read
    assert "The game is over" in text


async def test_commands_that_mean_nothing_offline_say_why(tmp_path: Path) -> None:
    asked = ["/" + c for c in NOT_OFFLINE]
    text = await _run(["legend", "--players", "Ann,Bob", "--seed", "7", "--images", str(tmp_path)], [*asked, "/quit"])
    for command in asked:
        answer = text.split(f"\n> {command}\n", 1)[1].split("\n> ", 1)[0]
        assert answer.startswith("✋") and "Offline play knows" not in answer, (command, answer)
    assert "works the turn clock" in text and "direct message" in text and "python -m bot play" in text
