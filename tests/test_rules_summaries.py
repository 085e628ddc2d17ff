"""Every game has a rules summary for `/rules` and an intro, in our own words: no run of eight words is the
rulebook's (the books sit beside the repository, in the shared folder, as in CI)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.registry import games

ROOT = Path(__file__).resolve().parent.parent
SHARED = next((p for p in (ROOT.parent / "shared", Path("/work/shared")) if (p / "rules").is_dir()), None)
BOOKS = {"legend": "legend-of-heroes.md", "champion": "champion-of-the-empire.md", "autokrator": "autokrator.md",
         "eiyu": "heroes-programmed.md"}


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


@pytest.mark.parametrize("key", sorted(BOOKS))
def test_a_rules_summary_and_an_intro(key: str) -> None:
    spec = games()[key].spec
    assert spec.intro and len(spec.intro) <= 500
    assert 4 <= len(spec.rules) <= 8, [s.topic for s in spec.rules]
    assert len({s.topic for s in spec.rules}) == len(spec.rules)
    for section in spec.rules:
        assert re.fullmatch(r"[a-z]+", section.topic) and 0 < len(section.title) <= 80
        assert 0 < len(section.text) <= 1500  # one Discord message with its heading


@pytest.mark.skipif(SHARED is None, reason="the rulebooks (the shared folder) are not beside this repository")
@pytest.mark.parametrize("key", sorted(BOOKS))
def test_the_summary_is_in_our_own_words(key: str) -> None:
    assert SHARED is not None
    book = _words((SHARED / "rules" / BOOKS[key]).read_text(encoding="utf-8"))
    runs = {" ".join(book[i:i + 8]) for i in range(len(book) - 7)}
    spec = games()[key].spec
    for text in (spec.intro, *(s.text for s in spec.rules)):
        ours = _words(text)
        copied = [" ".join(ours[i:i + 8]) for i in range(len(ours) - 7) if " ".join(ours[i:i + 8]) in runs]
        assert not copied, (key, copied[:3])
