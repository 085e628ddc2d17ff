"""Autokrator's balance, kept by a small sample: Tabula's policy plays every realm (drawn at random to the
seats) and no realm may run away with the game.  The limits are loose on purpose — the real figures, from 2,000
games a setting, are in RULES.md (`python -m bot.balance autokrator --games 2000`) — so only an edit to the map,
the epochs or the scoring that badly breaks the balance fails here.  The compensation itself (starting points,
level scores by setting) is checked exactly: who wins a level score, and what the story says."""

from __future__ import annotations

import pytest

from bot.balance import measure, settings
from rules.autokrator import RULESET
from rules.autokrator.content import REALMS, library
from rules.autokrator.spec import MODES
from rules.autokrator.state import Pass, State
from rules.autokrator.telling import why_won
from rules.i18n import using
from tests.autokrator_helpers import R, act, deal, new_game, scene

SETTINGS = {s.key: s for s in settings(RULESET.spec)}


@pytest.mark.parametrize(("key", "games", "low", "high"), [
    ("east", 100, 0.35, 0.65),
    ("west-noraids", 100, 0.35, 0.65),
    ("full", 60, 0.12, 0.40),
])
def test_no_realm_runs_away_with_the_game(key: str, games: int, low: float, high: float) -> None:
    tally = measure("autokrator", SETTINGS[key], games, seed=500)
    shares = {side: tally.wins.get(side, 0.0) / tally.games for side in tally.sides}
    assert len(shares) == SETTINGS[key].players
    assert all(low <= share <= high for share in shares.values()), (key, shares)


def _ended_level(mode: str, raids: bool, level: tuple[str, str], pieces: dict[str, str]) -> State:
    """A four-realm game at its last move: the two realms of ``level`` level on 10 points, the others on 5, the
    Garrison pieces of ``pieces`` on the board; the Saracen King rests, and the fifth epoch is over."""
    s = scene(deal(new_game(mode=mode, raids=raids)), turn="sar", pieces=pieces)
    s.epoch = 5
    for key in s.order:
        s.realms[key].score = 10 if key in level else 5
        for name, unit in s.realms[key].units.items():
            unit.done = not (key == "sar" and name == "king")
    state: State = act(s, "sar", Pass(unit="king")).state
    return state


@pytest.mark.parametrize(("mode", "raids", "level", "pieces", "winner", "said"), [
    # The setting's level score (half a point of compensation) beats more conquests held ...
    ("fast", True, ("sar", "byz"), {"cyprus": "sar"}, "byz", "the Saracens, who gives way on a level score"),
    ("full", False, ("byz", "moo"), {"tlemcen": "moo"}, "byz", "the Moors, who gives way on a level score"),
    ("full", False, ("fra", "moo"), {"tlemcen": "moo"}, "fra", "the Moors, who gives way on a level score"),
    ("fast", False, ("sar", "byz"), {"cyprus": "sar"}, "byz", "the Saracens, who gives way on a level score"),
    ("fast", False, ("byz", "fra"), {"bohemia": "fra"}, "byz", "the Franks, who gives way on a level score"),
    # ... and where the setting gives none, more conquests held decide as before.
    ("full", True, ("sar", "byz"), {"cyprus": "sar"}, "sar", "more conquests held decide (1 to 0)"),
    ("full", False, ("sar", "byz"), {"cyprus": "sar"}, "sar", "more conquests held decide (1 to 0)"),
    ("fast", False, ("byz", "moo"), {"tlemcen": "moo"}, "moo", "more conquests held decide (1 to 0)"),
])
def test_a_level_score_goes_where_the_setting_gives_it(mode: str, raids: bool, level: tuple[str, str],
                                                      pieces: dict[str, str], winner: str, said: str) -> None:
    state = _ended_level(mode, raids, level, pieces)
    outcome = R.outcome(state)
    assert state.phase == "over" and state.winner == winner
    assert outcome is not None
    with using("en"):
        assert said in why_won(R.view(state, None)), why_won(R.view(state, None))


def test_the_level_scores_name_realms_and_never_give_one_both_ways() -> None:
    numbers = library().numbers
    assert numbers.level, "rules.toml has level scores"
    for setting, wins in numbers.level.items():
        assert setting.split("-")[0] in MODES, setting
        for realm, beaten in wins.items():
            assert realm in REALMS and set(beaten) <= set(REALMS) - {realm}, (setting, realm, beaten)
            assert not any(realm in wins.get(other, ()) for other in beaten), (setting, realm)
