"""The real `python -m bot` process: against the loopback fake of Discord, with a missing or wrong token,
shut down by SIGTERM with the game kept; and the offline runner a newcomer tries first."""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.ops.testing_endpoints import ENV_VAR
from tests.delivery_helpers import with_shared_pictures
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent


def bot_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID", ENV_VAR)}
    env.update({"DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", "PYTHONPATH": str(ROOT)})
    return with_shared_pictures(env, extra)


@pytest.mark.slow
async def test_python_m_bot_plays_against_the_fake_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        env = bot_env(tmp_path, DISCORD_TOKEN=fake.token, **{ENV_VAR: fake.url})
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            await fake.wait_until_connected(timeout=20)
            for _ in range(100):  # commands are synced in setup_hook, just before the gateway connects
                if fake.find_command("game") is not None:
                    break
                await asyncio.sleep(0.05)
            reply = await fake.interact(fake.slash(fake.alice, fake.channel, "game", {"game": "legend"},
                                                   subcommand="new"))
            assert "lobby" in reply.embeds[0]["title"]
            assert all(fake.find_command(name) for name in ("game", "explore", "narrate", "sheet"))
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = await asyncio.wait_for(proc.communicate(), timeout=20)
        assert proc.returncode == 0, err.decode()
        assert b"Traceback" not in err, err.decode()
    assert (tmp_path / "bot.db").exists()


@pytest.mark.slow
def test_missing_token_gives_one_clear_line(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=bot_env(tmp_path),
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "DISCORD_TOKEN is not set" in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


@pytest.mark.slow
async def test_wrong_token_gives_one_clear_line(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        env = bot_env(tmp_path, DISCORD_TOKEN="not-the-token", **{ENV_VAR: fake.url})
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    text = err.decode()
    assert proc.returncode == 2 and "refused the token" in text and "Traceback" not in text
    assert len(text.strip().splitlines()) == 1, text  # one line, no log lines before it


@pytest.mark.slow
def test_no_network_gives_one_clear_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:  # a loopback port with nobody listening
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = bot_env(tmp_path, DISCORD_TOKEN="x" * 59, **{ENV_VAR: f"http://127.0.0.1:{port}"})
    run = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=60, check=False)
    assert run.returncode == 3, run.stderr
    assert "cannot reach Discord" in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr


@pytest.mark.slow
async def test_offline_runner_plays_a_whole_game_and_writes_pictures(tmp_path: Path) -> None:
    from bot.front.offline import add_arguments, play

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["legend", "--players", "Ann,Bob", "--seed", "3", "--auto", "--moves", "5000",
                              "--images", str(tmp_path / "img")])
    out = io.StringIO()
    assert await play(args, out=out) == 0
    text = out.getvalue()
    assert ("Roll-off" in text and "wins" in text) or "share the victory" in text
    pictures = sorted((tmp_path / "img" / "game-1").glob("*.png"))
    assert any(p.name.endswith("board.png") for p in pictures)
    assert any("-card-" in p.name for p in pictures)


async def test_offline_runner_accepts_the_discord_commands(tmp_path: Path) -> None:
    from bot.front.offline import add_arguments, play

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["legend", "--players", "Ann,Bob", "--seed", "3", "--narration", "players",
                              "--images", str(tmp_path / "img")])
    out = io.StringIO()
    lines = ["/help", "/game status", "/explore to:D999", "/explore", "/sheet Bob", "/narrate", "/quit"]
    assert await play(args, lines=lines, out=out) == 0
    text = out.getvalue()
    assert "/explore to:D7" in text  # the help
    assert "rooms explored" in text  # the status
    assert "✋ There is no doorway called D999" in text
    assert "Choices for /explore to:" in text and "entrance" in text
    assert "Bob's fighter" in text
    assert "no card to read" in text


async def test_offline_game_can_be_stopped_and_resumed(tmp_path: Path) -> None:
    from bot.front.offline import add_arguments, play

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    images = str(tmp_path / "img")
    first = io.StringIO()
    args = parser.parse_args(["legend", "--players", "Ann,Bob", "--seed", "5", "--images", images])
    assert await play(args, lines=["/explore to:D1", "/quit"], out=first) == 0
    assert "--resume" in first.getvalue()
    again = io.StringIO()
    args = parser.parse_args(["legend", "--resume", "--images", images])
    assert await play(args, lines=["/sheet Zed", "/quit"], out=again) == 0
    text = again.getvalue()
    assert "#1" in text and "at D1" in text  # the same game, where it was left
    assert "There is no player called Zed. The players are Ann, Bob." in text
    assert "**" not in text  # Discord markdown is not shown raw in a terminal


@pytest.mark.slow
def test_ctrl_c_at_the_offline_prompt_stops_cleanly_and_keeps_the_game(tmp_path: Path) -> None:
    import pty
    import select
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child: a real terminal session of the offline runner
        os.chdir(tmp_path)
        os.execvpe(sys.executable, [sys.executable, "-m", "bot", "play", "legend", "--players", "Ann,Bob",
                                    "--seed", "7"], bot_env(tmp_path))

    def read_for(seconds: float, until: str = "") -> str:
        out, end = b"", time.time() + seconds
        while time.time() < end and not (until and until.encode() in out):
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
        return out.decode(errors="replace")

    def reap(seconds: float) -> int | None:
        end = time.time() + seconds
        while time.time() < end:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            time.sleep(0.05)
        return None

    try:
        assert "> " in read_for(30, until="\n> ")
        # readline prints the prompt a moment before it waits for a key: a Ctrl-C in between is taken by the C
        # signal handler but wakes nothing until the next key (CPython's readline loop), so give it that moment
        time.sleep(0.5)
        os.write(fd, b"\x03")  # Ctrl-C at the prompt
        after = read_for(10, until="--resume")
        status = reap(20)
        if status is None:  # never hang the suite: say what was seen
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            raise AssertionError(f"the runner did not stop after Ctrl-C; it printed: {after[-400:]!r}")
    finally:
        os.close(fd)
    assert "Stopped" in after and "--resume" in after and "Traceback" not in after
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def test_offline_parser_keeps_a_whole_telling() -> None:
    from bot.front.offline import parse_command

    assert parse_command("/narrate text:The troll growls: none shall pass!") == (
        "narrate", {"text": "The troll growls: none shall pass!"})
    assert parse_command("/explore to:D7") == ("explore", {"to": "D7"})
    assert parse_command("/game status") == ("game status", {})


@pytest.mark.slow
async def test_offline_runner_plays_a_whole_expanded_game_with_party_commands(tmp_path: Path) -> None:
    from bot.front.offline import add_arguments, play

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    base = ["legend", "--players", "Ann,Bob,Cy", "--seed", "5", "--mode", "expanded", "--images",
            str(tmp_path / "img")]
    out = io.StringIO()
    lines = ["/party", "/roll expr:2d6+1", "/roll 3d4", "/attack", "/quit"]
    assert await play(parser.parse_args(base), lines=lines, out=out) == 0
    text = out.getvalue()
    assert "party, left to right" in text and "Spell: " in text  # the private look at one's party
    assert "rolls `2d6+1`" in text and "rolls `3d4`" in text
    assert "✋ There is no fight" in text
    auto = io.StringIO()
    whole = [*base, "--auto", "--moves", "5000", "--db", str(tmp_path / "auto.db")]  # to the end, not a demo
    assert await play(parser.parse_args(whole), out=auto) == 0
    assert "wins" in auto.getvalue() or "share the victory" in auto.getvalue()
    assert any("party" in p.name for p in (tmp_path / "img").rglob("*.png"))


@pytest.mark.slow
async def test_offline_runner_plays_champion_with_private_choices_and_to_the_end(tmp_path: Path) -> None:
    from bot.front.offline import add_arguments, play, typed

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    base = ["champion", "--players", "Ann,Bob", "--seed", "9", "--images", str(tmp_path / "img")]
    out = io.StringIO()
    lines = ["/hand", "/hero hero:labienus side:1 weapon:pilum", "/hand", "/pass",
             "/hero hero:jahmesz side:1 weapon:khopesh", "/pass", "/foo", "/sheet Ann", "/explore path:cyrenaica",
             "/quit"]
    assert await play(parser.parse_args(base), lines=lines, out=out) == 0
    text = out.getvalue()
    assert "(only Ann should look)" in text and "→ /hero hero:labienus side:1 weapon:pilum" in text
    assert "Ann takes Labienus" in text and "Round 1" in text
    assert "has no `/foo`" in text and "Region cards still in your hand (6)" in text
    assert "Where to?" not in text and "explores from Aegyptus to Cyrenaica" in text  # the menu's `/explore path:`
    assert typed("explore?path=latium>campania") == "/explore path:latium>campania"
    auto = io.StringIO()
    argv = [*base, "--auto", "--moves", "5000", "--opponents", "bot", "--short", "--db", str(tmp_path / "auto.db")]
    assert await play(parser.parse_args(argv), out=auto) == 0
    assert "Champion of the Empire" in auto.getvalue() and "🏆" in auto.getvalue()


@pytest.mark.slow
async def test_a_plugin_game_found_by_name_plays_to_the_end_through_the_real_process(tmp_path: Path) -> None:
    """Race to Ten lives in the test tree; `TABULA_GAMES` names its package and `python -m bot` offers it."""
    async with FakeDiscord() as fake:
        env = bot_env(tmp_path, DISCORD_TOKEN=fake.token, TABULA_GAMES="tests.plugins.race", **{ENV_VAR: fake.url})
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            await fake.wait_until_connected(timeout=20)
            for _ in range(100):
                if fake.find_command("move") is not None:
                    break
                await asyncio.sleep(0.05)
            new = fake.find_command("game")
            assert new is not None and "race" in str(new)
            await fake.interact(fake.slash(fake.alice, fake.channel, "game", {"game": "race"}, subcommand="new"))
            lobby = fake.messages(fake.channel)[-1]
            add = next(c for c in lobby.custom_ids if c.endswith(":bot"))
            await fake.interact(fake.component(fake.alice, lobby, add))
            start = next(c for c in lobby.custom_ids if c.endswith(":start"))
            await fake.interact(fake.component(fake.alice, fake.message(lobby.id), start))
            for _ in range(200):  # the thread follows the press's answer in the process's own time
                if fake.threads():
                    break
                await asyncio.sleep(0.05)
            [thread] = fake.threads()
            for _ in range(12):
                for _ in range(200):  # the process posts in its own time (Tabula's reply after the press's)
                    posted = fake.messages(thread.id)
                    if posted and ("wins" in posted[-1].content
                                   or any(c.startswith("tb:pick:") for c in posted[-1].custom_ids)):
                        break
                    await asyncio.sleep(0.05)
                prompt = fake.messages(thread.id)[-1]
                if "wins" in prompt.content:
                    break
                menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
                value = prompt.component(menu)["options"][0]["value"]
                await fake.interact(fake.component(fake.alice, prompt, menu, component_type=3, values=[value]))
            told = "\n".join(m.content for m in fake.messages(thread.id))
            assert "wins!" in told and "Tabula steps" in told
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = await asyncio.wait_for(proc.communicate(), timeout=20)
        assert proc.returncode == 0, err.decode()
        assert b"Traceback" not in err, err.decode()
