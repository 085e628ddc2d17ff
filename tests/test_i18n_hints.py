"""Value hints in the reader's words: every game's `/help` and rules pages, in Hungarian, Greek and Japanese, show
each option and each value of a hint (`/commission reward:xp|gold`, `foe:`, `order:torso,hand,leg`, `mode:east`)
as the language names it, composed from the games' declarations; and what a hint shows can be typed, in any
language the game speaks, and reaches the game as its English word."""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import pytest

from bot.front.offline import add_arguments, play
from bot.service.guide import help_text, rules_page, sections
from rules.i18n import using
from rules.registry import AnyRuleset, games
from rules.spec import Command
from rules.values import declares, english_command, english_value, fold, word_name

LANGS = ("hu", "el", "ja")
_SPAN = re.compile(r"`([^`\n]*)`")
_NAMED = re.compile(r"([^\W\d][\w-]*):\s?(.*)", re.DOTALL)
_WORDS = re.compile(r"[,|>+@、\s]+")
#: Tokens that read the same in every language: dice, numbers and map squares, Tabula's own name.
UNTRANSLATABLE = re.compile(r"^(\d*d\d+([+-]\d+)?|[A-Z]?\d+|Tabula|…)$")


def texts(rules: AnyRuleset) -> list[str]:
    """What `/help` and `/rules` show for a game, in the current language."""
    return [help_text(rules), *(rules_page(rules, i).text() for i in range(len(sections(rules))))]


def hint_words(text: str) -> set[str]:
    """The option names and value words of every hint in ``text`` (command names aside)."""
    found: set[str] = set()
    for span in _SPAN.findall(text):
        parts = span.split(" ")[1:] if span.startswith("/") else [span]
        for part in parts:
            named = _NAMED.fullmatch(part)
            if named:
                found.add(named[1])
                part = named[2]
            elif span.startswith("/"):
                continue
            found |= {w for w in _WORDS.split(part) if w}
    return found


def english_hints(rules: AnyRuleset) -> set[str]:
    with using("en"):
        return {w for t in texts(rules) for w in hint_words(t) if not UNTRANSLATABLE.match(w)}


def same_in(rules: AnyRuleset, word: str, lang: str) -> bool:
    """A name the language writes as English does (Legend's Rolf in Hungarian), by the game's own catalogue."""
    key = rules.spec.key
    return any(declares(key, a, word) and word_name(key, a, word, lang) == word
               for v in rules.spec.verbs for a in v.args)


@pytest.mark.parametrize("key", sorted(games()))
@pytest.mark.parametrize("lang", LANGS)
def test_no_english_value_hint_is_left_in_a_translated_help(key: str, lang: str) -> None:
    rules = games()[key]
    english = english_hints(rules)
    assert english, "every game's help has hints to check"
    with using(lang):
        left = sorted({w for t in texts(rules) for w in hint_words(t) if w in english and not same_in(rules, w, lang)})
    assert not left, f"{key} [{lang}]: English left in hints: {left}"


def test_the_hints_the_issue_named_read_in_each_language() -> None:
    champion, eiyu, autokrator = games()["champion"], games()["eiyu"], games()["autokrator"]
    with using("hu"):
        assert "`/megbízás jutalom:tapasztalat|arany`" in help_text(champion)
        assert "`sorrend:törzs,kéz,láb`" in help_text(champion) and "`ellenfél:`" in help_text(champion)
    with using("ja"):
        assert "`/プログラム 行動列:行動,赤,…`" in help_text(eiyu)
        assert "`/プログラム スロット: 命令:`" in help_text(eiyu)
    with using("el"):
        assert "`/ανακωχή απάντηση:ναι|όχι`" in help_text(autokrator)
        assert "`/πάσο μονάδα:γύρος`" in help_text(autokrator)
    with using("en"):  # English is what the games declare, untouched
        assert "`/commission reward:xp|gold`" in help_text(champion)


def test_every_declared_word_has_a_distinct_typeable_name_in_every_language() -> None:
    problems = []
    for key, rules in games().items():
        for verb in rules.spec.verbs:
            for arg in verb.args:
                if not arg.values:
                    continue
                for lang in (*LANGS, "en"):
                    named = [word_name(key, arg, w, lang) for w in arg.values]
                    if lang != "en" and named == list(arg.values):
                        problems.append(f"{key} /{verb.name} {arg.name} [{lang}]: untranslated")
                    if len({fold(n) for n in named}) != len(named):
                        problems.append(f"{key} /{verb.name} {arg.name} [{lang}]: two words alike: {named}")
                    if any(not n or re.search(r"[\s,|>+@、:]", n) for n in named):
                        problems.append(f"{key} /{verb.name} {arg.name} [{lang}]: not one typeable word: {named}")
                    clash = [n for n, w in zip(named, arg.values, strict=True)
                             if fold(n) in {fold(v) for v in arg.values} and fold(n) != fold(w)]
                    if clash:
                        problems.append(f"{key} /{verb.name} {arg.name} [{lang}]: {clash} is another English word")
    assert not problems, "\n".join(problems)


def test_a_value_typed_in_any_language_reaches_the_game_in_english() -> None:
    champion, eiyu, autokrator = (games()[k] for k in ("champion", "eiyu", "autokrator"))
    assert english_command(champion, Command.of("commission", reward="arany")) == Command.of("commission",
                                                                                           reward="gold")
    assert english_command(champion, Command.of("commission", reward="金貨")).get("reward") == "gold"
    assert english_command(champion, Command.of("defend", card="κορμός", order="fej, láb")).mapping == {
        "card": "torso", "order": "head,leg"}
    assert english_command(champion, Command.of("explore", path="Λάτιο>Καμπανία")).get("path") == "Latium>Campania"
    # Greek typed without its accents, Japanese with its own comma, Hungarian with spaces
    assert english_value("eiyu", "program", "row", "κοκκινο,δραση,αναμονη") == "red,act,wait"
    assert english_value("eiyu", "program", "row", "行動、赤、水色") == "act,red,lightblue"
    assert english_value("eiyu", "program", "row", "piros kék") == "red blue"
    assert english_command(eiyu, Command.of("program", slot="2", order="lila")).get("order") == "purple"
    assert english_command(autokrator, Command.of("truce", answer="όχι")).get("answer") == "no"
    assert english_command(autokrator, Command.of("pass", unit="手番")).get("unit") == "turn"
    assert english_value("legend", "lead", "hero", "Ρολφ") == "Rolf"
    # English, ids and what no option declares are kept as typed for the game to read
    assert english_command(champion, Command.of("commission", reward="gold")).get("reward") == "gold"
    assert english_command(champion, Command.of("buy", item="gladius")).get("item") == "gladius"
    assert english_value("eiyu", "program", "row", "piros,zöldség") == "red,zöldség"


async def test_a_hungarian_types_the_row_the_help_shows(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["eiyu", "--players", "Ann,Bob", "--seed", "3", "--images", str(tmp_path),
                              "--language", "hu"])
    out = io.StringIO()
    lines = ["/város város:1", "/város város:5", "/programozás sor:piros,kék,cselekvés,várakozás,lila,sárga",
             "/programozás hely:2 parancs:világoskék", "/kéz"]
    assert await play(args, lines=lines, out=out) == 0
    told = out.getvalue()
    assert "Ann módosít a parancsain" in told
    assert "A parancs lehet" not in told  # no refusal of the Hungarian words
    panel = told[told.rindex("> /kéz"):]
    assert "piros" in panel and "világoskék" in panel and "lila" in panel


@pytest.mark.parametrize("key", sorted(games()))
def test_every_button_still_reads_as_itself_through_the_value_words(key: str) -> None:
    # what a button or a menu carries (English words, ids) passes through the translation of typed values unchanged
    # in meaning: the codec reads exactly the action it was made from, move after move of a game played to its end
    import random

    from rules.core import SeatInfo

    rules = games()[key]
    players = max(rules.spec.min_players, min(2, rules.spec.max_players))
    options = rules.check_options({}, players)
    state = rules.setup([SeatInfo(index=i, name=f"P{i}") for i in range(players)], options, seed=7).state
    pick = random.Random(7)
    checked = 0
    for _step in range(400):
        if rules.outcome(state) is not None:
            break
        seat = min(rules.to_act(state))
        legal = list(rules.legal(state, seat))
        for action in legal:
            command = rules.codec.encode(state, seat, action)
            assert rules.codec.parse(state, seat, english_command(rules, command)) == action, command
            checked += 1
        state = rules.apply(state, seat, pick.choice(legal)).state
    assert checked > 100
