"""Numbers are written as Babel (CLDR) writes them in every language Tabula speaks, without Babel's locale data:
``rules.i18n.number`` keeps only each language's two marks, and here they are checked against Babel itself."""

from __future__ import annotations

import subprocess
import sys

from babel.numbers import format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.i18n import LANGUAGES, number

EDGES = [0, 1, -1, 7, 999, 1000, -1000, 1234, 9999, 10000, 12345, 123456, 1234567, 10**9 + 7, -2500, 0.5, 2.5,
         0.25, 1234.5, 0.125, 0.0005, 0.0015, 1.0005, -0.0004, 99999.9999, 1e-7, 3.14159]


def test_every_language_writes_these_numbers_as_babel_does() -> None:
    for lang in LANGUAGES:
        for value in EDGES:
            assert number(value, lang) == format_decimal(value, locale=lang), (lang, value)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.integers(-10**12, 10**12), st.floats(-1e9, 1e9, allow_nan=False)), st.sampled_from(LANGUAGES))
def test_any_number_is_written_as_babel_writes_it(value: float, lang: str) -> None:
    assert number(value, lang) == format_decimal(value, locale=lang)


def test_a_language_without_its_marks_is_still_written_by_babel() -> None:
    assert number(1234.5, "de") == "1.234,5"


def test_writing_numbers_loads_no_locale_data() -> None:
    code = ("import babel.localedata as d\nfrom rules.i18n import LANGUAGES, number\n"
            "print([number(1234.5, lang) for lang in LANGUAGES], sorted(d._cache))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("[]"), out
