"""Every slash command, option and choice in Hungarian, Greek and Japanese, as Discord receives them: the loaded
bot's tree translated by its own translator the way discord.py does at sync time (``get_translated_payload``),
checked against Discord's rules for localised names and for collisions in each language.

Texts a game declares (its verbs, options, choices, title) come from that game's catalogue: they are required
once the game has one (``rules/<key>/locale/babel.cfg``); a game without a catalogue yet is shown in English."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.lang.catalogues import catalogues
from bot.lang.translator import TabulaTranslator, localise, lookup, text, valid_name
from bot.service.verbs import new_game_options, slash_verbs
from bot.store.db import Database
from rules.i18n import N_, TABULA, catalogue_of
from rules.registry import games, package_of
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory

LANGS = ("hu", "el", "ja")
DISCORD = {"hu": Locale.hungarian.value, "el": Locale.greek.value, "ja": Locale.japanese.value}


async def translated_tree(db: Database) -> list[dict[str, Any]]:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        tree = h.bot.tree
        translator = tree.translator
        assert isinstance(translator, TabulaTranslator), "setup_hook sets the translator before the sync"
        payloads = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
        synced = [dict(c) for scope in h.fake.commands.values() for c in scope.values()]
    return [*payloads, {"_synced": synced}]


@pytest.fixture
async def tree_payload(db: Database) -> dict[str, Any]:
    got = await translated_tree(db)
    return {"commands": got[:-1], "synced": got[-1]["_synced"]}


def walk(command: dict[str, Any], path: str = "") -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(kind, path, payload) for a command, its subcommands, options and choices."""
    here = f"{path}/{command['name']}"
    yield "command", here, command
    for option in command.get("options", []):
        if option.get("type") in (1, 2):  # a subcommand (group)
            yield from walk(option, here)
            continue
        yield "option", f"{here}:{option['name']}", option
        for choice in option.get("choices", []) or []:
            yield "choice", f"{here}:{option['name']}={choice['value']}", choice


def game_owned() -> set[str]:
    """Texts only games without a catalogue declare (verbs, options, choices, titles): English is all they
    have until their catalogue lands."""
    owned: set[str] = set()
    for key, rules in games().items():
        if (catalogue_of(package_of(key)).directory / "babel.cfg").exists():
            continue
        spec = rules.spec
        owned |= {spec.title}
        for verb in spec.verbs:
            owned |= {verb.name, verb.description} | {t for a in verb.args for t in (a.name, a.description)}
        for option in spec.options:
            owned |= {option.name, option.description, *option.choices}
    # ... and as the platform shows them: cut to 100 characters, prefixed with the game's title, or a shared
    # verb described by a name only its games' catalogues translate
    shown = set(owned)
    for verb in slash_verbs().values():
        if verb.msgid in owned or any(part in owned for part, _ in verb.fill.values()):
            shown.add(verb.description)
        shown |= {a.description for a in verb.args if (a.msgid or a.description) in owned}
    for o in new_game_options().values():
        if (o.msgid or o.description) in owned or any(part in owned for part, _ in o.fill.values()):
            shown.add(o.description)
    return shown


def test_the_translator_maps_discords_places_to_contexts_and_says_nothing_for_english() -> None:
    # command and option names carry their context; English and languages Tabula does not speak get none
    assert localise(app_commands.locale_str("game"), "hu", Where.command_name) == "játék"
    assert localise(app_commands.locale_str("game"), "el", Where.parameter_name) == "παιχνίδι"
    assert localise(app_commands.locale_str("24h"), "ja", Where.choice_name) == "24時間"
    assert localise(app_commands.locale_str("game"), "en", Where.command_name) is None
    assert localise(app_commands.locale_str("game"), "de", Where.command_name) is None
    # a description cut to Discord's 100 characters is looked up by its whole text
    long = N_("Open a lobby for a new game in this channel")
    cut = text(long[:20] + "…", msgid=long)
    assert localise(cut, "hu", Where.command_description) == TABULA.lookup("hu", long)
    # a name Discord would refuse is never sent (Discord would refuse the whole sync)
    assert not valid_name("Nagy Betű") and not valid_name("x" * 33) and valid_name("követés_vége")
    # the language picker's names read the same in every language
    assert localise(text("Magyar", native=True), "ja", Where.choice_name) == "Magyar"
    # the platform's catalogue is looked in first, then every game's
    assert lookup("hu", "status", "command") == "állás"


def test_the_sync_sends_the_localisations(tree_payload: dict[str, Any]) -> None:
    game = next(c for c in tree_payload["synced"] if c["name"] == "game")
    assert game["name_localizations"] == {DISCORD["hu"]: "játék", DISCORD["el"]: "παιχνίδι", DISCORD["ja"]: "ゲーム"}
    new = next(o for o in game["options"] if o["name"] == "new")
    language = next(o for o in new["options"] if o["name"] == "language")
    assert [c["name"] for c in language["choices"]] == ["English", "Magyar", "Ελληνικά", "日本語"]
    assert language["name_localizations"][DISCORD["ja"]] == "言語"


def test_every_localised_name_follows_discords_rules(tree_payload: dict[str, Any]) -> None:
    problems = []
    for command in tree_payload["commands"]:
        for kind, path, item in walk(command):
            names = item.get("name_localizations") or {}
            for locale, name in names.items():
                if kind == "choice":
                    if not 1 <= len(name) <= 100:
                        problems.append(f"{path} [{locale}] choice {name!r}: 1–100 characters")
                elif not valid_name(name):
                    problems.append(f"{path} [{locale}] {name!r}: not ^[-_\\w]{{1,32}}$ in lower case")
            for locale, description in (item.get("description_localizations") or {}).items():
                if not 1 <= len(description) <= 100:
                    problems.append(f"{path} [{locale}] description of {len(description)} characters")
    assert not problems, "\n".join(problems)


def test_no_two_names_collide_in_one_language(tree_payload: dict[str, Any]) -> None:
    problems = []

    def clash(where: str, items: list[dict[str, Any]], lang: str) -> None:
        seen: dict[str, str] = {}
        for item in items:
            shown = (item.get("name_localizations") or {}).get(DISCORD[lang], item["name"])
            if shown in seen:
                problems.append(f"{where} [{lang}]: {item['name']!r} and {seen[shown]!r} are both {shown!r}")
            seen[shown] = item["name"]

    commands = tree_payload["commands"]
    for lang in LANGS:
        clash("top level", commands, lang)
        for command in commands:
            for kind, path, item in walk(command):
                if kind == "command" and item.get("options"):
                    clash(path, item["options"], lang)
    assert not problems, "\n".join(problems)


def test_every_command_option_choice_and_description_has_hungarian_greek_and_japanese(
        tree_payload: dict[str, Any]) -> None:
    excused = game_owned()
    missing, checked = [], 0
    for command in tree_payload["commands"]:
        for kind, path, item in walk(command):
            wanted = [("name", "name_localizations")]
            if kind != "choice":
                wanted.append(("description", "description_localizations"))
            for field, where in wanted:
                english = item[field]
                if english in excused:
                    continue
                got = item.get(where) or {}
                checked += 1
                for lang in LANGS:
                    if DISCORD[lang] not in got:
                        missing.append(f"{path} {field} [{lang}]: {english!r}")
    assert not missing, f"{len(missing)} texts without a translation:\n" + "\n".join(missing[:60])
    assert checked > 120, checked  # the platform's own commands alone have this many names and descriptions


def test_the_catalogues_the_translator_reads_are_the_reports() -> None:
    # the translator reads exactly the catalogues i18n-report covers (the platform's first)
    from bot.lang.translator import domains

    reported = catalogues()
    assert reported[0] is TABULA and domains()[0] is TABULA
    assert {c.domain for c in reported} <= {c.domain for c in domains()}


def test_an_option_a_game_means_in_its_own_way_has_its_own_name(tree_payload: dict[str, Any]) -> None:
    # /program order: is a command in a programmed row (The Heroes' Road), /defend order: a sequence of body parts
    # (Champion): both keep the English name Discord sends back, and each reads as what it means in every language
    synced = {c["name"]: c for c in tree_payload["synced"]}
    names = {verb: next(o for o in synced[verb]["options"] if o["name"] == "order")["name_localizations"]
             for verb in ("program", "defend")}
    assert names["program"] == {DISCORD["hu"]: "parancs", DISCORD["el"]: "εντολή", DISCORD["ja"]: "命令"}
    assert names["defend"] == {DISCORD["hu"]: "sorrend", DISCORD["el"]: "σειρά", DISCORD["ja"]: "順番"}
    # the texts name each the way Discord lists it, and the terminal reads both names (and the shared one) back
    from rules.i18n import command_typed, english_name
    assert command_typed("/program slot:2 order:red", "hu").split(" ")[2] == "parancs:red"
    assert command_typed("/defend card:x order:torso", "hu").split(" ")[2] == "sorrend:torso"
    for lang, own in (("hu", "parancs"), ("el", "εντολή"), ("ja", "命令")):
        assert english_name(own, "option", lang, among=("slot", "order", "row")) == "order"
    assert english_name("sorrend", "option", "hu", among=("slot", "order", "row")) == "order"
    # the translator looks the command's own name up first, the shared one otherwise
    assert localise(text("order"), "hu", Where.parameter_name, "program") == "parancs"
    assert localise(text("order"), "hu", Where.parameter_name, "defend") == "sorrend"
    assert localise(text("order"), "hu", Where.parameter_name) == "sorrend"
