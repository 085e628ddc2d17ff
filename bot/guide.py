"""What a player reads to learn a game: `/help` (this game's commands only) and `/rules` (its summary, a
section a page).  Built from the specs, so every game gets both by declaring ``intro``, ``verbs`` and
``rules``; the Discord cog and the terminal runner show the same words."""

from __future__ import annotations

from dataclasses import dataclass

from bot.verbs import TABLE_VERBS
from rules.core import GameError
from rules.registry import AnyRuleset, games
from rules.spec import RulesSection

#: The platform's own commands, the same in every game (Discord and the terminal word a few differently).
TABLE_LINES = (
    "`/rules topic:` the rules summary, a section at a time",
    "`/help` this list",
    "`/game status` the board, whose turn it is, the scores",
)


def game_commands(rules: AnyRuleset) -> list[str]:
    """One line per command of this game (each verb once, in the order the game declares them), then the
    table's own."""
    seen: set[str] = set()
    lines: list[str] = []
    for verb in (*rules.spec.verbs, *TABLE_VERBS):
        if verb.name in seen:
            continue
        seen.add(verb.name)
        lines.append(verb.help)
    return lines


def help_text(rules: AnyRuleset, *, table: tuple[str, ...] = TABLE_LINES) -> str:
    """`/help` in a game's thread: that game's commands and nothing of the others."""
    spec = rules.spec
    head = f"**{spec.title}** — {spec.intro.splitlines()[0]}" if spec.intro else f"**{spec.title}**"
    body = "\n".join(f"• {line}" for line in game_commands(rules))
    tail = "\n".join(f"• {line}" for line in table)
    return (f"{head}\n\n__This game's commands__ (the menus and buttons under each prompt do the same)\n{body}"
            f"\n\n__Every game__\n{tail}")


def lobby_help(table: tuple[str, ...] = TABLE_LINES) -> str:
    """`/help` outside a game: the games there are and how to start one."""
    listed = "\n".join(f"• **{r.spec.title}** (`{k}`, {_players(r)}) — {r.spec.summary}" for k, r in games().items())
    return (f"__Games__\n{listed}\n\nStart one with `/game new game:` in a text channel; each game is played in a "
            "thread of its own, and `/help` there lists that game's commands. `/game list` shows the games in "
            "this server; `/rules game:` reads a game's rules.")


def _players(rules: AnyRuleset) -> str:
    lo, hi = rules.spec.min_players, rules.spec.max_players
    return f"{lo} player{'s' if hi > 1 else ''}" if lo == hi else f"{lo}–{hi} players"


@dataclass(frozen=True, slots=True)
class RulesPage:
    key: str
    index: int
    total: int
    section: RulesSection

    def text(self) -> str:
        return f"**{self.section.title}** · page {self.index + 1} of {self.total}\n\n{self.section.text}"


def sections(rules: AnyRuleset) -> tuple[RulesSection, ...]:
    """The game's rules summary; a game that declares none is summarised by its lobby text and intro."""
    spec = rules.spec
    if spec.rules:
        return spec.rules
    return (RulesSection(topic="overview", title=spec.title, text="\n\n".join(t for t in (spec.summary, spec.intro)
                                                                                  if t)),)


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
    for test in (lambda s: s.topic == wanted, lambda s: s.topic.startswith(wanted),
                 lambda s: wanted in s.title.lower()):
        for i, section in enumerate(found):
            if test(section):
                return RulesPage(key, i, len(found), section)
    listed = ", ".join(f"`{s.topic}`" for s in found)
    raise GameError(f"{rules.spec.title}'s rules have no section about “{topic[:40]}”. The topics are {listed}.")


def topics(rules: AnyRuleset) -> list[tuple[str, str]]:
    """(label, topic) pairs for autocomplete and the terminal's tab completion."""
    return [(f"{s.title} ({s.topic})", s.topic) for s in sections(rules)]
