"""The README's commands are the contract: this test runs them as a newcomer would, on a clean copy of the
repository.

A fenced block that follows ``<!-- readme-test: NAME -->`` is read command by command, so an edit to the README
changes what runs here:

* ``try``: the install line and the first game, answering each prompt with the first move it offers;
* ``discord``: `.env.example` copied unchanged, a token put in as a person would, and the bot started against
  the loopback Discord until it is ready and answers a slash command;
* ``games``: each of the other games' commands starts its game.

The virtual environment the README makes is created by the Python that runs these tests and installs from what
that Python already has (no index, no build isolation): no network, about half a minute.  A test of the test
breaks a command in a copy of the README and sees the run fail.  The rest checks what the README and the
deployment files name: every `python -m bot` subcommand, every setting, every link."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.ops.config import Settings
from bot.ops.testing_endpoints import ENV_VAR
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"<!--\s*readme-test:\s*([\w-]+)\s*-->\s*\n```[\w-]*\n(.*?)```", re.DOTALL)
#: Variables the deployment files may set that are not Tabula's settings: the process's and Python's own.
PROCESS_VARIABLES = {"MALLOC_ARENA_MAX", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PATH",
                     "TABULA_GAMES"}  # TABULA_GAMES: the games to load, read from the environment by rules.registry
#: The moves typed in the first game, each the first one the prompt offers.
MOVES = 3


def blocks(readme: str) -> dict[str, list[str]]:
    """The marked blocks' commands, in order (blank lines and comments left out)."""
    found: dict[str, list[str]] = {}
    for name, body in BLOCK.findall(readme):
        lines = (re.sub(r"(^|\s+)#\s.*$", "", line).strip() for line in body.splitlines())
        found[name] = [line for line in lines if line]
    return found


def shipped() -> list[str]:
    """The repository's files as a clone has them (with files not committed yet, unless git ignores them)."""
    if (ROOT / ".git").exists() and shutil.which("git"):
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, check=True).stdout.decode().split("\0")
        return sorted({name for name in listed if name and (ROOT / name).is_file()})
    skip = {".venv", ".git", "__pycache__", "tabula-images", ".pytest_cache", ".hypothesis", ".ruff_cache"}
    return sorted(str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                  if p.is_file() and not skip & set(p.relative_to(ROOT).parts))


def checkout(dest: Path) -> Path:
    for name in shipped():
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    return dest


def shell_env(work: Path) -> dict[str, str]:
    """A shell as a newcomer's, whose `python3` is the Python running these tests and whose new virtual
    environments see the packages it has (Tabula's own left out), so `pip install -e .` needs no network."""
    deps, bin_dir = work / "deps", work / "bin"
    deps.mkdir(exist_ok=True)
    bin_dir.mkdir(exist_ok=True)
    ours = ("tabula", "__editable__", "bot", "cogs", "rules", "render")
    for site in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}:
        for entry in Path(site).iterdir():
            if entry.name.startswith(ours) or entry.suffix == ".pth" or (deps / entry.name).exists():
                continue
            (deps / entry.name).symlink_to(entry)
    base = Path(getattr(sys, "_base_executable", sys.executable)).resolve()
    python3 = bin_dir / "python3"
    if not python3.exists():
        python3.symlink_to(base)
    here = Path(sys.prefix) / "bin"
    path = [str(bin_dir)] + [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and Path(p) != here]
    settings = {name.upper() for name in Settings.model_fields} | {"NARRATOR_TIMEOUT_MINUTES"}
    env = {k: v for k, v in os.environ.items()
           if k not in settings and k not in (ENV_VAR, "VIRTUAL_ENV", "PYTHONHOME", "PYTHONPATH")}
    env.update({"PATH": os.pathsep.join(path), "PYTHONPATH": str(deps), "PIP_NO_INDEX": "1",
                "PIP_NO_BUILD_ISOLATION": "0",  # pip reads "0" here as: build without isolation
                "PIP_DISABLE_PIP_VERSION_CHECK": "1", "HOME": str(work / "home")})
    (work / "home").mkdir(exist_ok=True)
    return env


# --- running the "try" block ---------------------------------------------------------------------------------


@dataclass
class Played:
    code: int
    transcript: str


class Reader:
    """The output of a process, read as it comes, with a deadline."""

    def __init__(self, proc: subprocess.Popen[bytes], seconds: float) -> None:
        assert proc.stdout is not None
        self.proc, self.deadline, self.text = proc, time.monotonic() + seconds, b""
        self.selector = selectors.DefaultSelector()
        self.selector.register(proc.stdout, selectors.EVENT_READ)

    def until(self, marker: bytes, start: int = 0) -> int:
        """Read until ``marker`` appears after ``start``; where it ends (or -1 when the process ended first)."""
        while (at := self.text.find(marker, start)) < 0:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("the README's commands did not finish in time:\n" + self.decoded()[-3000:])
            if not self.selector.select(timeout=min(left, 1.0)):
                continue
            assert self.proc.stdout is not None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return -1
            self.text += chunk
        return at + len(marker)

    def decoded(self) -> str:
        return self.text.decode(errors="replace")


def offered(chunk: str) -> str | None:
    """The first command a prompt offers (`D1 — by the north entrance  → /explore to:D1`)."""
    for line in chunk.splitlines():
        found = re.search(r"→ (/.+?)(?: \(only that player should look\))?$", line)
        if found:
            return found.group(1)
    return None


def run_try(folder: Path, env: dict[str, str], commands: list[str], seconds: float = 300.0) -> Played:
    """The block as one shell script; at the game's prompts, the first move offered, `/game status`, `/quit`."""
    script = folder / "readme-try.sh"
    script.write_text("set -e\n" + "\n".join(commands) + "\n", encoding="utf-8")
    proc = subprocess.Popen(["bash", str(script)], cwd=folder, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    assert proc.stdin is not None
    read = Reader(proc, seconds)
    try:
        typed = [*(None for _ in range(MOVES)), "/game status", "/quit"]
        at = read.until("Tabula — ".encode())
        for line in typed:
            if at < 0:
                break
            prompt = read.until(b"\n> ", at)
            if prompt < 0:
                break
            move = line or offered(read.decoded()[len(read.text[:at].decode(errors="replace")):])
            assert move, "the prompt offered nothing to type:\n" + read.decoded()[-2000:]
            proc.stdin.write(move.encode() + b"\n")
            proc.stdin.flush()
            read.text += b"<typed " + move.encode() + b">"
            at = prompt
        proc.stdin.close()
        read.until(b"\0will-not-appear")
        code = proc.wait(timeout=max(read.deadline - time.monotonic(), 1))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return Played(code, read.decoded())


def check_try(folder: Path, env: dict[str, str], played: Played) -> None:
    text = played.transcript
    assert played.code == 0, f"exit {played.code}:\n{text[-3000:]}"
    assert "Tabula — " in text, text[-3000:]
    answers = text.split("<typed ")[1:]
    assert len(answers) == MOVES + 2, text[-3000:]
    for answer in answers[:MOVES]:
        assert "\n✋" not in answer.split("\n> ", 1)[0], answer[:500]  # each move offered is accepted
    assert "Stopped. The game is kept" in text
    pictures = list((folder / "tabula-images").glob("game-*/*.png"))
    assert pictures, "no picture was written"
    # The install line installed Tabula: its python finds the package from anywhere, not only from the folder.
    found = subprocess.run([str(folder / ".venv" / "bin" / "python"), "-c", "import bot; print(bot.__file__)"],
                           cwd=folder.parent, env=env, capture_output=True, text=True, timeout=60)
    assert found.returncode == 0 and Path(found.stdout.strip()).resolve().is_relative_to(folder.resolve()), found


# --- running the "discord" block -----------------------------------------------------------------------------


async def run_discord(folder: Path, env: dict[str, str], commands: list[str]) -> str:
    """The block's commands up to the bot, the token put in `.env`, then the bot until it answers `/game new`."""
    assert commands and re.fullmatch(r"python3? -m bot( run)?", commands[-1]), commands
    before = folder / "readme-discord-setup.sh"
    before.write_text("set -e\n" + "\n".join(commands[:-1]) + "\n", encoding="utf-8")
    setup = subprocess.run(["bash", str(before)], cwd=folder, env=env, capture_output=True, text=True, timeout=120)
    assert setup.returncode == 0, setup.stdout + setup.stderr
    dotenv, example = folder / ".env", folder / ".env.example"
    assert dotenv.exists(), "the README's commands made no .env"
    assert dotenv.read_bytes() == example.read_bytes(), ".env is not .env.example copied unchanged"
    async with FakeDiscord() as fake:
        lines = dotenv.read_text(encoding="utf-8").splitlines()
        assert lines.count("DISCORD_TOKEN=") == 1, "no empty DISCORD_TOKEN= line to put the token after"
        dotenv.write_text("\n".join(f"DISCORD_TOKEN={fake.token}" if line == "DISCORD_TOKEN=" else line
                                    for line in lines) + "\n", encoding="utf-8")
        activate = [c for c in commands[:-1] if c.startswith((". ", "source "))]
        start = folder / "readme-discord-start.sh"
        start.write_text("\n".join([*activate, "exec " + commands[-1]]) + "\n", encoding="utf-8")
        proc = await asyncio.create_subprocess_exec("bash", str(start), cwd=folder, env={**env, ENV_VAR: fake.url},
                                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            await _connected(fake, proc)
            for _ in range(200):  # commands are synced in setup_hook, just before the gateway connects
                if fake.find_command("game") is not None:
                    break
                await asyncio.sleep(0.05)
            answer = await fake.interact(fake.slash(fake.alice, fake.channel, "game", {"game": "legend"},
                                                    subcommand="new"))
            assert answer.embeds and "lobby" in answer.embeds[0]["title"], answer
        finally:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGTERM)
            _, err_bytes = await asyncio.wait_for(proc.communicate(), timeout=30)
    log = err_bytes.decode(errors="replace")
    assert proc.returncode == 0, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    return log


async def _connected(fake: FakeDiscord, proc: asyncio.subprocess.Process) -> None:
    """Until the bot is on the loopback gateway; a bot that stops first fails with its own last lines."""
    connected = asyncio.ensure_future(fake.wait_until_connected(timeout=60))
    exited = asyncio.ensure_future(proc.wait())
    await asyncio.wait({connected, exited}, return_when=asyncio.FIRST_COMPLETED)
    if not connected.done():
        connected.cancel()
        assert proc.stderr is not None
        said = (await proc.stderr.read()).decode(errors="replace")
        raise AssertionError(f"the bot stopped (exit {proc.returncode}) before it connected:\n{said[-3000:]}")
    exited.cancel()
    connected.result()


# --- the tests -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tried(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str], Played]]:
    """A clean copy of the repository where the README's "try" block has run once."""
    work = tmp_path_factory.mktemp("readme")
    folder = checkout(work / "tabula")
    env = shell_env(work)
    played = run_try(folder, env, blocks((folder / "README.md").read_text(encoding="utf-8"))["try"])
    yield folder, env, played


def test_the_readme_marks_the_blocks_it_runs() -> None:
    found = blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert set(found) >= {"try", "discord"}, found
    assert len(found["try"]) == 2, found["try"]  # the first game, two commands after the clone
    assert "pip install -e ." in found["try"][0] and "venv" in found["try"][0]
    assert found["try"][1].startswith("python -m bot play ")
    assert "cp .env.example .env" in found["discord"]


@pytest.mark.slow
def test_try_it_on_a_clean_checkout(tried: tuple[Path, dict[str, str], Played]) -> None:
    folder, env, played = tried
    check_try(folder, env, played)


@pytest.mark.slow
async def test_run_it_on_discord_from_env_example_and_a_token(tried: tuple[Path, dict[str, str], Played]) -> None:
    folder, env, played = tried
    assert played.code == 0, played.transcript[-2000:]
    commands = blocks((folder / "README.md").read_text(encoding="utf-8"))["discord"]
    await run_discord(folder, env, commands)


@pytest.mark.slow
async def test_a_broken_readme_command_fails_the_readme_test(tried: tuple[Path, dict[str, str], Played]) -> None:
    folder, env, _played = tried
    readme = (folder / "README.md").read_text(encoding="utf-8")
    try_block = blocks(readme)["try"]
    broken_play = [*try_block[:-1], try_block[-1].replace("--players", "--plyers", 1)]
    assert broken_play != try_block
    with pytest.raises(AssertionError):
        check_try(folder, env, run_try(folder, env, broken_play))
    discord_block = blocks(readme)["discord"]
    broken_env = [c.replace("cp .env.example .env", "cp .env.example .env.local") for c in discord_block]
    assert broken_env != discord_block
    (folder / ".env").unlink(missing_ok=True)
    with pytest.raises(AssertionError):
        await run_discord(folder, env, broken_env)
    broken_run = [*discord_block[:-1], "python -m bot runn"]
    with pytest.raises(AssertionError):
        await run_discord(folder, env, broken_run)


@pytest.mark.slow
def test_the_other_games_start_as_written(tried: tuple[Path, dict[str, str], Played]) -> None:
    folder, env, played = tried
    assert played.code == 0, played.transcript[-2000:]
    commands = blocks((folder / "README.md").read_text(encoding="utf-8"))["games"]
    assert len(commands) >= 3 and all(c.startswith("python -m bot play ") for c in commands), commands
    for command in commands:
        run = subprocess.run(["bash", "-c", f". .venv/bin/activate && {command}"], cwd=folder, env=env,
                             input="/quit\n", capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, (command, run.stdout[-2000:], run.stderr[-2000:])
        assert "Tabula — " in run.stdout and "✋" not in run.stdout.split("\n> ", 1)[0], (command, run.stdout[:2000])


def _docs() -> dict[str, str]:
    names = ["README.md", "CHANGELOG.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]
    return {name: (ROOT / name).read_text(encoding="utf-8") for name in names}


@pytest.mark.slow
def test_every_python_m_bot_command_the_docs_name_is_in_help() -> None:
    shown = subprocess.run([sys.executable, "-m", "bot", "--help"], cwd=ROOT, capture_output=True, text=True,
                           timeout=60, check=True).stdout
    listed = set(re.search(r"\{([\w,-]+)\}", shown).group(1).split(","))  # type: ignore[union-attr]
    named = {m for text in _docs().values() for m in re.findall(r"python -m bot ([a-z][\w-]*)", text)}
    assert named, "the docs name no subcommand"
    assert named <= listed, named - listed
    assert {"play", "bench", "migrate", "backup", "restore", "verify", "i18n-report"} <= listed


def test_links_point_at_files_that_ship() -> None:
    files = set(shipped())
    wrong: list[str] = []
    for name, text in _docs().items():
        assert "shared/rules" not in text, f"{name} names the shared folder, which a clone does not have"
        here = (ROOT / name).parent
        for target in re.findall(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"", text):
            link = next(t for t in target if t)
            if re.match(r"[a-z]+:", link):
                continue
            file, _hash, anchor = link.partition("#")
            path = (here / file).resolve() if file else (ROOT / name).resolve()
            if str(path.relative_to(ROOT.resolve())) not in files and not (path.is_dir() and path.exists()):
                wrong.append(f"{name}: {link}")
            elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
                wrong.append(f"{name}: {link} (no such heading)")
    assert not wrong, wrong


def _anchors(page: Path) -> set[str]:
    """The ids GitHub gives a page's headings (`## Try it offline` → `try-it-offline`)."""
    heads = re.findall(r"^#+ (.*)$", page.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


def test_the_readme_is_short_enough_to_read_before_a_first_game() -> None:
    words = len((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert words < 2500, f"{words} words: move reference material to a page in docs/"


def _settings() -> set[str]:
    return {name.upper() for name in Settings.model_fields} | {"NARRATOR_TIMEOUT_MINUTES"}


def test_deployment_files_name_only_settings_that_exist() -> None:
    named: dict[str, set[str]] = {}
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    bot = compose.split("\n  bot:\n", 1)[1].split("\nvolumes:", 1)[0]
    environment = bot.split("    environment:\n", 1)[1]
    named["compose.yaml"] = set(re.findall(r"^ {6}([A-Z][A-Z0-9_]*):", environment, re.MULTILINE))
    assert "env_file: .env" in bot
    unit = (ROOT / "deploy" / "tabula.service").read_text(encoding="utf-8")
    named["deploy/tabula.service"] = set(re.findall(r"^Environment=([A-Z][A-Z0-9_]*)=", unit, re.MULTILINE))
    docker = (ROOT / "Dockerfile").read_text(encoding="utf-8").split("FROM ")[-1]
    env_block = re.search(r"^ENV (.*?)(?=^\S)", docker, re.MULTILINE | re.DOTALL)
    assert env_block is not None
    named["Dockerfile"] = set(re.findall(r"([A-Z][A-Z0-9_]*)=", env_block.group(1)))
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    named[".env.example"] = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]*)=", example, re.MULTILINE))
    known = _settings() | PROCESS_VARIABLES
    for file, names in named.items():
        assert names, file
        assert names <= known, (file, names - known)
    # .env.example lists every setting (the old name of the turn timeout aside)
    assert {n.upper() for n in Settings.model_fields} <= named[".env.example"], \
        {n.upper() for n in Settings.model_fields} - named[".env.example"]
