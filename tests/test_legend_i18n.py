"""Legend of Heroes in other languages: the catalogue is current and complete where it must be, the spec's
strings (commands, options, choices, rules) exist in Hungarian, Greek and Japanese under Discord's rules for
localised names, placeholders agree, and English is what it always was."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.lang.catalogues import coverage, extract, required_languages
from bot.lang.catalogues import spec_texts as spec_texts_of
from rules.i18n import placeholders, using
from rules.legend.i18n import CATALOGUE, ENDINGS, SUMMARIES, _, card_title, retell
from rules.legend.spec import SPEC

LANGS = ("hu", "el", "ja")
NAME = re.compile(r"^[-_\w]{1,32}$")
#: Names several games share: every game must translate them alike (the brief's table).
SHARED = {
    ("command", "attack"): ("támadás", "επίθεση", "攻撃"),
    ("command", "explore"): ("felfedezés", "εξερεύνηση", "探索"),
    ("command", "keep"): ("megtartás", "κράτηση", "保持"),
    ("command", "sheet"): ("adatlap", "φύλλο", "シート"),
    ("command", "retreat"): ("visszavonulás", "υποχώρηση", "退却"),
    ("option", "to"): ("hova", "προς", "行き先"),
    ("option", "hero"): ("hős", "ήρωας", "英雄"),
    ("option", "order"): ("sorrend", "σειρά", "順番"),
    ("option", "mode"): ("mód", "λειτουργία", "モード"),
    ("choice", "bot"): ("Tabula", "Tabula", "Tabula"),
    ("choice", "players"): ("játékosok", "παίκτες", "プレイヤー"),
}


def spec_strings() -> Iterator[tuple[str | None, str]]:
    """Every (context, msgid) of the spec the platform shows: names, descriptions, help, rules."""
    return spec_texts_of(SPEC)


def test_the_spec_declares_english_its_book_language_and_the_three_it_is_complete_in() -> None:
    assert SPEC.languages == ("en", "hu", "el", "ja")
    assert required_languages(CATALOGUE) == ("hu", "el", "ja")


def test_the_template_is_what_the_code_and_content_say_today() -> None:
    have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in CATALOGUE.template() if m.id}
    want = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in extract(CATALOGUE) if m.id}
    assert have == want, "run `python -m bot i18n-extract`"


def test_the_content_is_in_the_catalogue() -> None:
    """Cards, heroes, spells and entrances are extracted from the data files with their contexts."""
    template = CATALOGUE.template()
    assert template.get("Ice Storm", context="spell") is not None
    assert template.get("north entrance", context="place") is not None
    assert sum(1 for m in template if m.context == "card") >= 60
    assert sum(1 for m in template if m.context == "hero") == 25


@pytest.mark.parametrize("lang", LANGS)
def test_every_spec_string_is_translated(lang: str) -> None:
    missing = [(ctx, msgid[:60]) for ctx, msgid in spec_strings() if CATALOGUE.lookup(lang, msgid, ctx) is None]
    assert not missing


@pytest.mark.parametrize("lang", LANGS)
def test_localised_names_follow_discords_rules(lang: str) -> None:
    commands: dict[str, str] = {}
    for verb in SPEC.verbs:
        name = CATALOGUE.lookup(lang, verb.name, "command")
        assert name is not None and NAME.match(name) and name.lower() == name, name
        assert commands.setdefault(name, verb.name) == verb.name, f"two commands are called {name}"
        description = CATALOGUE.lookup(lang, verb.description)
        assert description is not None and 1 <= len(description) <= 100, description
        options: set[str] = set()
        for arg in verb.args:
            option = CATALOGUE.lookup(lang, arg.name, "option")
            assert option is not None and NAME.match(option) and option.lower() == option, option
            assert option not in options, f"/{name} has two options called {option}"
            options.add(option)
            text = CATALOGUE.lookup(lang, arg.description)
            assert text is not None and 1 <= len(text) <= 100, text
    lobby: set[str] = set()
    for option in SPEC.options:
        name = CATALOGUE.lookup(lang, option.name, "option")
        assert name is not None and NAME.match(name) and name.lower() == name and name not in lobby
        lobby.add(name)
        text = CATALOGUE.lookup(lang, option.description)
        assert text is not None and len(text) <= 100, text
        for choice in option.choices:
            shown = CATALOGUE.lookup(lang, choice, "choice")
            assert shown is not None and 1 <= len(shown) <= 100
    for section in SPEC.rules:
        topic = CATALOGUE.lookup(lang, section.topic, "topic")
        assert topic is not None and NAME.match(topic) and topic.lower() == topic


def test_shared_names_are_the_agreed_ones() -> None:
    for (ctx, msgid), wanted in SHARED.items():
        assert tuple(CATALOGUE.lookup(lang, msgid, ctx) for lang in LANGS) == wanted, msgid


@pytest.mark.parametrize("lang", LANGS)
def test_no_translation_names_other_placeholders_than_english(lang: str) -> None:
    c = coverage(CATALOGUE, lang)
    assert not c.mismatched
    assert not c.fuzzy


@pytest.mark.parametrize("lang", LANGS)
def test_the_interface_is_translated(lang: str) -> None:
    """Content stays English (the book's language, other languages fall back to it text by text); the game's own
    words — tellings, prompts, refusals, labels, alt text — are all translated."""
    template = CATALOGUE.template()
    content = {"card", "hero", "spell"}
    words = [m for m in template if m.id and m.context not in content
             and not any(loc.startswith("rules/legend/data/") for loc, _line in m.locations)]
    done = [m for m in words if CATALOGUE.lookup(lang, m.id if isinstance(m.id, str) else m.id[0], m.context)]
    assert len(done) == len(words), [m.id for m in words if m not in done][:5]


def test_english_is_the_msgid_itself() -> None:
    with using("en"):
        assert _("Legend of Heroes") == "Legend of Heroes"
        assert card_title("Map Room") == "Map Room"
    with using("hu"):
        assert _("Legend of Heroes") == "Hősök legendája"
        assert card_title("Map Room") == "Térképterem"  # the cards too, since the content was translated


def test_stored_english_texts_are_told_again_in_the_language_of_the_moment() -> None:
    said = "Ann's fighter has taken 8 wounds and leaves the dungeon."
    with using("en"):
        assert retell(said, ENDINGS) == said
        assert retell("Ann wins with 30 gold pieces.", SUMMARIES) == "Ann wins with 30 gold pieces."
    for lang in LANGS:
        with using(lang):
            again = retell(said, ENDINGS)
            assert again != said and "Ann" in again and "8" in again
            assert retell("something else", ENDINGS) == "something else"


@pytest.mark.parametrize("lang", LANGS)
def test_every_translation_fills_cleanly(lang: str) -> None:
    """Each translated text formats with the English text's own fields (no stray braces)."""
    po = CATALOGUE.catalog(lang)
    assert po is not None
    for m in po:
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        fields = set().union(*(placeholders(i) for i in ids)) | {"n"}
        for s in strings:
            if s:
                s.format(**dict.fromkeys(fields, "x"))
