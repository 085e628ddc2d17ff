"""Legend of Heroes' rules summary for `/rules topic:` and the intro said when a game starts, for every mode."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules.legend import RULESET
from rules.legend.spec import MODE_INTROS
from rules.legend.telling import tell
from tests.legend_helpers import play_moves, public

SPEC = RULESET.spec


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def test_the_rules_summary_has_a_page_for_each_part_of_the_game() -> None:
    topics = [s.topic for s in SPEC.rules]
    assert 5 <= len(topics) <= 8 and topics[0] == "overview"
    assert topics == ["overview", "turn", "exploring", "fights", "treasure", "narrator", "solo", "expanded"]
    for section in SPEC.rules:
        assert re.fullmatch(r"[a-z]+", section.topic) and 0 < len(section.title) <= 80
        assert 200 <= len(section.text) <= 1500, (section.topic, len(section.text))
        for topic in re.findall(r"`/rules topic:(\w+)`", section.text):
            assert topic in topics  # a cross-reference leads to a real page
    everything = " ".join(s.text for s in SPEC.rules)
    for words in ("most gold", "eight wounds", "red dot", "d20", "Narrator", "Leader", "`/explore to:`"):
        assert words in everything, words


def test_the_intro_says_how_to_win_and_how_a_turn_goes_for_every_mode() -> None:
    lines = SPEC.intro.split("\n")
    assert 2 <= len(lines) <= 3 and len(SPEC.intro) <= 400
    assert "most gold" in lines[0] and "`/explore to:`" in lines[1]
    for mode_word in ("party", "solo", "Narrator", "heroes"):  # nothing that is true of one mode only
        assert mode_word not in SPEC.intro


@pytest.mark.parametrize(("names", "options", "expected"), [
    (["Ann", "Bob"], {"mode": "starter"}, []),
    (["Ann", "Bob"], {"mode": "starter", "narration": "players"}, ["players"]),
    (["Ann"], {"mode": "solo"}, ["solo"]),
    (["Ann", "Bob"], {"mode": "expanded"}, ["expanded"]),
    (["Ann"], {"mode": "expanded"}, ["solo-expanded"]),
    (["Ann", "Bob", "Cy"], {"mode": "expanded", "narration": "players"}, ["expanded", "players"]),
])
def test_the_opening_message_adds_what_the_mode_changes(names: list[str], options: dict[str, Any],
                                                        expected: list[str]) -> None:
    state, events = play_moves(RULESET, names, 0, **options)[0]  # type: ignore[arg-type]
    told = tell(public(state), events)
    said = [key for key, line in MODE_INTROS.items() if line in told]
    assert said == expected
    for key in said:
        assert len(MODE_INTROS[key]) <= 250
