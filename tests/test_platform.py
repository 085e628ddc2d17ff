"""The seam between the platform and the games, checked: no platform file names a game, presenters read
views and never raw state, no module imports a cog except the cogs, no import cycles, the command list stays
short, and a control id Discord would refuse is refused where it is built."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.present.base import Button, Menu, Prompt
from bot.service.verbs import DISCORD_COMMAND_LIMIT, command_count, slash_verbs
from bot.store.db import Database
from rules.registry import games
from rules.spec import Command

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "rules", "render")


def _sources() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py") if "migrations" not in p.parts)


def _is_game_file(path: Path) -> bool:
    rel = path.relative_to(ROOT)
    keys = set(games())
    if rel.parts[0] in ("rules", "render") and len(rel.parts) > 2 and rel.parts[1] in keys:
        return True
    return rel.parts[:2] == ("bot", "present") and rel.stem in keys


def test_no_platform_file_names_a_game() -> None:
    words = set()
    for key, rules in games().items():
        words |= {key, rules.spec.title}
    pattern = re.compile("|".join(rf"\b{re.escape(w)}\b" for w in sorted(words)), re.IGNORECASE)
    offenders = []
    for path in _sources():
        if _is_game_file(path):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_no_game_reaches_into_the_platform() -> None:
    for path in _sources():
        rel = path.relative_to(ROOT)
        if rel.parts[0] not in ("rules", "render"):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] not in ("bot", "cogs"), f"{rel} imports {node.module}"


def test_presenters_read_views_never_raw_state() -> None:
    for key in games():
        path = ROOT / "bot" / "present" / f"{key}.py"
        if not path.exists():
            continue
        text = path.read_text()
        assert not re.search(r"\b(moment|result)\.(_?state|rules)\b", text), f"{path.name} reads raw state"
        assert "bot.service.play" not in text, f"{path.name} imports the service"


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Project modules a file imports at run time (imports under ``if TYPE_CHECKING`` do not count;
    ``from package import module`` counts as importing the module)."""
    tree = ast.parse(path.read_text())
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only |= {id(n) for n in ast.walk(node)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = [f"{node.module}.{a.name}" for a in node.names]
            names = [n for n in subs if n in modules]
            if len(names) < len(subs):
                names.append(node.module)
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found |= {n for n in names if n.split(".")[0] in PACKAGES}
    return found


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


@pytest.mark.slow
def test_no_import_cycles_and_the_client_imports_no_cog() -> None:
    modules = {_module(p): p for p in _sources()}
    graph = {m: {i for i in _imports(p, set(modules)) if i in modules and i != m} for m, p in modules.items()}
    assert not any(i.startswith("cogs") for i in graph["bot.front.client"]), graph["bot.front.client"]
    for m, deps in graph.items():
        if m.startswith(("bot", "rules", "render")):
            assert not any(d.startswith("cogs") for d in deps), f"{m} imports a cog"
    # Tarjan's strongly connected components: any component of more than one module is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    assert not cycles, cycles


async def test_the_command_list_stays_short(db: Database) -> None:
    """What a server really sees: every top-level command of the loaded bot (the verbs, `/game`, and the
    platform's own `/help`, `/rules`, `/notify`, `/stats`, `/leaderboard`)."""
    from tests.fakediscord import FakeDiscordHarness
    from tests.tabula_harness import bot_factory

    async with FakeDiscordHarness(bot_factory(db)) as h:
        top = sorted(c.name for c in h.bot.tree.get_commands())
        game = h.bot.tree.get_command("game")
    assert command_count() <= len(top) <= 40, top  # every game we have, well under Discord's 100
    assert len(top) < DISCORD_COMMAND_LIMIT
    assert game is not None and len(game.commands) <= 25, "a command group holds at most 25 subcommands"
    for verb in slash_verbs().values():
        assert 1 <= len(verb.description) <= 100 and re.fullmatch(r"[a-z]{1,32}", verb.name)


def test_a_control_id_discord_would_refuse_is_refused_where_it_is_built() -> None:
    from cogs.components import controls

    long = Command.of("explore", path=">".join(["mauretania-tingitana"] * 8))
    with pytest.raises(ValueError, match="Discord's limit"):
        controls(1, 1, Prompt(users=[], text="", buttons=[Button("Go", command=long)]))
    with pytest.raises(ValueError, match="Discord's limit"):
        controls(1, 1, Prompt(users=[], text="", menus=[Menu([("Go", long)])]))
    fine = controls(1, 1, Prompt(users=[], text="", buttons=[Button("Go", command=Command.of("explore", to="D7"))]))
    assert fine is not None
