"""Every game is built to one layout (docs/adding-a-game.md): the same named modules in ``rules/<key>/``, with
the same meaning, a picture package ``render/<key>/`` with its ``board`` and a presenter ``bot/present/<key>.py``.
Whoever has learned one game finds the same pieces, under the same names, in the next."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from pathlib import Path

import pytest

from rules.registry import games, package_of
from rules.ruleset import GameRuleset

ROOT = Path(__file__).resolve().parent.parent
#: The games that live in this tree (a plug-in named in TABULA_GAMES keeps its own shape).
GAMES = sorted(k for k in games() if package_of(k).startswith("rules."))
#: The modules every game has, by name: a module, or a package of the same name.
MODULES = ("spec", "content", "state", "engine", "commands", "view", "telling", "auto", "search", "ruleset", "i18n")
#: Names that meant one of those concepts in an earlier layout, and must not come back beside them.
RETIRED = ("codec", "game", "story", "stories_telling", "telling_fights", "variants", "expanded", "turns", "battle",
           "table", "explore", "setup")


def test_every_game_of_this_tree_is_checked() -> None:
    assert GAMES == ["autokrator", "champion", "eiyu", "legend"]


@pytest.mark.parametrize("key", GAMES)
def test_each_game_has_the_named_modules(key: str) -> None:
    package = package_of(key)
    missing = [name for name in MODULES if importlib.util.find_spec(f"{package}.{name}") is None]
    assert missing == [], f"rules/{key}/ lacks {missing}"
    folder = ROOT / "rules" / key
    assert (folder / "engine" / "__init__.py").is_file(), "the engine is a package: rules/<key>/engine/"
    assert (folder / "RULES.md").is_file() and (folder / "locale" / "template.pot").is_file()
    assert (folder / "data").is_dir()
    stray = [name for name in RETIRED if (folder / f"{name}.py").exists()]
    assert stray == [], f"rules/{key}/ keeps an old name for a concept of the layout: {stray}"


@pytest.mark.parametrize("key", GAMES)
def test_each_named_module_holds_what_its_name_says(key: str) -> None:
    package = package_of(key)

    def module(name: str) -> object:
        return importlib.import_module(f"{package}.{name}")

    title = key.capitalize()
    ruleset = getattr(module("ruleset"), f"{title}Ruleset")
    assert issubclass(ruleset, GameRuleset)
    rules = games()[key]
    assert isinstance(rules, ruleset)
    assert inspect.isclass(module("engine").Engine)
    assert isinstance(rules.engine, module("engine").Engine)  # type: ignore[attr-defined]
    assert isinstance(rules.codec, getattr(module("commands"), f"{title}Codec"))
    assert module("spec").SPEC is rules.spec
    view = module("view")
    assert inspect.isclass(getattr(view, f"{title}View"))
    assert callable(view.build_view) and callable(view.secret_variants)
    telling = module("telling")
    assert isinstance(telling.TELLERS, dict) and callable(telling.tell)
    assert callable(module("auto").policy)
    assert callable(module("search").sample) and callable(module("search").value)
    state = module("state")
    assert getattr(state, f"{title}Action") is rules.action_type and state.State is rules.state_type
    assert getattr(state, f"{title}Event")
    i18n = module("i18n")
    assert all(callable(getattr(i18n, name)) for name in ("_", "_n", "_p", "comma", "semicolon", "and_list"))


@pytest.mark.parametrize("key", GAMES)
def test_each_game_has_its_pictures_and_its_presenter(key: str) -> None:
    render = importlib.import_module(f"render.{key}")
    assert importlib.util.find_spec(f"render.{key}.board") is not None
    assert all(callable(getattr(render, name)) for name in ("render_board", "board_alt_text", "warm"))
    present = importlib.import_module(f"bot.present.{key}")
    assert present.PRESENTER is not None
