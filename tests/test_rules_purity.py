"""rules/ is pure: it imports nothing from Discord, Pillow, the database layer or asyncio."""

from __future__ import annotations

import ast
from pathlib import Path

FORBIDDEN = {"discord", "PIL", "sqlmodel", "sqlalchemy", "asyncio", "aiosqlite", "bot", "cogs", "render"}
ROOT = Path(__file__).resolve().parent.parent / "rules"


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_rules_import_nothing_impure() -> None:
    files = sorted(ROOT.rglob("*.py"))
    assert files
    for path in files:
        bad = imported_roots(path) & FORBIDDEN
        assert not bad, f"{path.relative_to(ROOT.parent)} imports {sorted(bad)}"
