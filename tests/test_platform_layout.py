"""The platform's folder tree shows its architecture (issue 21): bot/ holds only its entry points beside one
package a role, the cogs' shared move path is a library (not the cog that registers it), production code never
imports the tests, and an import inside a function is one of the named exceptions."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("bot", "cogs", "rules", "render")

#: bot/'s entry points: `python -m bot …`, `python -m bot.bench`, `python -m bot.arena` and `python -m bot.balance`.
ENTRY_POINTS = {"__init__.py", "__main__.py", "bench.py", "arena.py", "balance.py"}
#: One package a role.
ROLES = {"service", "store", "delivery", "longplay", "ops", "lang", "front", "present", "web"}

#: Imports inside a function, each with its reason: optional modules, and `python -m bot`'s subcommands, which
#: load only what each needs (`--help`, `migrate` and `verify` start without discord.py or the renderer).
LAZY = {
    ("bot/ops/shards.py", "fcntl"),  # POSIX only
    ("bot/front/offline.py", "readline"),  # not on every platform
    # the games' web page (Jinja2, its templates) is loaded only when it is switched on (WEB_PORT, --web)
    ("bot/front/client.py", "bot.web.server"), ("bot/front/offline.py", "bot.web.server"),
    # the operators' port (aiohttp's server half) likewise only when HEALTH_PORT is set
    ("bot/front/client.py", "bot.ops.health"),
    # Alembic (11 MB with the dialects it loads) only when a database made by an earlier release is upgraded
    ("bot/store/db.py", "alembic"), ("bot/store/db.py", "alembic.config"),
    *{("bot/__main__.py", m) for m in (
        "bot.ops.shutdown", "bot.front.client", "bot.ops.testing_endpoints", "bot.delivery.outbox", "aiohttp",
        "discord", "bot.ops.shards", "bot.store.db", "bot.ops.backup", "bot.front.offline", "bot.bench",
        "bot.ops.verify", "bot.lang.catalogues", "bot.arena")},
}


def _sources() -> list[Path]:
    return sorted(p for pkg in PRODUCT for p in (ROOT / pkg).rglob("*.py") if "migrations" not in p.parts)


def test_bot_holds_its_entry_points_and_one_package_a_role() -> None:
    bot = ROOT / "bot"
    modules = {p.name for p in bot.glob("*.py")}
    assert modules == ENTRY_POINTS, f"modules at bot/'s top level besides the entry points: {modules - ENTRY_POINTS}"
    packages = {p.name for p in bot.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages == ROLES, packages ^ ROLES
    for role in ROLES:
        doc = ast.get_docstring(ast.parse((bot / role / "__init__.py").read_text()))
        assert doc, f"bot/{role}/__init__.py says what the package is for"


def _cog_classes(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    return [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            and any("Cog" in ast.unparse(base) for base in node.bases)]


def test_the_move_path_is_a_library_and_its_cog_is_apart() -> None:
    library = ROOT / "cogs" / "components.py"
    assert not _cog_classes(library), "cogs/components.py is the move-path library: no cog in it"
    assert "async def setup(" not in library.read_text(), "cogs/components.py is not an extension"
    assert _cog_classes(ROOT / "cogs" / "controls.py") == ["Controls"]


def test_production_code_never_imports_the_tests() -> None:
    offenders = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "tests" or n.startswith("tests.") for n in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, offenders


def _platform(path: Path) -> bool:
    """bot/ (but a game's presenter), cogs/, and the shared modules at rules/ and render/'s top level."""
    rel = path.relative_to(ROOT)
    if rel.parts[0] in ("rules", "render"):
        return len(rel.parts) == 2
    return not (rel.parts[:2] == ("bot", "present") and rel.stem not in ("__init__", "base"))


def test_imports_inside_platform_functions_are_the_named_exceptions() -> None:
    found = set()
    for path in filter(_platform, _sources()):
        rel = str(path.relative_to(ROOT))
        for func in ast.walk(ast.parse(path.read_text())):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Import):
                    found |= {(rel, a.name) for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module:
                    found.add((rel, node.module))
    assert found <= LAZY, f"imports inside a function that avoid no cycle (move them to the top): {found - LAZY}"
