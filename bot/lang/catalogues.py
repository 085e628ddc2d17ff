"""The platform side of Tabula's languages: which catalogues exist, extraction into their templates, merging
templates into translators' ``.po`` files, the coverage report, and the translator Discord asks for every
command's localised names and descriptions.

    python -m bot i18n-extract     refresh every template.pot from the code and content, and merge it into
                                   each language's .po (translations kept; new texts empty)
    python -m bot i18n-report      coverage of every catalogue in every language
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from rules.i18n import KEYWORDS, LANGUAGES, NATIVE, SOURCE, TABULA, Catalogue, catalogue_of, placeholders
from rules.registry import games, package_of
from rules.spec import GameSpec

#: The repository (or installed tree) root: babel.cfg paths are relative to it.
ROOT = Path(__file__).resolve().parents[2]


def catalogues() -> list[Catalogue]:
    """The platform's catalogue, then every game's that has a ``locale/`` folder."""
    found = [TABULA]
    for key in games():
        cat = catalogue_of(package_of(key))
        if (cat.directory / "babel.cfg").exists():
            found.append(cat)
    return found


def required_languages(cat: Catalogue) -> tuple[str, ...]:
    """The languages a catalogue must be complete in: every language for the platform, and for a game the
    languages its spec promises (its book's language at least)."""
    if cat is TABULA:
        return LANGUAGES[1:]
    for key, rules in games().items():
        if catalogue_of(package_of(key)) is cat:
            return tuple(lang for lang in rules.spec.languages if lang != SOURCE)
    return ()


def extract(cat: Catalogue) -> Catalog:
    """Every English text of a domain, as Babel extracts it from the files its ``babel.cfg`` names."""
    with (cat.directory / "babel.cfg").open(encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)  # type: ignore[no-untyped-call]  # (Babel ships no hints)
    template = Catalog(project="Tabula", domain=cat.domain, fuzzy=False,
                       creation_date=datetime(2026, 1, 1, tzinfo=UTC),
                       msgid_bugs_address="", copyright_holder="Tabula")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def _write(catalog: Catalog, path: Path, **kw: object) -> None:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, omit_header=False, sort_output=False, include_lineno=False,
             **kw)  # type: ignore[arg-type]  # (write_po's keywords, passed through)
    data = buf.getvalue()
    # A stable file: Babel stamps the revision date on every write, which would make every run a change.
    lines = [ln for ln in data.split(b"\n") if not ln.startswith((b'"POT-Creation-Date', b'"PO-Revision-Date'))]
    data = b"\n".join(lines)
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def refresh(cat: Catalogue) -> list[str]:
    """Write a domain's template and merge it into each of its ``.po`` files; returns what it wrote."""
    template = extract(cat)
    _write(template, cat.directory / "template.pot", ignore_obsolete=True)
    done = [str(cat.directory / "template.pot")]
    for lang in sorted(set(cat.languages()[1:]) | set(required_languages(cat)), key=LANGUAGES.index):
        path = cat.directory / f"{lang}.po"
        if path.exists():
            with path.open("rb") as fh:
                po = read_po(fh, locale=lang, domain=cat.domain)
        else:  # a language the catalogue must have: start its file, every text still to translate
            po = Catalog(locale=lang, domain=cat.domain, project="Tabula", copyright_holder="Tabula",
                         msgid_bugs_address="", fuzzy=False)
        po.update(template, update_header_comment=False, no_fuzzy_matching=True)
        _write(po, path, ignore_obsolete=True)
        done.append(str(path))
    cat.reload()
    return done


def spec_texts(spec: GameSpec) -> Iterator[tuple[str | None, str]]:
    """Every (context, msgid) of a game's spec that the platform shows — names of commands, options, choices
    and rules topics, descriptions, help lines, title, summary, intro, rules sections — which a game
    translates into every language Tabula speaks, since Discord shows commands to everyone."""
    found: list[tuple[str | None, str]] = [(None, spec.title), (None, spec.summary), (None, spec.intro)]
    for verb in spec.verbs:
        found += [("command", verb.name), (None, verb.description), (None, verb.help)]
        for arg in verb.args:
            found += [(verb.context_of(arg), arg.name), (None, arg.description)]
    for option in spec.options:
        found += [("option", option.name), (None, option.description)]
        found += [("choice", choice) for choice in option.choices]
    for section in spec.rules:
        found += [("topic", section.topic), (None, section.title), (None, section.text)]
    yield from ((ctx, text) for ctx, text in dict.fromkeys(found) if text)


@dataclass(frozen=True, slots=True)
class Coverage:
    domain: str
    lang: str
    total: int
    translated: int
    fuzzy: int
    #: msgids whose translation names other {placeholders} than the English text
    mismatched: tuple[str, ...]
    required: bool

    @property
    def missing(self) -> int:
        return self.total - self.translated

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0


def coverage(cat: Catalogue, lang: str) -> Coverage:
    template = cat.template()
    po = cat.catalog(lang)
    translated = fuzzy = 0
    mismatched: list[str] = []
    total = 0
    for message in template:
        if not message.id:
            continue
        total += 1
        have = po.get(message.id, context=message.context) if po is not None else None
        if have is None or not have.string or (isinstance(have.string, tuple | list) and not all(have.string)):
            continue
        if have.fuzzy:
            fuzzy += 1
            continue
        translated += 1
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = have.string if isinstance(have.string, tuple | list) else (have.string,)
        want = set().union(*(placeholders(i) for i in ids)) - {"n"}
        for s in strings:
            if placeholders(s) - {"n"} != want:
                mismatched.append(ids[0])
                break
    return Coverage(cat.domain, lang, total, translated, fuzzy, tuple(mismatched),
                    lang in required_languages(cat))


def report_lines() -> Iterator[str]:
    yield f"{'catalogue':<12} {'language':<10} {'texts':>6} {'done':>6} {'missing':>8} {'cover':>7}  note"
    for cat in catalogues():
        for lang in LANGUAGES[1:]:
            c = coverage(cat, lang)
            note = []
            if c.required:
                note.append("required")
            if lang not in cat.languages():
                note.append("no catalogue: English throughout")
            if c.fuzzy:
                note.append(f"{c.fuzzy} fuzzy")
            if c.mismatched:
                note.append(f"{len(c.mismatched)} placeholder mismatches")
            yield (f"{cat.domain:<12} {lang + ' ' + NATIVE[lang]:<10} {c.total:>6} {c.translated:>6} "
                   f"{c.missing:>8} {c.percent:>6.1f}%  {', '.join(note)}")


def main(command: str) -> int:
    if command == "i18n-extract":
        for cat in catalogues():
            for path in refresh(cat):
                print(f"tabula: {path}")
        return 0
    try:
        for line in report_lines():
            print(line, flush=True)
    except BrokenPipeError:  # `i18n-report | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    bad = [c for cat in catalogues() for lang in LANGUAGES[1:] for c in [coverage(cat, lang)]
           if c.required and (c.missing or c.mismatched)]
    return 1 if bad else 0
