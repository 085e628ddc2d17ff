"""The catalogues are complete and current: every template.pot is what extraction makes from the code and content
today, every required language has every text (the platform: hu, el, ja; a game: the languages its spec
promises), no translation names other placeholders than its English, and `python -m bot i18n-report` says so."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from bot.lang.catalogues import _write, catalogues, coverage, extract, main, report_lines, required_languages
from rules.i18n import LANGUAGES, NATIVE, SOURCE, TABULA, Catalogue, placeholders, using

PLURALS = {"hu": "nplurals=2; plural=(n != 1);", "el": "nplurals=2; plural=(n != 1);", "ja": "nplurals=1; plural=0;"}


@pytest.mark.parametrize("cat", catalogues(), ids=lambda c: c.domain)
def test_the_template_is_what_extraction_makes_today(cat: Catalogue, tmp_path: Path) -> None:
    fresh = tmp_path / "template.pot"
    _write(extract(cat), fresh, ignore_obsolete=True)
    committed = (cat.directory / "template.pot").read_text(encoding="utf-8")
    assert fresh.read_text(encoding="utf-8") == committed, (
        f"{cat.domain}: template.pot is stale — run `python -m bot i18n-extract` and translate the new texts")


@pytest.mark.parametrize("cat", catalogues(), ids=lambda c: c.domain)
def test_every_required_language_has_every_text(cat: Catalogue) -> None:
    required = required_languages(cat)
    if cat is TABULA:
        assert required == ("hu", "el", "ja")
    for lang in required:
        c = coverage(cat, lang)
        template = cat.template()
        po = cat.catalog(lang)
        assert po is not None, f"{cat.domain}: no {lang}.po"
        missing = [m.id for m in template if m.id and not _done(po, m.id, m.context)]
        assert not missing and c.missing == 0, f"{cat.domain} [{lang}] lacks {len(missing)}: {missing[:10]}"
        assert c.fuzzy == 0, f"{cat.domain} [{lang}]: {c.fuzzy} fuzzy translations are not shown to players"


def _done(po: object, msgid: object, context: str | None) -> bool:
    message = po.get(msgid, context=context)  # type: ignore[attr-defined]
    if message is None or message.fuzzy:
        return False
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return bool(strings) and all(strings)


@pytest.mark.parametrize("cat", catalogues(), ids=lambda c: c.domain)
def test_no_translation_names_other_placeholders_than_its_english(cat: Catalogue) -> None:
    for lang in cat.languages()[1:]:
        po = cat.catalog(lang)
        assert po is not None
        wrong = []
        for message in po:
            if not message.id or not message.string:
                continue
            ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
            strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
            want = set().union(*(placeholders(i) for i in ids)) - {"n"}
            wrong += [f"{ids[0]!r} → {s!r}" for s in strings if s and placeholders(s) - {"n"} != want]
        assert not wrong, f"{cat.domain} [{lang}]:\n" + "\n".join(wrong)
        assert not coverage(cat, lang).mismatched


@pytest.mark.parametrize("cat", catalogues(), ids=lambda c: c.domain)
def test_each_language_file_says_its_language_and_plural_rule(cat: Catalogue) -> None:
    for lang in cat.languages()[1:]:
        head = (cat.directory / f"{lang}.po").read_text(encoding="utf-8")
        assert f'"Language: {lang}\\n"' in head
        assert f'"Plural-Forms: {PLURALS[lang]}\\n"' in head, f"{cat.domain} [{lang}] plural rule"


@pytest.mark.slow
def test_the_report_prints_every_catalogue_in_every_language() -> None:
    lines = list(report_lines())
    assert lines[0].split()[:6] == ["catalogue", "language", "texts", "done", "missing", "cover"]
    rows = [ln.split() for ln in lines[1:]]
    assert len(rows) == len(catalogues()) * (len(LANGUAGES) - 1)
    platform = [r for r in rows if r[0] == "tabula"]
    assert [r[1] for r in platform] == ["hu", "el", "ja"]
    for r in platform:
        assert r[2] == NATIVE[r[1]] and r[3] == r[4] and r[5] == "0" and r[6] == "100.0%" and "required" in r
        assert int(r[3]) > 300
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main("i18n-report")
    printed = out.getvalue().splitlines()
    assert printed == lines
    incomplete = [c for cat in catalogues() for lang in required_languages(cat)
                  for c in [coverage(cat, lang)] if c.missing or c.mismatched]
    assert code == (1 if incomplete else 0)


def test_english_is_the_msgid_and_every_other_language_reads_its_own() -> None:
    from bot.longplay.clock import describe
    from bot.service.guide import lobby_help

    options = {"clock": "24h", "policy": "skip"}
    with using(SOURCE):
        assert describe(options) == "24h turn clock; then skip"
        english = lobby_help()
    shown = {}
    for lang in ("hu", "el", "ja"):
        with using(lang):
            shown[lang] = describe(options)
            assert lobby_help() != english
    assert shown == {"hu": "24 óra lépésidő; utána: kihagyás", "el": "χρόνος γύρου 24 ώρες· μετά: παράλειψη",
                     "ja": "持ち時間24時間（時間切れ時：スキップ）"}
    with using("de"):  # a language Tabula does not speak: English throughout
        assert describe(options) == "24h turn clock; then skip"


def test_a_text_a_language_lacks_falls_back_to_english_alone(tmp_path: Path) -> None:
    """A catalogue half translated: each text missing in the language is its English, each translated one its
    own — text by text, never a key or an empty string; the plural forms and placeholders follow."""
    from babel.messages.catalog import Catalog

    po = Catalog(locale="hu", domain="half")
    po.add("The road is open", "Szabad az út")
    po.add("The bridge is down")  # not translated yet
    po.add(("{n} day", "{n} days"), ("{n} nap", "{n} nap"))
    po.add("{who} waits")
    _write(po, tmp_path / "hu.po")
    half = Catalogue("half", tmp_path)
    with using("hu"):
        assert half.gettext("The road is open") == "Szabad az út"
        assert half.gettext("The bridge is down") == "The bridge is down"
        assert half.ngettext("{n} day", "{n} days", 3) == "3 nap"
        assert half.gettext("{who} waits", who="Ann") == "Ann waits"
        assert half.gettext("Never extracted") == "Never extracted"
    with using("el"):  # no file at all for the language
        assert half.gettext("The road is open") == "The road is open"
        assert half.ngettext("{n} day", "{n} days", 1) == "1 day"
