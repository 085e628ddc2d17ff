"""Every command a text names exists (issue 27: a non-player pressing "Read the card" was told there is no
`/card` of theirs, and there is no `/card`).  Every English text of every catalogue that names a command in
backticks is checked against the commands the bot registers with Discord, and so is the refusal of every
game's private view to someone without a seat."""

from __future__ import annotations

import re
from pathlib import Path

from bot.front.offline import TERMINAL_ONLY
from bot.present.base import SeatName
from bot.service.moment import moment_for
from bot.store.db import Database
from cogs.components import not_seated
from rules.core import SeatInfo
from rules.registry import games
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory

ROOT = Path(__file__).resolve().parent.parent
NAMED = re.compile(r"`/([a-z_]+)(?: ([a-z_]+))?")


def _registered(h: FakeDiscordHarness) -> dict[str, set[str]]:
    """Each registered command's name, with its subcommands."""
    out: dict[str, set[str]] = {}
    for scope in h.fake.commands.values():
        for command in scope.values():
            subs = {o["name"] for o in command.get("options") or [] if int(o.get("type", 0)) in (1, 2)}
            out.setdefault(command["name"], set()).update(subs)
    return out


def _missing(text: str, commands: dict[str, set[str]]) -> list[str]:
    wrong = []
    for name, sub in NAMED.findall(text):
        if name not in commands:
            wrong.append(f"/{name}")
        elif commands[name] and sub and sub not in commands[name] and sub.isidentifier():
            wrong.append(f"/{name} {sub}")
    return wrong


async def test_every_command_a_text_names_is_registered(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        commands = _registered(h)
    assert "game" in commands and "status" in commands["game"]
    for rules in games().values():  # a game's verbs all exist too (some only in the terminal, said so there)
        for verb in rules.spec.verbs:
            commands.setdefault(verb.name, set())
    for typed in TERMINAL_ONLY:  # and the terminal's own
        commands.setdefault(typed.split()[0], set())
    wrong: list[str] = []
    for pot in sorted(ROOT.glob("rules/**/template.pot")):
        for msgid in re.findall(r'^msgid (".*"(?:\n".*")*)', pot.read_text(), re.M):
            text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', msgid))
            wrong += [f"{pot.relative_to(ROOT)}: {bad} in {text[:80]!r}" for bad in _missing(text, commands)]
    # a private view refused to someone without a seat names the command that opens it, or none
    for key, rules in games().items():
        state = rules.setup([SeatInfo(0, "A"), SeatInfo(1, "B")] if rules.spec.min_players <= 2 else
                            [SeatInfo(i, n) for i, n in enumerate("ABC")], rules.check_options({}, 2), 1).state
        moment = moment_for(rules, state, [SeatName(0, 1, "A"), SeatName(1, 2, "B")])
        for view in {v.view for v in rules.spec.verbs if v.view} | {"card", "hand"}:
            wrong += [f"{key} view {view}: {bad}" for bad in _missing(not_seated(moment, view), commands)]
    assert not wrong, "\n".join(wrong)


def test_a_flag_option_reads_on_or_off_in_the_lobby() -> None:
    from cogs.games import _option_line

    assert _option_line("autokrator", "raids", True) == "raids: on"
    assert _option_line("autokrator", "raids", False) == "raids: off"


def test_autokrators_status_after_the_end_says_who_won() -> None:
    from bot.present import presenter
    from rules.core import Rng, seed_state
    from tests.autokrator_helpers import R, new_game

    state = new_game(2, "east")
    rng = Rng(seed_state(4))
    for _ in range(5000):
        if R.outcome(state) is not None:
            break
        seat = min(R.to_act(state))
        state = R.apply(state, seat, R.policy(state, seat, rng) or R.legal(state, seat)[0]).state
    outcome = R.outcome(state)
    assert outcome is not None
    moment = moment_for(R, state, [SeatName(0, 1, "A"), SeatName(1, 2, "B")], status="finished")
    assert f"🏆 {outcome.summary}" in presenter("autokrator").status(moment).text
