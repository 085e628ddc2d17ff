"""Every catalogue compiled by ``rules.i18n.compiled`` (one pass over the .po) gives gettext the very texts and
plural forms Babel's ``read_po`` + ``write_mo`` give it, in every language; and the reader keeps to the format."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from rules.i18n import compiled, compiled_kept
from rules.registry import games

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = sorted(p for p in ROOT.glob("rules/**/locale/*.po"))


def _babel(path: Path) -> Translations:
    buf = io.BytesIO()
    with path.open("rb") as fh:
        write_mo(buf, read_po(fh), use_fuzzy=False)
    buf.seek(0)
    return Translations(buf)


def test_every_game_and_the_platform_have_catalogues() -> None:
    folders = {p.parent.parent.name for p in CATALOGUES}
    assert {"rules", *games()} <= folders, folders
    assert len(CATALOGUES) >= 3 * (1 + len(games()))


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_a_catalogue_compiles_to_the_texts_babel_gives(path: Path) -> None:
    ours, theirs = Translations(io.BytesIO(compiled(path.read_bytes()))), _babel(path)
    mine = {k: v for k, v in ours._catalog.items() if k != ""}
    babel = {k: v for k, v in theirs._catalog.items() if k != ""}
    assert mine == babel
    assert ours.charset() == theirs.charset() == "utf-8"
    assert [ours.plural(n) for n in range(300)] == [theirs.plural(n) for n in range(300)]
    assert len(mine) > 50


def test_fuzzy_untranslated_obsolete_context_plural_and_escapes_are_read_as_gettext_means_them() -> None:
    po = "\n".join([
        'msgid ""', 'msgstr ""', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
        '"Content-Type: text/plain; charset=utf-8\\n"', "",
        "#, fuzzy", 'msgid "rough"', 'msgstr "durva"', "",
        'msgid "missing"', 'msgstr ""', "",
        '#~ msgid "gone"', '#~ msgstr "elment"', "",
        'msgctxt "command"', 'msgid "attack"', 'msgstr "támadás"',
        '#, python-brace-format', 'msgid "{n} day"', 'msgid_plural "{n} days"', 'msgstr[0] "{n} nap"',
        'msgstr[1] "{n} napok"', "",
        'msgid ""', '"two \\"lines\\"\\n"', '"joined"', 'msgstr "két \\"sor\\"\\n"', '"össze\\\\"', "",
    ])
    t = Translations(io.BytesIO(compiled(po.encode())))
    assert t.gettext("rough") == "rough" and t.gettext("missing") == "missing" and t.gettext("gone") == "gone"
    assert t.pgettext("command", "attack") == "támadás" and t.gettext("attack") == "attack"
    assert t.ngettext("{n} day", "{n} days", 1) == "{n} nap" and t.ngettext("{n} day", "{n} days", 3) == "{n} napok"
    assert t.gettext('two "lines"\njoined') == 'két "sor"\nössze\\'
    with pytest.raises(ValueError, match="not a line"):
        compiled(b'msgid "a"\nmsgstr "b"\nnonsense\n')
    with pytest.raises(ValueError, match="nothing to continue"):
        compiled(b'"stray"\nmsgid "a"\nmsgstr "b"\n')


def test_a_compiled_catalogue_is_kept_beside_its_po_and_read_back_only_for_that_very_po(tmp_path: Path) -> None:
    po = tmp_path / "hu.po"
    po.write_bytes(CATALOGUES[0].read_bytes())
    kept = tmp_path / "__pycache__" / "hu.mo"
    first = compiled_kept(po)
    assert first == compiled(po.read_bytes()) and kept.exists()
    stamp = kept.stat().st_mtime_ns
    assert compiled_kept(po) == first and kept.stat().st_mtime_ns == stamp  # read back, not written again
    po.write_bytes(po.read_bytes().replace(b'msgstr "', b'msgstr "~', 1))  # a translator edits the .po
    edited = compiled_kept(po)
    assert edited != first and edited == compiled(po.read_bytes())
    kept.write_bytes(b"not a catalogue")  # damaged: compiled again and replaced
    assert compiled_kept(po) == edited and kept.read_bytes().endswith(edited)
    assert not list(kept.parent.glob("*.part"))


def test_a_catalogue_in_a_folder_that_cannot_be_written_is_compiled_each_time(tmp_path: Path) -> None:
    po = tmp_path / "el.po"
    po.write_bytes(CATALOGUES[1].read_bytes())
    (tmp_path / "__pycache__").write_text("a file where the folder would be")  # mkdir fails, as read-only would
    assert compiled_kept(po) == compiled(po.read_bytes())
