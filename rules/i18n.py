"""Tabula's languages: message catalogues (gettext ``.po`` files read through Babel), the language of the
moment, and the content extractor.

Every text a player reads is a ``msgid`` in English looked up in a catalogue.  There is one catalogue per
*domain*: the platform's own (``tabula``, kept in ``rules/locale/`` so that the pure rules can use it too)
and one per game (``rules/<key>/locale/``, domain ``<key>``).  A catalogue directory holds

* ``template.pot`` — every English text of the domain, extracted from the code and the content files by
  ``python -m bot i18n-extract`` (a test checks it is current);
* ``<lang>.po`` — one language's translations (``hu``, ``el``, ``ja``), edited by translators with any
  gettext tool (Poedit, Weblate, a text editor);
* ``babel.cfg`` — Babel's extraction mapping for the domain (which files, which content keys).

A game's modules write ``from rules.<key>.i18n import _, _n, _p`` (made by ``Catalogue.of(__package__)``);
texts that must be chosen before the language is known (tables of words, spec descriptions) are marked with
``N_`` / ``N_p`` and looked up with ``_`` when shown.  Placeholders are named, ``{hero}``, and filled by
keyword: ``_("{hero} sails to {port}", hero=..., port=...)``.

The language itself is the *current* one, kept in a context variable: the platform sets it (the game's
language for what is posted in a thread, the asking person's own locale for an ephemeral answer) with
``using(lang)``; worker threads started with ``asyncio.to_thread`` inherit it.  Nothing here imports the
platform.
"""

from __future__ import annotations

import array
import hashlib
import importlib
import io
import os
import re
import struct
import tomllib
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache
from gettext import NullTranslations
from pathlib import Path
from typing import IO, Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from rules.spec import own_option

#: The languages Tabula speaks, English first (the source language every other falls back to).
LANGUAGES: tuple[str, ...] = ("en", "hu", "el", "ja")
SOURCE = "en"
#: Each language's name in itself, as a player picks it.
NATIVE: dict[str, str] = {"en": "English", "hu": "Magyar", "el": "Ελληνικά", "ja": "日本語"}

#: The gettext keywords Tabula's code uses (Babel's keyword specs): what ``i18n-extract`` looks for.
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "_n": (1, 2),
    "_p": ((1, "c"), 2),
    "N_p": ((1, "c"), 2),
    "N_n": (1, 2),
    # what the content extractor reports for content files
    "gettext": None,
    "pgettext": ((1, "c"), 2),
}

_LANG: ContextVar[str] = ContextVar("tabula_language", default=SOURCE)
_FIELD = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:[!:][^{}]*)?\}(?!\})")

#: Discord's rule for a localised command or option name (which must also be lower case already): a name that
#: breaks it is not registered, and Discord shows the English instead.
NAME_RULE = re.compile(r"^[-_\w]{1,32}$")


def language() -> str:
    """The language texts are looked up in right now."""
    return _LANG.get()


def normalise(locale: str | None) -> str | None:
    """One of ``LANGUAGES`` for a locale tag (Discord's ``en-US``, ``hu``, ``el``, ``ja``, or ``hu_HU``), or
    None when Tabula does not speak it."""
    if not locale:
        return None
    head = str(locale).replace("_", "-").split("-")[0].lower()
    return head if head in LANGUAGES else None


@contextmanager
def using(lang: str | None) -> Iterator[str]:
    """Look texts up in ``lang`` (a locale tag; English when Tabula does not speak it) inside the block."""
    chosen = normalise(lang) or SOURCE
    token = _LANG.set(chosen)
    try:
        yield chosen
    finally:
        _LANG.reset(token)


def set_language(lang: str | None) -> str:
    """Look texts up in ``lang`` for the rest of the current task (an interaction's own task: discord.py runs
    each in a task of its own, which copies the context, so nothing leaks into another)."""
    chosen = normalise(lang) or SOURCE
    _LANG.set(chosen)
    return chosen


def placeholders(text: str) -> set[str]:
    """The named ``{fields}`` a text fills (``{{`` and ``}}`` are literal braces)."""
    return set(_FIELD.findall(text))


def valid_name(name: str) -> bool:
    """Discord accepts ``name`` as a localised command or option name."""
    return bool(NAME_RULE.match(name)) and name.lower() == name


def _fill(text: str, values: Mapping[str, object]) -> str:
    if not values:
        return text
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):
        # A translation that names a field the code does not give (the completeness test catches it):
        # never fail a move over a translator's slip, say it in English instead.
        return text


def N_(msgid: str) -> str:
    """Mark a text for extraction without translating it now (look it up with ``_`` when shown)."""
    return msgid


def N_n(singular: str, plural: str) -> tuple[str, str]:
    """Mark a text with its plural for extraction; returns the pair, for ``_n(*pair, n)`` when shown."""
    return singular, plural


def N_p(context: str, msgid: str) -> str:
    """Mark a text with a context (``command``, ``option``, ``place``…) for extraction; returns it as is."""
    return msgid


#: How each language Tabula speaks writes a number: its thousands separator and its decimal sign (CLDR's, as
#: Babel gives them: ``tests/test_i18n_numbers.py`` compares ``number`` with Babel over many values).  Babel
#: itself would load a language's whole locale data to read these two marks (about 1.5 MB a language, kept for
#: the process's life); a language not listed here is still written by Babel.
_MARKS = {"en": (",", "."), "hu": ("\xa0", ","), "el": (".", ","), "ja": (",", ".")}
_THOUSANDTH = Decimal("0.001")


def number(value: float, lang: str | None = None) -> str:
    """A number written the way the language writes it (``1,250`` / ``1 250`` / ``1.250``): grouped in
    thousands, at most three decimals (rounded half to even), as Babel's standard decimal format."""
    lang = lang or language()
    marks = _MARKS.get(lang)
    if marks is None:
        return format_decimal(value, locale=_babel_locale(lang))
    group, point = marks
    exact = Decimal(str(value)).quantize(_THOUSANDTH, rounding=ROUND_HALF_EVEN)
    whole, _, fraction = f"{abs(exact):f}".partition(".")
    fraction = fraction.rstrip("0")
    sign = "-" if exact.is_signed() else ""
    return sign + f"{int(whole):,}".replace(",", group) + (point + fraction if fraction else "")


@cache
def _babel_locale(lang: str) -> Locale:
    return Locale.parse(lang)


class Catalogue:
    """One domain's translations, read from ``<directory>/<lang>.po`` on first use and compiled in memory."""

    def __init__(self, domain: str, directory: Path) -> None:
        self.domain = domain
        self.directory = directory
        #: compiled (a .mo in memory: one dict of texts); the parsed .po is not kept — Babel's objects for
        #: the five domains' four languages are some 15 MB, the compiled texts a tenth of that
        self._loaded: dict[str, NullTranslations] = {}

    @classmethod
    def of(cls, package: str) -> Catalogue:
        """The catalogue of a game package (``rules.<key>`` → domain ``<key>``, ``rules/<key>/locale``)."""
        return catalogue_of(package)

    # --- lookups in the current language ----------------------------------------------------------

    def gettext(self, msgid: str, /, **values: object) -> str:
        lang = language()
        return commands_named(_fill(self.translations(lang).gettext(msgid), values), lang)

    def ngettext(self, singular: str, plural: str, n: int, /, **values: object) -> str:
        """The form for ``n`` (``{n}`` is filled with ``n`` unless given)."""
        values.setdefault("n", n)
        lang = language()
        return commands_named(_fill(self.translations(lang).ngettext(singular, plural, n), values), lang)

    def pgettext(self, context: str, msgid: str, /, **values: object) -> str:
        lang = language()
        return commands_named(_fill(self.translations(lang).pgettext(context, msgid), values), lang)

    # --- lists, joined the way the language joins them ---------------------------------------------
    #
    # One name per way of joining, for every catalogue.  Each looks its separator up in *this* catalogue, so
    # a game whose texts join lists marks the separators it uses in its own ``i18n.py`` (``JOINS``, with
    # ``N_p("list", ", ")``, ``N_p("list", "; ")`` and ``N_("{items} and {last}")``): that is what puts them
    # in its template for its translators.

    def comma(self, items: Iterable[str]) -> str:
        """"a, b, c" (Japanese "a、b、c")."""
        return self.pgettext(*COMMA).join(items)

    def semicolon(self, items: Iterable[str]) -> str:
        """"a; b; c": parts that hold commas themselves, with the language's stronger separator (Greek ·, since
        its ; is the question mark; Japanese ；)."""
        return self.pgettext(*SEMICOLON).join(items)

    def and_list(self, items: Iterable[str]) -> str:
        """"a, b and c" ("a and b"; "a" alone)."""
        parts = list(items)
        if len(parts) <= 1:
            return "".join(parts)
        return self.gettext(AND_LIST, items=self.comma(parts[:-1]), last=parts[-1])

    # --- lookups in a named language (command translation, reports) --------------------------------

    def lookup(self, lang: str, msgid: str, context: str | None = None) -> str | None:
        """The translation of ``msgid`` in ``lang``, or None when the catalogue has none (English: None)."""
        texts: dict[object, str] = getattr(self.translations(lang), "_catalog", {})  # (gettext's own dict)
        key = f"{context}\x04{msgid}" if context else msgid
        text = texts.get(key) or texts.get((key, 0))  # a plural entry: its first form
        return text or None

    def translations(self, lang: str) -> NullTranslations:
        have = self._loaded.get(lang)
        if have is None:
            path = self.directory / f"{lang}.po"
            if lang == SOURCE or not path.exists():
                have = NullTranslations()
            else:
                have = Translations(io.BytesIO(compiled_kept(path)), domain=self.domain)
            self._loaded[lang] = have
        return have

    def catalog(self, lang: str) -> Catalog | None:
        """The parsed ``.po`` of ``lang``, read again at each call (None for English or a language without a
        file): for the reports and the tools; lookups go through the compiled ``translations``."""
        path = self.directory / f"{lang}.po"
        if lang == SOURCE or not path.exists():
            return None
        with path.open("rb") as fh:
            return read_po(fh, locale=lang, domain=self.domain)

    def template(self) -> Catalog:
        """The committed ``template.pot``: every English text of the domain."""
        path = self.directory / "template.pot"
        with path.open("rb") as fh:
            return read_po(fh, domain=self.domain)

    def languages(self) -> tuple[str, ...]:
        """English and every language this domain has a ``.po`` file for."""
        return (SOURCE, *(lang for lang in LANGUAGES[1:] if (self.directory / f"{lang}.po").exists()))

    def reload(self) -> None:
        """Forget what was read (a translator edited a file while the bot runs, or a test wrote one)."""
        self._loaded.clear()
        _NAMES.clear()


# --- a .po file compiled for lookups ----------------------------------------------------------------------
#
# Babel's ``read_po`` builds a Catalog of Message objects (with locations, comments, flags) and ``write_mo``
# compiles it: 0.4 s of CPU at every start for the five domains' three languages, all thrown away but the
# compiled texts.  Lookups need only the translated entries, so ``compiled`` reads just those, in one pass
# (0.13 s for all of them): tests/test_i18n_compiled.py checks that gettext then finds the very texts and
# plural forms Babel's compilation gives it, for every catalogue.

_PO_LINE = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+"(.*)"\s*$|"(.*)"\s*$')
_PO_ESCAPE = re.compile(r"\\(.)")
_PO_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _unescaped(text: str) -> str:
    return _PO_ESCAPE.sub(lambda m: _PO_ESCAPES.get(m.group(1), m.group(0)), text) if "\\" in text else text


def _po_entries(source: str) -> Iterator[tuple[bool, dict[str | int, str]]]:
    """Each entry of a .po file's text: whether it is marked fuzzy, and its fields (``msgctxt``, ``msgid``,
    ``msgid_plural``, ``msgstr``, or ``msgstr[n]`` under ``n``); obsolete entries (``#~``) are comments here."""
    fuzzy, entry, complete = False, dict[str | int, str](), False
    field: str | int = ""
    for raw in source.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if complete:  # what follows a msgstr belongs to the next entry (its flags first of all)
                yield fuzzy, entry
                fuzzy, entry, complete = False, {}, False
            if line.startswith("#,") and "fuzzy" in line[2:].replace(",", " ").split():
                fuzzy = True
            continue
        found = _PO_LINE.match(line)
        if found is None:
            raise ValueError(f"not a line of a .po file: {raw!r}")
        keyword, index, text, more = found.groups()
        if keyword is None:
            if field not in entry:
                raise ValueError(f"a continued string with nothing to continue: {raw!r}")
            entry[field] += _unescaped(more)
            continue
        if complete and keyword in ("msgctxt", "msgid"):
            yield fuzzy, entry
            fuzzy, entry, complete = False, {}, False
        field = keyword if index is None else int(index)
        entry[field] = _unescaped(text)
        complete = complete or keyword.startswith("msgstr")
    if entry:
        yield fuzzy, entry


def compiled(po: bytes) -> bytes:
    """The .mo of a UTF-8 .po file: its header, and every translated entry not marked fuzzy (what Babel's
    ``write_mo(..., use_fuzzy=False)`` keeps), for ``Translations`` to load."""
    texts: dict[bytes, bytes] = {}
    for fuzzy, entry in _po_entries(po.decode("utf-8")):
        msgid = entry.get("msgid", "")
        key = (entry["msgctxt"] + "\x04" if "msgctxt" in entry else "") + msgid
        if "msgid_plural" in entry:
            forms = [entry[n] for n in sorted(k for k in entry if isinstance(k, int))]
            key, text = f"{key}\x00{entry['msgid_plural']}", "\x00".join(forms)
        else:
            text = entry.get("msgstr", "")
        if msgid and (not text.strip("\x00") or fuzzy):
            continue
        texts[key.encode()] = text.encode()
    keys = sorted(texts)
    ids = b"".join(k + b"\x00" for k in keys)
    strs = b"".join(texts[k] + b"\x00" for k in keys)
    start = 7 * 4 + 16 * len(keys)
    offsets, at = [], 0
    for k in keys:
        offsets += [len(k), start + at]
        at += len(k) + 1
    values, at = [], 0
    for k in keys:
        values += [len(texts[k]), start + len(ids) + at]
        at += len(texts[k]) + 1
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return head + array.array("i", offsets).tobytes() + array.array("i", values).tobytes() + ids + strs


#: What ``compiled_kept`` names its files by: changed whenever ``compiled`` would write other bytes.
KEPT_FORMAT = b"tabula-mo-1"


def compiled_kept(po: Path) -> bytes:
    """``compiled(po)``, kept in ``__pycache__`` beside the .po (as Python keeps compiled modules): a start that
    finds the .mo of the very same .po reads it instead of compiling again (the 15 catalogues a bot's start
    loads: 180 → 90 ms of CPU).  The file begins with a digest of the .po and of ``KEPT_FORMAT``; a file of
    another .po, a damaged one or a folder that cannot be written is no error: the .po is compiled, as
    without the folder."""
    source = po.read_bytes()
    digest = hashlib.sha256(KEPT_FORMAT + source).digest()
    kept = po.parent / "__pycache__" / f"{po.stem}.mo"
    try:
        data = kept.read_bytes()
    except OSError:
        data = b""
    if data[:len(digest)] == digest and len(data) > len(digest):
        return data[len(digest):]
    mo = compiled(source)
    part = kept.with_name(f"{kept.name}.{os.getpid()}.part")
    try:
        kept.parent.mkdir(exist_ok=True)
        part.write_bytes(digest + mo)
        os.replace(part, kept)  # whole or not at all: another process may be reading it
    except OSError:
        with suppress(OSError):  # a part left by a full disk (an unwritable folder has none)
            part.unlink(missing_ok=True)
    return mo


#: The texts the joins look up (kept out of extraction here: each domain marks the ones it uses).
COMMA = ("list", ", ")
SEMICOLON = ("list", "; ")
AND_LIST = "{items} and {last}"

#: Every catalogue ``catalogue_of`` has made, the platform's first: where command names are looked up.
_MADE: list[Catalogue] = []


@cache
def catalogue_of(package: str) -> Catalogue:
    """The catalogue of a package (``rules`` → the platform's ``tabula``; ``rules.<key>`` → ``<key>``)."""
    module = importlib.import_module(package)
    directory = Path(next(iter(module.__path__))) / "locale"
    domain = "tabula" if package == "rules" else package.rsplit(".", 1)[-1]
    made = Catalogue(domain, directory)
    _MADE.append(made)
    _NAMES.clear()
    return made


# --- command names inside texts ---------------------------------------------------------------------
#
# A text that tells a player what to type names the command in English (``Use `/voyage to:` to sail``), and
# a translator keeps that reference as it is.  Discord shows each person the commands in their own language,
# so the text must name them the same way: the finished text of every lookup has its references rewritten
# into the names the catalogues give commands (context ``command``) and options (``option``) in the text's
# language — the very names the platform registers with Discord.  A reference is a backticked
# ``/command [sub] option: option:value…`` or a bare ``/command`` in running text; a word that names no
# command, or whose name Discord would refuse, is left as it is, and so is every value (the game reads its
# own words there).


@dataclass(frozen=True, slots=True)
class _Names:
    command: dict[str, str]
    option: dict[str, str]
    #: (command, option) → the name that command's own option has (context ``option:<command>``)
    own: dict[tuple[str, str], str]

    def english(self, kind: str, local: str) -> list[str]:
        """Every English name ``local`` stands for (two games' verbs may share a translation; an option a
        command names in its own way stands for its English name too)."""
        found = [english for english, name in getattr(self, kind).items() if name == local]
        if kind == "option":
            found += [option for (_command, option), name in self.own.items() if name == local and option not in found]
        return found

    def option_of(self, command: str, option: str) -> str:
        """``option`` of ``command`` as the language names it (its own name first, then the shared one)."""
        return self.own.get((command, option)) or self.option.get(option, option)


_NAMES: dict[str, _Names] = {}
_SPAN = re.compile(r"`([^`\n]*)`")
_BARE = re.compile(r"(?<![\w/`.:\-])/([a-z][a-z_]*)(?![\w/])")  # "/attack-ot": a suffix may follow
_OPTION = re.compile(r"([a-z][a-z_]*):(.*)", re.DOTALL)


def _names(lang: str) -> _Names:
    have = _NAMES.get(lang)
    if have is None:
        found: dict[str, dict[str, str]] = {"command": {}, "option": {}}
        own: dict[tuple[str, str], str] = {}
        prefix = own_option("")
        for cat in list(_MADE):
            texts: dict[object, str] = getattr(cat.translations(lang), "_catalog", {})
            for key, value in texts.items():
                if not isinstance(key, str) or "\x04" not in key or not value:
                    continue
                context, _sep, msgid = key.partition("\x04")
                if not valid_name(value):
                    continue
                if context in found:
                    found[context].setdefault(msgid, value)
                elif context.startswith(prefix):
                    own.setdefault((context.removeprefix(prefix), msgid), value)
        have = _NAMES[lang] = _Names(**found, own=own)
    return have


def _reference(span: str, names: _Names) -> str:
    """One backticked reference, ``/voyage to:`` → ``/hajózás hova:`` (unchanged unless it names a command)."""
    words = span.split(" ")
    if not words[0].startswith("/") or words[0][1:] not in names.command:
        return span
    command = words[0][1:]
    out = ["/" + names.command[command]]
    for i, word in enumerate(words[1:], 1):
        option = _OPTION.fullmatch(word)
        if option:
            key, value = option.groups()  # a value is kept as typed: the game reads its own words
            out.append(f"{names.option_of(command, key)}:{value}")
        elif i == 1 and word in names.command:  # a group's subcommand: `/game status`
            out.append(names.command[word])
        else:
            out.append(word)
    return " ".join(out)


def commands_named(text: str, lang: str | None = None) -> str:
    """``text`` with its command references named as Discord names them in ``lang`` (the current language)."""
    lang = lang or language()
    if lang == SOURCE or "/" not in text:
        return text
    names = _names(lang)
    if not names.command:
        return text
    parts = _SPAN.split(text)  # even: running text; odd: a backticked span's inside
    for i, part in enumerate(parts):
        if i % 2:
            parts[i] = f"`{_reference(part, names)}`"
        elif "/" in part:
            parts[i] = _BARE.sub(lambda m: "/" + names.command.get(m[1], m[1]), part)
    return "".join(parts)


def command_typed(typed: str, lang: str | None = None) -> str:
    """A whole typed command (``/explore path:latium>campania``) named the way ``lang`` names it."""
    lang = lang or language()
    return typed if lang == SOURCE else _reference(typed, _names(lang))


def option_named(option: str, command: str | None = None, lang: str | None = None) -> str:
    """An option's name as Discord shows it in ``lang`` (``command``'s own name for it first); English: itself."""
    lang = lang or language()
    if lang == SOURCE:
        return option
    names = _names(lang)
    return names.option_of(command, option) if command else names.option.get(option, option)


def english_name(name: str, kind: str, lang: str | None = None, among: Collection[str] = ()) -> str:
    """The English name of a command or option (``kind``: ``command`` or ``option``) typed as ``lang`` names it;
    where two games' verbs share a translation, the one ``among`` names (the game's own verbs) wins.  A name
    ``lang`` does not give is returned as typed."""
    lang = lang or language()
    if lang == SOURCE:
        return name
    meant = _names(lang).english(kind, name)
    return next((e for e in meant if e in among), meant[0] if meant else name)


#: The platform's own words (lobby, refusals, help, the terminal runner, the clock…).
TABULA = catalogue_of("rules")
_, _n, _p = TABULA.gettext, TABULA.ngettext, TABULA.pgettext


# --- extraction of content files ------------------------------------------------------------------


def extract_toml(fileobj: IO[bytes], keywords: object, comment_tags: object,
                 options: Mapping[str, str]) -> Iterator[tuple[int, str | None, str | tuple[str, ...], list[str]]]:
    """Babel extraction method for content files.  Name it in a ``babel.cfg`` by its dotted path,
    ``[rules.i18n.extract_toml: rules/<key>/data/*.toml]``, or through an ``[extractors]`` entry
    (``toml = rules.i18n:extract_toml``, then ``[toml: rules/<key>/data/*.toml]``) — not as
    ``[rules.i18n:extract_toml: …]``: Babel splits a section name at its first colon.

    ``keys`` in the mapping's options lists the keys whose string values players read, each optionally with a
    context: ``keys = text, name:place, title``.  Every string (or list of strings) under those keys, at any
    depth, becomes a message; its line is where it first appears in the file."""
    raw = fileobj.read()
    source = raw.decode("utf-8")
    data = tomllib.loads(source)
    wanted: dict[str, str | None] = {}
    for part in options.get("keys", "").split(","):
        key, _, ctx = part.strip().partition(":")
        if key:
            wanted[key] = ctx or None

    def line_of(text: str) -> int:
        first = text.splitlines()[0] if text else text
        at = source.find(first)
        return source.count("\n", 0, at) + 1 if at >= 0 else 1

    def walk(node: object) -> Iterator[tuple[int, str | None, str | tuple[str, ...], list[str]]]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in wanted:
                    ctx = wanted[key]
                    texts = [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)] \
                        if isinstance(value, list) else []
                    for text in texts:
                        if text.strip():
                            if ctx:
                                yield line_of(text), "pgettext", (ctx, text), []
                            else:
                                yield line_of(text), "gettext", text, []
                yield from walk(value)
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)

    yield from walk(data)
