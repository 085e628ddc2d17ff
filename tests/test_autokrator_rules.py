"""Autokrator's rules as the book states them: its battle clash by clash, its five examples with their places
and outcomes, movement, the Admiral's anchors, defender modifiers, gold and the 2-player rules."""

from __future__ import annotations

import pytest

from rules.autokrator import board
from rules.autokrator.content import library
from rules.autokrator.engine.battle import best_fields, fight
from rules.autokrator.state import (
    Assign,
    Attack,
    Campaign,
    Field,
    Fields,
    Lineup,
    Move,
    OfferTruce,
    Pass,
    Side,
    Spy,
    Voyage,
    Withdraw,
)
from rules.core import IllegalAction, NotYourTurn
from tests.autokrator_helpers import R, act, battle, deal, fought, neutral_battle, new_game, scene, seat


@pytest.fixture
def dealt() -> object:
    return deal(new_game())


# --- the board -----------------------------------------------------------------------------------------


def test_the_books_adjacencies_and_owners_hold() -> None:
    lib = library()
    n = lib.neighbours
    assert set(n["alexandria"]) == {"jerusalem", "fustat", "qattara", "cyrene", "crete", "cyprus"}
    assert {"antioch", "attalia", "sidon"} <= set(n["cyprus"])
    assert {"aleppo", "attalia", "damascus"} <= set(n["antioch"])
    assert {"edessa", "damascus"} <= set(n["aleppo"])
    owner = {r.id: r.owner for r in lib.regions.values()}
    assert owner["cyprus"] == ""
    assert owner["antioch"] == owner["attalia"] == owner["edessa"] == "byz"
    assert owner["aleppo"] == owner["damascus"] == owner["sidon"] == "sar"
    for never in ("bulgaria", "armenia", "asturias", "hungary"):
        assert owner[never] == "x"
    assert {k: r.capital for k, r in lib.realms.items()} == {"sar": "fustat", "byz": "constantinople",
                                                            "fra": "aachen", "moo": "tangier"}
    assert 60 <= len(lib.regions) <= 70
    assert all(a in n[b] for a in n for b in n[a])  # borders run both ways


def test_the_saracen_king_in_alexandria_may_march_where_the_book_says(dealt: object) -> None:
    s = scene(dealt, turn="sar", units={"sar.king": "alexandria"})  # type: ignore[arg-type]
    moves = {a.to for a in R.legal(s, seat(s, "sar")) if isinstance(a, Move) and a.unit == "king"}
    assert moves == {"jerusalem", "fustat", "qattara", "cyrene", "crete", "cyprus"}


def test_the_saracen_admiral_in_sidon_sails_to_every_red_anchor_of_the_example(dealt: object) -> None:
    s = scene(dealt, turn="sar", units={"sar.admiral": "sidon"})  # type: ignore[arg-type]
    ports = {a.to for a in R.legal(s, seat(s, "sar")) if isinstance(a, Voyage)}
    book = {"cyprus", "rhodes", "crete", "ephesus", "thessaloniki", "corinth", "alexandria", "cyrene", "apulia",
            "calabria", "tunis"}
    assert book <= ports
    assert all(library().regions[p].anchor == "red" for p in ports)


def test_king_and_general_never_share_a_region_but_the_capital(dealt: object) -> None:
    # the Byzantine King is in Attalia, so the General cannot stop there
    s = scene(dealt, turn="byz", units={"byz.king": "attalia", "byz.general": "antioch"})  # type: ignore[arg-type]
    moves = {a.to for a in R.legal(s, seat(s, "byz")) if isinstance(a, Move) and a.unit == "general"}
    assert "attalia" not in moves and "caesarea" in moves
    # nor pass through it on two moves between his own regions
    s = act(s, "byz", Move(unit="general", to="caesarea")).state
    second = {a.to for a in R.legal(s, seat(s, "byz")) if isinstance(a, Move)}
    assert "attalia" not in second and second <= {r for r, o in s.owner.items() if o == "byz"}
    # both start together in the capital
    fresh = new_game()
    assert fresh.realms["byz"].units["king"].region == fresh.realms["byz"].units["general"].region == "constantinople"


def test_the_four_lands_can_never_be_entered_or_taken(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.king": "adrianople"})  # type: ignore[arg-type]
    assert not any(isinstance(a, Move) and a.to == "bulgaria" for a in R.legal(s, seat(s, "byz")))
    with pytest.raises(IllegalAction):
        act(s, "byz", Move(unit="king", to="bulgaria"))


# --- the book's battle ---------------------------------------------------------------------------------


def test_the_books_battle_byzantine_admiral_against_saracen_general_on_ambush(dealt: object) -> None:
    s = scene(dealt, turn="byz",  # type: ignore[arg-type]
              units={"byz.admiral": "ephesus", "sar.general": "sidon", "sar.admiral": "alexandria"},
              cards={"byz.admiral": ["byz-admiral", "byz-cava2", "byz-infa0"],
                     "sar.general": ["sar-general", "sar-merc0", "sar-arch1"]})
    lib = library()
    assert [lib.cards[c].kind for c in ("byz-admiral", "byz-cava2", "byz-infa0")] == ["archers", "cavalry",
                                                                                      "infantry"]
    assert [lib.cards[c].points("ambush") for c in ("byz-admiral", "byz-cava2", "byz-infa0")] == [5, 2, 4]
    assert [lib.cards[c].points("plain") for c in ("byz-admiral", "byz-cava2", "byz-infa0")] == [4, 5, 2]
    s = act(s, "byz", Voyage(to="sidon")).state
    assert R.legal(s, seat(s, "byz")) == [Attack(unit="admiral", target="sar.general"),
                                          Attack(unit="admiral", target="sar.admiral")] or \
        Attack(unit="admiral", target="sar.general") in R.legal(s, seat(s, "byz"))
    s = act(s, "byz", Attack(unit="admiral", target="sar.general")).state
    assert s.battle is not None
    assert (s.battle.attacker.modifier, s.battle.defender.modifier) == (-2, -1)  # 4 lives each
    # Phase A: the attacker's highest battle points are on the Ambush and the Plain
    assert best_fields(s.battle.attacker.cards, 2) == ["plain", "ambush"]
    s = act(s, "byz", Fields(fields=("plain", "ambush"))).state
    # Phase B: the Saracen has more on the Ambush
    assert best_fields(s.battle.defender.cards, 1, s.battle.fields) == ["ambush"]  # type: ignore[union-attr]
    s = act(s, "sar", Field(field="ambush")).state
    # Phase C: the Byzantine markers on the cavalry and the archers; the Saracen's on the mercenaries
    s = act(s, "byz", Lineup(cards=("byz-cava2", "byz-admiral", "byz-infa0"), marks=(0, 1))).state
    step = act(s, "sar", Lineup(cards=("sar-general", "sar-arch1", "sar-merc0"), marks=(2,)))
    e = fought(step.events)
    assert e.field == "ambush"
    assert [(c.attacker_points, c.defender_points, c.winner) for c in e.clashes] == [
        (1, 4, "defender"), (4, 5, "defender"), (4, 1, "attacker")]
    assert e.swords == (4, 2) and e.troops == (13000, 12000)
    assert e.points == (3, 2) and e.attacker_won
    after = step.state
    assert after.realms["sar"].units["general"].lives == 3
    assert after.realms["byz"].units["admiral"].region == "sidon"


def test_a_level_score_goes_to_the_attacker() -> None:
    same = ["sar-infa1", "sar-arch2", "sar-merc1"]
    a = Side(realm="sar", holder="king", cards=same, modifier=0, lineup=same)
    d = Side(realm="byz", holder="general", cards=same, modifier=0, lineup=same)
    _clashes, _s, _t, points, won = fight("hill", a, d)
    assert points == (0, 0) and won


def test_markers_lift_a_five_to_six_and_sink_a_one_to_nought() -> None:
    a = Side(realm="sar", holder="king", cards=[], modifier=3, lineup=["sar-king", "sar-general", "sar-admiral"],
             marks=[0, 1, 2])
    d = Side(realm="byz", holder="garrison", cards=[], modifier=-1,
             lineup=["byz-garrison", "byz-infa0", "byz-infa1"], marks=[0])
    clashes, *_ = fight("plain", a, d)
    assert clashes[0].attacker_points == 6  # the crown's Cavalry: 5 on the Plain, +1
    assert clashes[0].defender_points == 0  # the tower's Militia: 1 on the Plain, −1


def test_the_defender_modifiers_of_regions(dealt: object) -> None:
    s = scene(dealt, turn="sar", pieces={"cyprus": "byz"}, owner={"cyprus": "byz"})  # type: ignore[arg-type]
    assert board.defence(s, "crete") == 0  # neutral
    assert board.defence(s, "antioch") == 1  # one coat of arms
    assert board.defence(s, "thessaloniki") == 2  # two coats of arms
    assert board.defence(s, "constantinople") == 3  # the capital
    assert board.defence(s, "cyprus") == 1  # a Garrison piece


# --- the five examples -------------------------------------------------------------------------------


def test_example_1_the_byzantine_general_attacks_neutral_cyprus(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.general": "antioch"})  # type: ignore[arg-type]
    s = act(s, "byz", Move(unit="general", to="cyprus")).state
    assert R.legal(s, seat(s, "byz")) == [Attack(unit="general", target="region")]  # he must fight for it
    began = act(s, "byz", Attack(unit="general", target="region")).state
    assert began.battle is not None and began.battle.defender.realm == "" and began.battle.defender.modifier == 0
    won, _ = neutral_battle(s, Attack(unit="general", target="region"), attacker_wins=True)
    assert won.owner["cyprus"] == "byz" and won.pieces["cyprus"] == "byz"
    assert won.realms["byz"].units["general"].region == "cyprus"
    assert won.realms["byz"].supply == 6
    lost, _ = neutral_battle(s, Attack(unit="general", target="region"), attacker_wins=False)
    assert lost.owner["cyprus"] == ""
    assert lost.realms["byz"].units["general"].lives == 3
    assert lost.phase == "retreat" and set(lost.retreat.options) == {"antioch", "attalia"}  # type: ignore[union-attr]
    back = act(lost, "byz", Withdraw(to="attalia")).state
    assert back.realms["byz"].units["general"].region == "attalia"


def test_example_2_the_byzantine_general_takes_saracen_aleppo(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.general": "antioch"})  # type: ignore[arg-type]
    s = act(s, "byz", Move(unit="general", to="aleppo")).state
    assert R.legal(s, seat(s, "byz")) == [Attack(unit="general", target="region")]
    s = act(s, "byz", Attack(unit="general", target="region")).state
    assert s.battle is not None and s.battle.defender.holder == "garrison" and s.battle.defender.modifier == 1
    won, _ = battle(s, attacker_wins=True)
    assert won.owner["aleppo"] == "byz" and won.pieces["aleppo"] == "byz"  # his Garrison on the Saracen arms
    assert won.realms["byz"].score == s.realms["byz"].score + 2  # an enemy region: 2 points (and any start)
    lost, _ = battle(s, attacker_wins=False)
    assert lost.owner["aleppo"] == "sar"
    assert set(lost.retreat.options) == {"antioch", "edessa"}  # type: ignore[union-attr]


def test_example_3_the_byzantine_general_beats_the_saracen_general_in_aleppo(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.general": "antioch", "sar.general": "aleppo"})  # type: ignore[arg-type]
    s = act(s, "byz", Move(unit="general", to="aleppo")).state
    assert R.legal(s, seat(s, "byz")) == [Attack(unit="general", target="sar.general")]  # not the Garrison
    s = act(s, "byz", Attack(unit="general", target="sar.general")).state
    won, _ = battle(s, attacker_wins=True)
    assert won.phase == "retreat" and won.retreat is not None and won.retreat.realm == "sar"
    assert "damascus" in won.retreat.options
    after = act(won, "sar", Withdraw(to="damascus")).state
    assert after.realms["sar"].units["general"].region == "damascus"
    assert after.realms["byz"].units["general"].region == "aleppo"
    assert after.owner["aleppo"] == "sar"  # still held by the Saracen Garrison
    lost, _ = battle(s, attacker_wins=False)
    assert set(lost.retreat.options) == {"antioch", "edessa"}  # type: ignore[union-attr]


def test_example_4_the_byzantine_admiral_chooses_the_saracen_king_in_sidon(dealt: object) -> None:
    s = scene(dealt, turn="byz",  # type: ignore[arg-type]
              units={"byz.admiral": "ephesus", "sar.king": "sidon", "sar.admiral": "sidon", "sar.general": "fustat"},
              lives={"byz.admiral": 2, "sar.king": 2}, cards={"byz.admiral": ["byz-admiral", "byz-cava2", "byz-infa0"]})
    s = act(s, "byz", Voyage(to="sidon")).state
    assert set(R.legal(s, seat(s, "byz"))) == {Attack(unit="admiral", target="sar.king"),
                                              Attack(unit="admiral", target="sar.admiral")}
    s = act(s, "byz", Attack(unit="admiral", target="sar.king")).state
    won, _ = battle(s, attacker_wins=True)
    if won.phase == "retreat":
        won = act(won, "sar", Withdraw(to=won.retreat.options[0])).state  # type: ignore[union-attr]
    assert won.realms["sar"].units["king"].region in ("jerusalem", "damascus")
    assert won.owner["sidon"] == "sar"  # still under Saracen control
    assert won.realms["byz"].units["admiral"].region == "sidon"
    lost, _ = battle(s, attacker_wins=False)
    assert lost.realms["byz"].units["admiral"].lives == 1
    assert set(lost.retreat.options) == {"ephesus", "corinth", "thessaloniki", "calabria"}  # type: ignore[union-attr]


def test_example_5_the_saracens_drive_off_the_byzantines_and_the_king_must_fight(dealt: object) -> None:
    s = scene(dealt, turn="sar",  # type: ignore[arg-type]
              units={"sar.king": "damascus", "sar.general": "sidon", "byz.general": "antioch", "byz.king": "cyprus"},
              owner={"cyprus": "byz"}, pieces={"cyprus": "byz"})
    s = act(s, "sar", Move(unit="king", to="antioch")).state
    assert R.legal(s, seat(s, "sar")) == [Attack(unit="king", target="byz.general")]
    s = act(s, "sar", Attack(unit="king", target="byz.general")).state
    s, _ = battle(s, attacker_wins=True)
    assert s.phase == "retreat" and set(s.retreat.options) == {"attalia", "caesarea"}  # type: ignore[union-attr]
    s = act(s, "byz", Withdraw(to="attalia")).state
    assert s.owner["antioch"] == "byz"
    s = act(s, "sar", Move(unit="general", to="cyprus")).state
    assert R.legal(s, seat(s, "sar")) == [Attack(unit="general", target="byz.king")]  # not the Garrison
    s = act(s, "sar", Attack(unit="general", target="byz.king")).state
    s, _events = battle(s, attacker_wins=True)
    # the King falls back to Antioch: Attalia is barred, the Byzantine General is there
    assert s.realms["byz"].units["king"].region == "antioch"
    s = act(s, "sar", Pass(unit="turn")).state
    assert s.order[s.turn] == "byz"
    king = [a for a in R.legal(s, seat(s, "byz")) if getattr(a, "unit", "") == "king"]
    assert king == [Attack(unit="king", target="sar.king")]  # he cannot move before he fights


# --- units -------------------------------------------------------------------------------------------


def test_a_beaten_king_with_no_region_of_his_own_nearby_goes_home(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.king": "attalia", "byz.general": "nicaea"},  # type: ignore[arg-type]
              owner={"antioch": "", "caesarea": "", "ancyra": "", "ephesus": ""})
    s = act(s, "byz", Move(unit="king", to="rhodes")).state
    lost, _ = neutral_battle(s, Attack(unit="king", target="region"), attacker_wins=False)
    assert lost.realms["byz"].units["king"].region == "attalia"  # Rhodes borders Attalia, his own
    s.owner["attalia"] = ""
    home, _ = neutral_battle(s, Attack(unit="king", target="region"), attacker_wins=False)
    assert home.realms["byz"].units["king"].region == "constantinople"  # nowhere nearby: home to the capital


def test_a_beaten_general_far_from_home_returns_to_the_capital_and_loses_another_life(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.general": "cyrene"}, owner={"cyrene": "", "crete": ""})  # type: ignore
    s, _events = neutral_battle(s, Attack(unit="general", target="region"), attacker_wins=False)
    g = s.realms["byz"].units["general"]
    assert g.region == "constantinople" and g.lives == 2


def test_an_admiral_with_no_port_of_his_own_is_lost(dealt: object) -> None:
    s = scene(dealt, turn="sar", units={"sar.admiral": "sidon"},  # type: ignore[arg-type]
              owner={"alexandria": "byz", "cyrene": "byz"})
    s = act(s, "sar", Voyage(to="crete")).state
    lost, _ = neutral_battle(s, Attack(unit="admiral", target="region"), attacker_wins=False)
    assert lost.phase == "turns" and lost.realms["sar"].units["admiral"].region == "sidon"  # Sidon is his port
    s2 = scene(dealt, turn="sar", units={"sar.admiral": "crete"},  # type: ignore[arg-type]
               owner={"alexandria": "byz", "cyrene": "byz", "sidon": "byz"})
    gone, _ = neutral_battle(s2, Attack(unit="admiral", target="region"), attacker_wins=False)
    assert "admiral" not in gone.realms["sar"].units


def test_the_general_makes_two_moves_between_his_own_regions_or_one_move_and_an_attack(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.general": "ancyra"})  # type: ignore[arg-type]
    s = act(s, "byz", Move(unit="general", to="caesarea")).state
    assert any(isinstance(a, Move) for a in R.legal(s, seat(s, "byz")))
    s = act(s, "byz", Move(unit="general", to="antioch")).state
    assert s.realms["byz"].units["general"].done  # two moves: his activation is over


def test_a_capital_taken_ends_the_war_at_once(dealt: object) -> None:
    s = scene(dealt, turn="sar", units={"sar.general": "nicaea", "byz.king": "ancyra",  # type: ignore[arg-type]
                                        "byz.general": "ephesus"}, lives={"sar.general": 1}, owner={"nicaea": "sar"})
    s = act(s, "sar", Move(unit="general", to="constantinople")).state
    s = act(s, "sar", Attack(unit="general", target="region")).state
    assert s.battle is not None and s.battle.defender.modifier == 3
    assert s.battle.attacker.modifier == 3  # +2 at one life, +1 from the First Epoch's condition
    s, _events = battle(s, attacker_wins=True)
    assert s.phase == "over" and s.winner == "sar"
    out = R.outcome(s)
    assert out is not None and out.winners == (seat(s, "sar"),)


# --- dealing cards, gold, epochs ---------------------------------------------------------------------


def test_cards_are_dealt_in_secret_at_the_same_time_three_to_a_unit_no_two_alike() -> None:
    s = new_game()
    assert R.to_act(s) == frozenset({0, 1, 2, 3})
    first = R.legal(s, 0)
    assert all(isinstance(a, Assign) and a.holder == "king" for a in first)
    lib = library()
    assert not any(lib.cards[c].kind == "cavalry" for a in first for c in a.cards)  # the crown is Cavalry
    moment = R.moment(s)
    s = R.apply(s, 0, first[0]).state
    assert R.moment(s) == moment  # nobody else's menu goes stale
    assert R.view(s, 1).pending == {} and R.view(s, None).pending == {}
    s = deal(s)
    for rs in s.realms.values():
        for holder, cards in rs.cards.items():
            kinds = [lib.cards[c].kind for c in cards]
            assert len(cards) == 3 and len(set(kinds)) == 3
            assert lib.cards[cards[0]].fixed == holder
    assert R.view(s, 1).realm("sar").cards == {}  # another realm's cards stay hidden


def test_gold_comes_before_every_epoch_but_the_first_and_never_above_eleven(dealt: object) -> None:
    s = scene(dealt, turn="byz")  # type: ignore[arg-type]
    s.realms["byz"].treasury = 4
    assert s.realms["byz"].treasury == 4
    s = act(s, "byz", Spy(target="sar.king")).state
    assert s.realms["byz"].treasury == 2
    assert R.view(s, seat(s, "byz")).realm("sar").cards["king"]
    assert "king" not in R.view(s, seat(s, "fra")).realm("sar").cards
    s = act(s, "byz", Pass(unit="turn")).state
    for realm in ("fra", "moo"):
        s = act(s, realm, Pass(unit="turn")).state
    assert s.epoch == 2 and s.phase == "assign"
    assert s.realms["byz"].treasury == 4 and s.realms["fra"].treasury == 11


def test_the_two_player_game_forbids_the_admirals_campaign_and_truces_and_other_realms() -> None:
    s = deal(new_game(players=2, mode="east"))
    legal = R.legal(s, 0)
    assert not any(isinstance(a, Campaign) and a.unit == "admiral" for a in legal)
    assert any(isinstance(a, Campaign) and a.unit == "king" for a in legal)
    assert not any(isinstance(a, OfferTruce) for a in legal)
    four = deal(new_game())
    assert any(isinstance(a, Campaign) and a.unit == "admiral" for a in R.legal(four, 0))
    assert any(isinstance(a, OfferTruce) for a in R.legal(four, 0))
    # Frankish regions cannot be attacked in the eastern game, only crossed
    s2 = scene(s, turn="byz", units={"byz.admiral": "ephesus"})
    s2 = act(s2, "byz", Voyage(to="calabria")).state
    assert board.targets(s2, "byz", "rome") == ["region"]
    s2.owner["rome"] = "fra"
    assert board.targets(s2, "byz", "rome") == []


def test_the_fast_game_alternates_one_unit_at_a_time() -> None:
    s = deal(new_game(players=2, mode="east"))
    assert R.to_act(s) == frozenset({0})
    s = R.apply(s, 0, Pass(unit="king")).state
    assert R.to_act(s) == frozenset({1})
    with pytest.raises(NotYourTurn):
        R.apply(s, 0, Pass(unit="general"))


def test_a_truce_keeps_two_realms_from_each_others_throats(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.general": "antioch"})  # type: ignore[arg-type]
    s = act(s, "byz", OfferTruce(realm="sar")).state
    assert R.to_act(s) == frozenset({seat(s, "sar")})
    from rules.autokrator.state import AnswerTruce
    s = act(s, "sar", AnswerTruce(accept=True)).state
    moves = {a.to for a in R.legal(s, seat(s, "byz")) if isinstance(a, Move) and a.unit == "general"}
    assert "aleppo" in moves
    s = act(s, "byz", Move(unit="general", to="aleppo")).state
    assert board.targets(s, "byz", "aleppo") == []  # no battle with a realm at truce


def test_the_kings_campaign_gives_two_moves_before_the_attack(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.king": "ancyra", "byz.general": "constantinople"})  # type: ignore
    s = act(s, "byz", Campaign(unit="king")).state
    assert s.realms["byz"].treasury == 8
    s = act(s, "byz", Move(unit="king", to="caesarea")).state
    s = act(s, "byz", Move(unit="king", to="antioch")).state
    assert s.realms["byz"].units["king"].region == "antioch"


def _end_epoch(s: object) -> object:
    from rules.autokrator.state import State
    assert isinstance(s, State)
    while s.phase == "turns":
        s = act(s, s.order[s.turn], Pass(unit="turn")).state
    return s


def test_a_neutral_general_raids_out_of_bulgaria_in_the_second_epoch() -> None:
    s = deal(new_game(raids=True))
    s = deal(_end_epoch(s))  # type: ignore[arg-type]
    assert s.epoch == 2 and s.phase == "battle" and s.battle is not None
    b = s.battle
    assert b.attacker.holder == "raid" and b.attacker.cards[0] == "neutral-general-0"  # his own Cavalry
    assert library().cards["neutral-general-0"].kind == "cavalry"
    assert b.region in library().neighbours["bulgaria"] and s.owner[b.region] == "byz"
    assert b.stage == "field" and len(b.fields) == 2
    assert R.to_act(s) == frozenset({seat(s, "byz")})
    s = act(s, "byz", Field(field=b.fields[0])).state
    step = act(s, "byz", R.legal(s, seat(s, "byz"))[0])
    e = fought(step.events)
    after = step.state
    assert after.phase == "turns" and after.order[after.turn] == "sar"  # the first turn of the epoch begins
    if e.attacker_won:
        assert after.owner[b.region] == ""
    else:
        assert after.realms["byz"].score == 1


def test_the_generals_campaign_marches_and_fights_again_after_a_victory(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.general": "antioch"})  # type: ignore[arg-type]
    s = act(s, "byz", Campaign(unit="general")).state
    assert s.realms["byz"].treasury == 7
    s = act(s, "byz", Move(unit="general", to="aleppo")).state
    s = act(s, "byz", Attack(unit="general", target="region")).state
    s, _events = battle(s, attacker_wins=True)
    again = R.legal(s, seat(s, "byz"))
    assert s.current == "general" and any(isinstance(a, Move) and a.to == "damascus" for a in again)


def test_the_admirals_campaign_sails_to_a_port_of_the_other_colour(dealt: object) -> None:
    s = scene(dealt, turn="byz")  # type: ignore[arg-type]
    before = {a.to for a in R.legal(s, seat(s, "byz")) if isinstance(a, Voyage)}
    assert "sicily" not in before
    s = act(s, "byz", Campaign(unit="admiral")).state
    after = {a.to for a in R.legal(s, seat(s, "byz")) if isinstance(a, Voyage)}
    assert "sicily" in after and "rome" in after and s.realms["byz"].treasury == 9


def test_tabula_offers_battle_where_its_cards_are_strongest(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.admiral": "sidon", "sar.admiral": "alexandria"},  # type: ignore
              cards={"byz.admiral": ["byz-admiral", "byz-cava2", "byz-infa0"]})
    s = act(s, "byz", Attack(unit="admiral", target="sar.king" if "king" in {n for n, u in s.realms["sar"].units.items()
                                                                             if u.region == "sidon"}
                             else "region")).state
    from rules.core import Rng
    choice = R.policy(s, seat(s, "byz"), Rng(1))
    assert choice == Fields(fields=("plain", "ambush"))


def test_a_unit_left_in_an_enemy_region_must_fight_its_garrison_before_moving(dealt: object) -> None:
    s = scene(dealt, turn="byz", units={"byz.general": "aleppo"})  # type: ignore[arg-type]
    general = [a for a in R.legal(s, seat(s, "byz")) if getattr(a, "unit", "") == "general"]
    assert general == [Attack(unit="general", target="region")]
    assert Pass(unit="turn") not in R.legal(s, seat(s, "byz"))


def test_last_epochs_dealing_may_be_kept_in_one_choice() -> None:
    s = deal(new_game())
    first = {k: dict(s.realms[k].cards) for k in s.order}
    s = _end_epoch(s)  # type: ignore[assignment]
    assert s.epoch == 2  # type: ignore[attr-defined]
    legal = R.legal(s, 0)  # type: ignore[arg-type]
    assert legal[0] == Assign(holder="same", cards=())
    s = R.apply(s, 0, legal[0]).state  # type: ignore[arg-type]
    assert s.realms["sar"].assigned and s.realms["sar"].cards == first["sar"]
    fresh = new_game()
    assert not any(isinstance(a, Assign) and a.holder == "same" for a in R.legal(fresh, 0))


def test_after_the_time_limit_tabula_plays_the_waiting_realm_until_it_has_nothing_left_to_do_now() -> None:
    s = new_game()
    s = R.apply(s, 1, R.legal(s, 1)[0]).state  # Bob starts dealing; Ann, Cleo and Dara have not
    pending = R.timeout(s)
    assert pending is not None
    seat, action = pending
    assert seat == 0
    step = R.apply(s, seat, action)
    assert step.state.realms["sar"].assigned and not step.state.realms["byz"].assigned
    assert R.to_act(step.state) == frozenset({1, 2, 3})
    s = deal(step.state)
    seat, action = R.timeout(s)  # type: ignore[misc]
    assert seat == 0
    after = R.apply(s, seat, action).state
    assert after.order[after.turn] != "sar" or after.phase != "turns"  # the Saracens' whole turn was played
    assert all(u.done for u in after.realms["sar"].units.values()) or after.phase in ("battle", "retreat")
