"""Commands named inside texts: a text that says what to type (``use `/voyage to:` to sail``) names each command
and option the way the reader's Discord shows them, in every language, and the terminal takes them typed that
way.  The English texts name only commands and options that exist, every translated text is left with no English
command name that its language renames, the names in texts are exactly the names registered with Discord, and
one English name has one translation in every catalogue that has it."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import pytest

from bot.front.offline import TERMINAL_ONLY, parse_command
from bot.lang.catalogues import catalogues
from bot.store.db import open_database
from rules.core import Rng, SeatInfo, seed_state
from rules.i18n import command_typed, commands_named, english_name, using
from rules.registry import games
from tests.test_i18n_commands import DISCORD, LANGS, translated_tree

#: A reference in an English text: a backticked ``/command …`` or a bare ``/command``.
SPAN = re.compile(r"`(/[^`\n]*)`")
BARE = re.compile(r"(?<![\w/`.:])/([a-z][a-z_]*)(?![\w/])")


def _messages() -> list[tuple[Any, Any]]:
    """(catalogue, message) for every English text of every catalogue."""
    return [(cat, m) for cat in catalogues() for m in cat.template() if m.id]


def _ids(message: Any) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)


@pytest.fixture(scope="module")
def tree() -> dict[str, dict[str, Any]]:
    """Every command path as Discord receives it (``game status``, ``voyage``) → its payload."""
    import asyncio
    import tempfile
    from pathlib import Path

    async def build() -> list[dict[str, Any]]:
        with tempfile.TemporaryDirectory() as folder:
            db = await open_database(f"sqlite+aiosqlite:///{Path(folder) / 'tree.db'}")
            try:
                return (await translated_tree(db))[:-1]
            finally:
                await db.close()

    found: dict[str, dict[str, Any]] = {}
    for command in asyncio.run(build()):
        found[command["name"]] = command
        for sub in command.get("options", []):
            if sub.get("type") == 1:
                found[f"{command['name']} {sub['name']}"] = sub
    return found


def test_every_command_and_option_an_english_text_names_exists(tree: dict[str, dict[str, Any]]) -> None:
    """Slash commands as registered, and verbs only menus, buttons and the terminal reach (``slash=False``)."""
    wrong: list[str] = []
    terminal = {t.split()[0] for t in TERMINAL_ONLY}
    tree = dict(tree)
    for rules in games().values():
        for verb in rules.spec.verbs:
            have = tree[verb.name] = dict(tree.get(verb.name, {"name": verb.name}))  # the fixture stays as it is
            have["options"] = [*have.get("options", []), *({"name": a.name} for a in verb.args)]
    for cat, message in _messages():
        for text in _ids(message):
            for span in SPAN.findall(text):
                words = span.split(" ")
                head = words[0][1:]
                if "{" in head or (head in terminal and head not in tree):
                    continue
                path = f"{head} {words[1]}" if len(words) > 1 and f"{head} {words[1]}" in tree else head
                if path not in tree:
                    wrong.append(f"{cat.domain}: `{span}` names no command: {text[:80]!r}")
                    continue
                options = {o["name"] for o in tree[path].get("options", [])}
                for word in words[len(path.split(" ")):]:
                    name = word.partition(":")[0]
                    if ":" in word and re.fullmatch(r"[a-z_]+", name) and name not in options:
                        wrong.append(f"{cat.domain}: `{span}`: /{path} has no option {name!r}: {text[:80]!r}")
            for head in BARE.findall(SPAN.sub("", text)):
                if head not in tree and head not in terminal:
                    wrong.append(f"{cat.domain}: /{head} names no command: {text[:80]!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGS)
def test_a_text_names_commands_and_options_exactly_as_discord_shows_them(
        tree: dict[str, dict[str, Any]], lang: str) -> None:
    locale = DISCORD[lang]

    def shown(payload: dict[str, Any]) -> str:
        return str(payload.get("name_localizations", {}).get(locale) or payload["name"])

    for path, payload in tree.items():
        words = path.split(" ")
        local = [shown(tree[words[0]]), shown(payload)] if len(words) > 1 else [shown(payload)]
        assert commands_named(f"`/{path}`", lang) == f"`/{' '.join(local)}`", path
        for option in payload.get("options", []):
            if option.get("type") in (1, 2):
                continue
            assert commands_named(f"`/{path} {option['name']}:`", lang) == f"`/{' '.join(local)} {shown(option)}:`", \
                (path, option["name"])


def test_one_english_name_has_one_translation_in_every_catalogue() -> None:
    """Discord registers a shared verb or option once; every game's texts must name it the same way."""
    for lang in LANGS:
        seen: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
        for cat in catalogues():
            po = cat.catalog(lang)
            for m in po or ():
                if m.context in ("command", "option", "choice") and m.string:
                    seen[(m.context, m.id)][cat.domain] = m.string
        split = {k: v for k, v in seen.items() if len(set(v.values())) > 1}
        assert not split, (lang, split)


@pytest.mark.parametrize("lang", LANGS)
def test_no_translated_text_is_left_naming_a_command_in_english(tree: dict[str, dict[str, Any]], lang: str) -> None:
    renamed = {name for name in tree if " " not in name
               and tree[name].get("name_localizations", {}).get(DISCORD[lang], name) != name}
    assert len(renamed) > 30
    left: list[str] = []
    checked = 0
    with using(lang):
        for cat, message in _messages():
            ids = _ids(message)
            if not any("/" in i for i in ids):
                continue
            if len(ids) > 1:
                told = cat.ngettext(ids[0], ids[1], 2)
            elif message.context:
                told = cat.pgettext(message.context, ids[0])
            else:
                told = cat.gettext(ids[0])
            checked += 1
            heads = [s.split(" ")[0][1:] for s in SPAN.findall(told)] + BARE.findall(SPAN.sub("", told))
            left += [f"{cat.domain}: /{h} in {told[:90]!r}" for h in heads if h in renamed]
    assert checked > 150
    assert not left, "\n".join(left)


def _some_commands(key: str, moves: int = 80) -> list[Any]:
    """Every legal command at each of the first ``moves`` positions of a game Tabula plays."""
    rules = games()[key]
    spec = rules.spec
    players, options = ((spec.bench[0].players, dict(spec.bench[0].options)) if spec.bench
                        else (spec.min_players, {}))
    seats = [SeatInfo(index=i, name=f"P{i}") for i in range(players)]
    state = rules.setup(seats, rules.check_options(options, players), 5).state
    rng = Rng(seed_state(5))
    found: dict[str, Any] = {}
    for _move in range(moves):
        if rules.outcome(state) is not None:
            break
        seat = sorted(rules.to_act(state))[0]
        for action in rules.legal(state, seat):
            command = rules.codec.encode(state, seat, action)
            found.setdefault(command.typed(), command)
        action = rules.policy(state, seat, rng) or next(iter(rules.legal(state, seat)))
        state = rules.apply(state, seat, action).state
    return list(found.values())


@pytest.mark.parametrize("key", sorted(games()))
def test_the_terminal_takes_a_command_typed_as_the_language_names_it(key: str) -> None:
    spec = games()[key].spec
    free = tuple(a.name for v in spec.verbs for a in v.args if a.free_text)
    verbs = {v.name: tuple(a.name for a in v.args) for v in spec.verbs}
    commands = _some_commands(key)
    assert len(commands) > 10
    for lang in LANGS:
        with using(lang):
            renamed = 0
            for command in commands:
                local = command_typed(command.typed())
                renamed += local != command.typed()
                assert parse_command(local, free, verbs) == (command.verb, dict(command.args)), (lang, local)
                assert parse_command(command.typed(), free, verbs) == (command.verb, dict(command.args))  # English too
            assert renamed == len(commands), (lang, key)
            assert english_name(command_typed("/game")[1:], "command") == "game"
