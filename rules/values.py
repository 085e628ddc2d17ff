"""The words an option takes, in every language a game speaks: how a value hint reads (``/megbízás jutalom:tp|arany``
where English says ``/commission reward:xp|gold``) and how a value typed in any of them reaches the game's codec
(``arany`` → ``gold``).

A verb's ``ArgSpec`` declares its words (``values``, each marked ``N_p("value", word)`` in the game's catalogue,
which gives every language a one-word, typeable name) or the context its named things are translated under
(``value_context``: ``hero`` for a game's heroes).  Nothing here names a game: the words come from the spec and
the game's own catalogue."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from rules.i18n import LANGUAGES, SOURCE, Catalogue, catalogue_of
from rules.registry import AnyRuleset, games, package_of
from rules.spec import VALUE, ArgSpec, Command, VerbSpec

#: What separates the words of one value: a list (``torso,hand``; Japanese ``、``), alternatives in a hint
#: (``xp|gold``), a path (``latium>campania``), a pair with its area (``gold+fame@north``).
SEPARATORS = re.compile(r"([,|>+@、]|\s+)")
LISTS = re.compile(r"([,|>+@、])")


def fold(word: str) -> str:
    """A word compared as a player may type it: any case, Greek accents or none, full-width or not."""
    text = unicodedata.normalize("NFKD", word.strip().casefold())
    return "".join(c for c in text if not unicodedata.combining(c))


def _catalogue(key: str) -> Catalogue:
    return catalogue_of(package_of(key))


def _lookup(key: str, lang: str, arg: ArgSpec, word: str) -> str | None:
    """``word`` (one of ``arg``'s English words) as ``lang`` names it, or None."""
    cat = _catalogue(key)
    if word in arg.values:
        return cat.lookup(lang, word, VALUE)
    if arg.value_context:  # a name as written, or an id that is its name in lower case (`latium`)
        return cat.lookup(lang, word, arg.value_context) or cat.lookup(lang, word.capitalize(), arg.value_context)
    return None


def declares(key: str, arg: ArgSpec, word: str) -> bool:
    """``word`` is one of the option's words (declared, or a name its context translates)."""
    return word in arg.values or bool(arg.value_context and any(
        _lookup(key, lang, arg, word) for lang in LANGUAGES[1:]))


def word_name(key: str, arg: ArgSpec, word: str, lang: str) -> str:
    """One word of a value as ``lang`` names it (itself when the option declares no such word)."""
    if lang == SOURCE:
        return word
    return _lookup(key, lang, arg, word) or word


def value_name(key: str, arg: ArgSpec, value: str, lang: str) -> str:
    """A whole value (``act,red,…``, ``xp|gold``) with each of its declared words as ``lang`` names them."""
    if lang == SOURCE or not (arg.values or arg.value_context):
        return value
    return "".join(part if i % 2 else word_name(key, arg, part, lang) for i, part in enumerate(SEPARATORS.split(value)))


@cache
def _words(key: str, verb: str, arg: str) -> dict[str, str]:
    """Every language's name of the option's words, folded, → the English word."""
    spec = games()[key].spec.verb(verb)
    found = next((a for a in spec.args if a.name == arg), None) if spec else None
    if found is None:
        return {}
    english = list(found.values)
    if found.value_context:  # the names the catalogue translates under that context, in any language it has
        prefix = f"{found.value_context}\x04"
        for lang in LANGUAGES[1:]:
            texts: dict[object, str] = getattr(_catalogue(key).translations(lang), "_catalog", {})
            english += [k.removeprefix(prefix) for k in texts if isinstance(k, str) and k.startswith(prefix)]
        english = list(dict.fromkeys(english))
    out: dict[str, str] = {}
    for word in english:
        out.setdefault(fold(word), word)
        for lang in LANGUAGES[1:]:
            local = _lookup(key, lang, found, word)
            if local:
                out.setdefault(fold(local), word)
    return out


def english_value(key: str, verb: str, arg: str, typed: str) -> str:
    """A typed value with each word the option declares, in whichever language it was typed, in English
    (``piros,kék`` → ``red,blue``); anything else is kept as typed for the game to read."""
    words = _words(key, verb, arg)
    if not words or not typed:
        return typed
    whole = words.get(fold(typed))
    if whole is not None:
        return whole
    parts = LISTS.split(typed)
    for i in range(0, len(parts), 2):  # a whole name (`Κάτω Παννονία`), else word by word (`piros kék`)
        whole = words.get(fold(parts[i]))
        pieces = SEPARATORS.split(parts[i])
        parts[i] = whole if whole is not None else "".join(
            words.get(fold(p), p) if not j % 2 and p else p for j, p in enumerate(pieces))
    for i in range(1, len(parts), 2):
        if parts[i] == "、":
            parts[i] = ","
    return "".join(parts)


def english_command(rules: AnyRuleset, command: Command) -> Command:
    """``command`` with its values in English wherever the verb's options declare their words."""
    spec: VerbSpec | None = rules.spec.verb(command.verb)
    if spec is None or not any(a.values or a.value_context for a in spec.args):
        return command
    key = rules.spec.key
    args = tuple((k, english_value(key, spec.name, k, v)) for k, v in command.args)
    return command if args == command.args else Command(verb=command.verb, args=args)
