"""Autokrator's battles as they happen in a turn: an attack or a raid sets one up, the battlefields are chosen and
the rows laid, and its end brings points, lost lives, retreats and conquests.  The fight itself, card against card,
is ``battle``; what comes next in the turn is ``turns``'."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.autokrator import board
from rules.autokrator import i18n as words
from rules.autokrator.content import library
from rules.autokrator.engine.battle import best_fields, fight
from rules.autokrator.engine.turns import Turns, realm_name, unit_title
from rules.autokrator.state import (
    Attack,
    Battle,
    BattleBegan,
    BattleFought,
    CardsDrawn,
    CardsLaid,
    Conquered,
    Field,
    FieldChosen,
    Fields,
    FieldsChosen,
    LifeLost,
    Lineup,
    NoRaid,
    RaidLaunched,
    Retreat,
    Retreated,
    Scored,
    Side,
    State,
    UnitRemoved,
)
from rules.core import Rng


@dataclass(frozen=True, slots=True)
class Battles:
    """Battles, given the turns they interrupt (to carry on with once a battle is over)."""

    turns: Turns

    def _modifier(self, s: State, realm: str, unit: str, when: str) -> int:
        lib = library()
        base = lib.numbers.lives[unit].modifier(s.realms[realm].units[unit].lives) if unit in lib.numbers.lives \
            else 0
        epoch = lib.epochs[s.epoch - 1]
        if epoch.kind == "bonus" and epoch.realm == realm and epoch.unit in ("any", unit) \
                and epoch.when in ("any", when) and unit != "garrison":
            base += epoch.value
        return max(-3, min(3, base))

    def _draw(self, stack: str, count: int, rng: Rng, events: list[Any], keep: str = "") -> list[str]:
        deck = [c for c in library().deck(stack) if c != keep]
        drawn = rng.shuffle(deck)[:count]
        events.append(CardsDrawn(stack=stack, count=count))
        return drawn

    def attack(self, s: State, realm: str, action: Attack, rng: Rng, events: list[Any]) -> None:
        rs = s.realms[realm]
        u = rs.units[action.unit]
        s.current = action.unit
        u.attacked = True
        region = u.region
        attacker = Side(realm=realm, holder=action.unit, cards=list(rs.cards[action.unit]),
                        modifier=self._modifier(s, realm, action.unit, "attack"))
        if action.target == "region":
            owner = s.owner[region]
            if owner == "":
                stack = "neutral-region" if s.raids else "neutral"
                defender = Side(realm="", holder="neutral", cards=[], modifier=board.defence(s, region))
                events.append(self._began(region, attacker, defender))
                defender.cards = self._draw(stack, 3, rng, events)
            else:
                defender = Side(realm=owner, holder="garrison", cards=list(s.realms[owner].cards["garrison"]),
                                modifier=board.defence(s, region))
                events.append(self._began(region, attacker, defender))
        else:
            other, unit = action.target.split(".")
            defender = Side(realm=other, holder=unit, cards=list(s.realms[other].cards[unit]),
                            modifier=self._modifier(s, other, unit, "defend"))
            events.append(self._began(region, attacker, defender))
        s.battle = Battle(region=region, attacker=attacker, defender=defender, stage="fields")
        s.phase = "battle"

    def _began(self, region: str, a: Side, d: Side) -> BattleBegan:
        return BattleBegan(region=region, attacker=a.realm, attacker_unit=a.holder, defender=d.realm,
                           defender_unit=d.holder, attacker_modifier=a.modifier, defender_modifier=d.modifier)

    def raid(self, s: State, source: str, rng: Rng, events: list[Any]) -> None:
        lib = library()
        options = [n for n in lib.neighbours[source] if s.owner[n] in s.order and not lib.regions[n].capital]
        if not options:
            events.append(NoRaid(source=source))
            return
        region = options[rng.below(len(options))]
        owner = s.owner[region]
        events.append(RaidLaunched(source=source, region=region, realm=owner))
        horse = lib.deck("neutral-general")[0]
        attacker = Side(realm="", holder="raid", cards=[], modifier=0)
        defender = Side(realm=owner, holder="garrison", cards=list(s.realms[owner].cards["garrison"]),
                        modifier=board.defence(s, region))
        events.append(self._began(region, attacker, defender))
        attacker.cards = [horse, *self._draw("neutral-general", 2, rng, events, keep=horse)]
        b = Battle(region=region, attacker=attacker, defender=defender, stage="field")
        b.fields = best_fields(attacker.cards, 2)
        events.append(FieldsChosen(fields=tuple(b.fields)))
        self._lay_neutral(attacker, rng)
        s.battle = b
        s.phase = "battle"

    def _lay_neutral(self, side: Side, rng: Rng) -> None:
        side.lineup = rng.shuffle(side.cards)
        side.marks = list(range(min(abs(side.modifier), 3)))

    def battle_step(self, s: State, realm: str, action: Fields | Field | Lineup, rng: Rng,
                     events: list[Any]) -> None:
        b = s.battle
        assert b is not None
        if isinstance(action, Fields):
            b.fields = list(action.fields)
            events.append(FieldsChosen(fields=action.fields))
            b.stage = "field"
            if not b.defender.realm:
                b.field = best_fields(b.defender.cards, 1, b.fields)[0]
                events.append(FieldChosen(field=b.field))
                b.stage = "lineup"
                self._lay_neutral(b.defender, rng)
            return
        if isinstance(action, Field):
            b.field = action.field
            events.append(FieldChosen(field=b.field))
            b.stage = "lineup"
            return
        side = b.attacker if b.attacker.realm == realm and not b.attacker.laid else b.defender
        side.lineup, side.marks = list(action.cards), list(action.marks)
        events.append(CardsLaid(side="attacker" if side is b.attacker else "defender"))
        if b.attacker.laid and b.defender.laid:
            self._resolve(s, rng, events)

    def _resolve(self, s: State, rng: Rng, events: list[Any]) -> None:
        lib = library()
        b = s.battle
        assert b is not None
        a, d = b.attacker, b.defender
        clashes, swords, troops, points, won = fight(b.field, a, d)
        events.append(BattleFought(region=b.region, field=b.field, attacker=a.realm, attacker_unit=a.holder,
                                   defender=d.realm, defender_unit=d.holder, clashes=tuple(clashes), swords=swords,
                                   troops=troops, points=points, attacker_won=won))
        for side in (a, d):
            if side.realm and side.holder not in s.realms[side.realm].known:
                s.realms[side.realm].known.append(side.holder)
        s.battle = None
        s.phase = "turns"
        pts = lib.numbers.points
        loser, winner = (d, a) if won else (a, d)
        if loser.holder in ("king", "general", "admiral"):
            if winner.realm:
                why = words.WHY_DEFEAT.format(unit=unit_title(loser.realm, loser.holder))
                self._score(s, winner.realm, pts["defeat_unit"], why, events)
            self._beaten(s, loser.realm, loser.holder, b.region, rng, events)
        elif won:
            self._conquer(s, a.realm, b.region, events)
        elif a.holder == "raid":
            self._score(s, d.realm, pts["repel_raid"], words.WHY_RAID, events)
        if s.phase == "over":
            return
        if won and a.holder == "general" and a.realm and "general" in s.realms[a.realm].units:
            g = s.realms[a.realm].units["general"]
            if g.campaign:  # the General's campaign: after a victory he marches and fights once more
                g.campaign, g.attacked, g.moves, g.own_moves = False, False, 0, False
        if a.holder == "raid":
            self.turns.start_turn(s, rng, events, fresh=True)  # the epoch's raid is over: the first turn begins
        elif s.phase == "turns":
            self.after_battle(s, rng, events)

    def _score(self, s: State, realm: str, points: int, why: str, events: list[Any]) -> None:
        rs = s.realms[realm]
        rs.score += points
        events.append(Scored(realm=realm, points=points, score=rs.score, why=why))

    def _lose_life(self, s: State, realm: str, unit: str, events: list[Any]) -> bool:
        """One life lost; True when the unit is gone."""
        rs = s.realms[realm]
        u = rs.units[unit]
        u.lives -= 1
        events.append(LifeLost(realm=realm, unit=unit, lives=u.lives))
        if u.lives <= 0:
            del rs.units[unit]
            events.append(UnitRemoved(realm=realm, unit=unit))
            if s.current == unit and realm == s.order[s.turn]:
                s.current = ""
            return True
        return False

    def _beaten(self, s: State, realm: str, unit: str, region: str, rng: Rng, events: list[Any]) -> None:
        if self._lose_life(s, realm, unit, events):
            self._removed_points(s, realm, events)
            return
        options = board.retreats(s, realm, unit, region)
        if len(options) > 1:
            s.retreat = Retreat(realm=realm, unit=unit, region=region, options=options)
            s.phase = "retreat"
            return
        if options:
            self.retreat_to(s, realm, unit, region, options[0], events)
            return
        if unit == "admiral":
            del s.realms[realm].units[unit]
            events.append(UnitRemoved(realm=realm, unit=unit))
            self._removed_points(s, realm, events)
            return
        capital = library().realms[realm].capital
        self.retreat_to(s, realm, unit, region, capital, events)
        if unit == "general" and self._lose_life(s, realm, unit, events):
            self._removed_points(s, realm, events)

    def _removed_points(self, s: State, realm: str, events: list[Any]) -> None:
        """The realm that struck the last blow (the other side of the battle just fought) scores the kill."""
        for e in reversed(events):
            if isinstance(e, BattleFought):
                other = e.defender if e.attacker == realm else e.attacker
                if other:
                    self._score(s, other, library().numbers.points["destroy_unit"], words.WHY_DESTROY, events)
                return

    def retreat_to(self, s: State, realm: str, unit: str, frm: str, to: str, events: list[Any]) -> None:
        u = s.realms[realm].units[unit]
        u.region = to
        events.append(Retreated(realm=realm, unit=unit, frm=frm, to=to))
        if realm == s.order[s.turn] and s.current == unit:
            u.done = True  # the attacker's activation ends with his defeat

    def _conquer(self, s: State, realm: str, region: str, events: list[Any]) -> None:
        lib = library()
        former = s.owner[region]
        piece_of = s.pieces.pop(region, "")
        if piece_of:
            s.realms[piece_of].supply += 1
        if not realm:  # a raid that wins leaves the region neutral
            s.owner[region] = ""
            events.append(Conquered(realm="", region=region, former=former, piece=False))
            return
        printed = lib.regions[region].owner
        rs = s.realms[realm]
        piece = printed != realm
        if piece:
            rs.supply -= 1
            s.pieces[region] = realm
        s.owner[region] = realm
        events.append(Conquered(realm=realm, region=region, former=former, piece=piece))
        if lib.regions[region].capital and former in lib.realms:
            self.turns.finish(s, realm, words.OVER_CAPITAL.format(realm=realm_name(realm), region=lib.name(region),
                                                             former=realm_name(former)), events)
            return
        pts = lib.numbers.points["conquer_neutral" if former == "" else "conquer_enemy"]
        epoch = lib.epochs[s.epoch - 1]
        if epoch.kind == "conquest":
            pts += epoch.value
        rs.conquests += 1
        self._score(s, realm, pts, words.WHY_CONQUER.format(region=lib.name(region)), events)

    def after_battle(self, s: State, rng: Rng, events: list[Any]) -> None:
        """Back to the turns: a raid leads into the first turn; otherwise the acting unit may be finished."""
        if s.phase != "turns":
            return
        realm = s.order[s.turn]
        if s.current:
            u = s.realms[realm].units.get(s.current)
            if u is None or u.done:
                s.current = ""
            else:
                self.turns.settle(s, realm, events)
        self.turns.unit_finished(s, realm, rng, events)
