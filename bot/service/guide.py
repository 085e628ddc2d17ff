"""What a player reads to learn a game: `/help` (this game's commands only) and `/rules` (its summary, a
section a page).  Built from the specs, so every game gets both by declaring ``intro``, ``verbs`` and
``rules``; the Discord cog and the terminal runner show the same words.

Every value hint in them (``/commission reward:xp|gold``, ``foe:``, ``order:torso,hand,leg``, ``mode:east``) is
composed in the reader's language from what the game declares — its options' names, their words
(``ArgSpec.values``), its lobby options and choices, its rules topics — so a translator keeps the English hint
and the reader sees ``/megbízás jutalom:tp|arany``, the very words Discord and the game accept."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.service.verbs import TABLE_VERBS, verb_spec
from rules.core import GameError
from rules.i18n import N_, SOURCE, N_p, _, _n, _p, english_name, language, option_named
from rules.registry import AnyRuleset, game_text, games
from rules.spec import OptionSpec, RulesSection, VerbSpec
from rules.values import SEPARATORS, declares, value_name

#: The platform's own commands, the same in every game (Discord and the terminal word a few differently).
TABLE_LINES = (
    N_("`/rules topic:` the rules summary, a section at a time"),
    N_("`/help` this list"),
    N_("`/game status` the board, whose turn it is, the scores"),
)


def game_commands(rules: AnyRuleset, options: Mapping[str, object] | None = None) -> list[str]:
    """One line per command of this game (each verb once, in the order the game declares them), then the
    table's own; with the game's ``options``, only the verbs the game says that configuration offers."""
    # a game whose variants add commands says which the one in play offers (``GameRuleset.verbs_offered``; a
    # plug-in written without the base class lists every verb)
    ask = getattr(rules, "verbs_offered", None)
    offered = ask(options) if ask is not None and options is not None else None
    seen: set[str] = set()
    lines: list[str] = []
    for verb in (*rules.spec.verbs, *TABLE_VERBS):
        if verb.name in seen or (offered is not None and verb in rules.spec.verbs and verb.name not in offered):
            continue
        seen.add(verb.name)
        lines.append(hinted(rules, game_text(rules.spec.key, verb.help), verb))
    return lines


# --- value hints in the reader's words ------------------------------------------------------------------

_SPAN = re.compile(r"`([^`\n]*)`")
_NAMED = re.compile(r"([^\W\d][\w-]*):(\s?)(.*)", re.DOTALL)
#: The platform's own command whose option takes a game's words: `/rules topic:`.
RULES_COMMAND, TOPIC_OPTION = "rules", "topic"


def hinted(rules: AnyRuleset, text: str, verb: VerbSpec | None = None) -> str:
    """``text`` (in the current language, its commands already named the language's way) with each backticked
    hint's option names and values as the language names them: `/megbízás jutalom:xp|gold` →
    `/megbízás jutalom:tp|arany`; a bare `foe:` or `order:torso,hand,leg` (an option of ``verb``, or of the game's
    lobby) and a bare `short` or `head,leg` likewise.  Words the game declares none for (dice, a map square, an
    id) are kept as they are."""
    lang = language()
    if lang == SOURCE or "`" not in text:
        return text
    return _SPAN.sub(lambda m: f"`{_hint(rules, m[1], verb, lang)}`", text)


def _hint(rules: AnyRuleset, span: str, verb: VerbSpec | None, lang: str) -> str:
    if span.startswith("/"):
        return _command_hint(rules, span, lang)
    named = _NAMED.fullmatch(span)
    if named:
        name, gap, value = named.groups()
        return _option_hint(rules, name, value, verb, lang, gap)
    lobby = _lobby_option(rules, span, lang)
    if lobby is not None:
        return option_named(lobby.name, None, lang)
    words = [w for i, w in enumerate(SEPARATORS.split(span)) if not i % 2 and w]
    for arg in verb.args if verb else ():
        if words and all(declares(rules.spec.key, arg, w) for w in words):
            return value_name(rules.spec.key, arg, span, lang)
    return span


def _command_hint(rules: AnyRuleset, span: str, lang: str) -> str:
    """`/megbízás jutalom:xp|gold` → `/megbízás jutalom:tp|arany`."""
    words = span.split(" ")
    verbs = [v.name for v in (*rules.spec.verbs, *TABLE_VERBS)]
    english = english_name(words[0][1:], "command", lang, among=verbs)
    spec = verb_spec(rules, english)
    out = [words[0]]
    for word in words[1:]:
        named = _NAMED.fullmatch(word)
        if named and named[3] and spec is not None:
            name = english_name(named[1], "option", lang, among=[a.name for a in spec.args])
            arg = next((a for a in spec.args if a.name == name), None)
            if arg is not None:
                word = f"{named[1]}:{value_name(rules.spec.key, arg, named[3], lang)}"
        elif named and named[3] and english == RULES_COMMAND:
            word = f"{named[1]}:{_topic(rules, named[3])}"
        out.append(word)
    return " ".join(out)


def _option_hint(rules: AnyRuleset, name: str, value: str, verb: VerbSpec | None, lang: str, gap: str) -> str:
    """A bare `foe:`, `order:torso,hand,leg` or `mode:east`: an option of the line's verb, or of the lobby."""
    key = rules.spec.key
    owners = [verb] if verb else []
    owners += [v for v in rules.spec.verbs if v is not verb]
    for owner in owners:
        english = english_name(name, "option", lang, among=[a.name for a in owner.args])
        arg = next((a for a in owner.args if a.name == english), None)
        if arg is not None:
            return f"{option_named(arg.name, owner.name, lang)}:{gap}{value_name(key, arg, value, lang)}"
    lobby = _lobby_option(rules, name, lang)
    if lobby is not None:
        choice = game_text(key, value, "choice") if value in lobby.choices else value
        return f"{option_named(lobby.name, None, lang)}:{gap}{choice}"
    return f"{name}:{gap}{value}"


def _lobby_option(rules: AnyRuleset, name: str, lang: str) -> OptionSpec | None:
    english = english_name(name, "option", lang, among=[o.name for o in rules.spec.options])
    return rules.spec.option(english)


def _topic(rules: AnyRuleset, topic: str) -> str:
    """A `/rules topic:` value as the language names the game's topic (the page reads either)."""
    known = {s.topic for s in sections(rules)}
    return game_text(rules.spec.key, topic, "topic") if topic in known else topic


def help_text(rules: AnyRuleset, *, options: Mapping[str, object] | None = None,
              table: tuple[str, ...] = TABLE_LINES) -> str:
    """`/help` in a game's thread: that game's commands and nothing of the others (with the game's
    ``options``, only those its configuration offers)."""
    spec = rules.spec
    title, intro = game_text(spec.key, spec.title), game_text(spec.key, spec.intro)
    head = f"**{title}** — {intro.splitlines()[0]}" if intro else f"**{title}**"
    body = "\n".join(f"• {line}" for line in game_commands(rules, options))
    tail = "\n".join(f"• {_(line)}" for line in table)
    mine = _("__This game's commands__ (the menus and buttons under each prompt do the same)")
    every = _("__Every game__")
    return f"{head}\n\n{mine}\n{body}\n\n{every}\n{tail}"


def lobby_help(table: tuple[str, ...] = TABLE_LINES) -> str:
    """`/help` outside a game: the games there are and how to start one."""
    listed = "\n".join(f"• **{game_text(k, r.spec.title)}** (`{k}`, {_players(r)}) — {game_text(k, r.spec.summary)}"
                       for k, r in games().items())
    return (_("__Games__") + f"\n{listed}\n\n"
            + _("Start one with `/game new game:` in a text channel; each game is played in a thread of its own, and "
                "`/help` there lists that game's commands. `/game list` shows the games in this server; `/rules "
                "game:` reads a game's rules."))


def _players(rules: AnyRuleset) -> str:
    lo, hi = rules.spec.min_players, rules.spec.max_players
    return _n("{n} player", "{n} players", hi) if lo == hi else _("{lo}–{hi} players", lo=lo, hi=hi)


@dataclass(frozen=True, slots=True)
class RulesPage:
    key: str
    index: int
    total: int
    section: RulesSection

    def text(self) -> str:
        page = _("page {page} of {pages}", page=self.index + 1, pages=self.total)
        return (f"**{game_text(self.key, self.section.title)}** · {page}\n\n"
                f"{hinted(games()[self.key], game_text(self.key, self.section.text))}")


def sections(rules: AnyRuleset) -> tuple[RulesSection, ...]:
    """The game's rules summary; a game that declares none is summarised by its lobby text and intro."""
    spec = rules.spec
    if spec.rules:
        return spec.rules
    words = (game_text(spec.key, spec.summary), game_text(spec.key, spec.intro))
    return (RulesSection(topic=N_p("topic", "overview"), title=game_text(spec.key, spec.title),
                         text="\n\n".join(t for t in words if t)),)


def rules_page(rules: AnyRuleset, topic: str | int | None = None) -> RulesPage:
    """A page of the rules summary by number or by topic ("fights", "turn"); a topic that matches nothing is
    refused with the topics there are."""
    found = sections(rules)
    key = rules.spec.key
    if topic is None or topic == "":
        return RulesPage(key, 0, len(found), found[0])
    if isinstance(topic, int):
        index = max(0, min(topic, len(found) - 1))
        return RulesPage(key, index, len(found), found[index])
    wanted = topic.strip().lower()

    def names(s: RulesSection) -> tuple[str, ...]:  # its key, and its topic as the language names it
        return s.topic, game_text(key, s.topic, "topic").lower()

    def titles(s: RulesSection) -> tuple[str, ...]:
        return s.title.lower(), game_text(key, s.title).lower()

    tests: list[Callable[[RulesSection], bool]] = [
        lambda s: wanted in names(s), lambda s: any(n.startswith(wanted) for n in names(s)),
        lambda s: any(wanted in t for t in titles(s))]
    for test in tests:
        for i, section in enumerate(found):
            if test(section):
                return RulesPage(key, i, len(found), section)
    listed = _p("list", ", ").join(f"`{game_text(key, s.topic, 'topic')}`" for s in found)
    raise GameError(_("{game}'s rules have no section about “{topic}”. The topics are {topics}.",
                      game=game_text(key, rules.spec.title), topic=topic[:40], topics=listed))


def topics(rules: AnyRuleset) -> list[tuple[str, str]]:
    """(label, topic) pairs for autocomplete and the terminal's tab completion."""
    key = rules.spec.key
    return [(f"{game_text(key, s.title)} ({game_text(key, s.topic, 'topic')})", s.topic) for s in sections(rules)]
