"""Champion of the Empire: the fight, as printed.

Both sides draw combat cards (combat value, plus the armed cards of the chosen weapon), use one ranged attack
each, then fight combat turns: initiative by d6 + initiative, the attacker plays a card, the defender must
answer with the same type or is wounded.  A combat round ends when a side has no cards; everyone keeps at
most two and redraws.  ``Melee`` works on the state copy being built inside ``apply``; it resolves every
step nobody needs to decide (forced defences, Tabula's opponents) and stops where a person must act.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from rules.champion.content import CARD_TYPES, Library
from rules.champion.i18n import N_, _, _p, and_list, comma, foe_name, local
from rules.champion.state import (
    CardChosen,
    CardPlayed,
    CardsDrawn,
    Combat,
    CombatRoundEnded,
    Defend,
    Foe,
    FoeDied,
    Gazed,
    InitiativeRolled,
    Keep,
    NoRoll,
    Play,
    Ranged,
    RangedAttack,
    Regenerated,
    Reshuffled,
    State,
    Weapon,
    WeaponChosen,
    Wound,
)
from rules.core import IllegalAction, NotYourTurn, Rng

#: Life a wound of each type costs.  A head wound costs two (the Starving Farmers example).
WOUND_LIFE = {"torso": 1, "head": 2, "hand": 1, "leg": 1, "inspired": 1}
#: Wounds that Kerberos's single torso shares among all its heads.
SHARED_BODY = ("torso", "leg", "hand")
#: The card that, when it wards off an attack, gives its side the next attack without a roll.
SEIZE = "inspired"
#: Card types in the order an opponent played by Tabula would rather keep them (rarest first).
KEEP_ORDER = ("inspired", "head", "leg", "hand", "torso")
#: The order offered to queue throws for the rest of a fight: the commonest card first, the rarest last.
THROW_ORDER = tuple(reversed(KEEP_ORDER))


def first_held(order: list[str] | tuple[str, ...], hand: list[str]) -> str:
    """The first type of ``order`` the hand holds ("" if none)."""
    kinds = types_in(hand)
    return next((k for k in order if k in kinds), "")


@cache
def card_type(card: str) -> str:
    """``torso-3`` and ``armed-torso-2`` are both torso cards (73 cards: remembered once each)."""
    return card.split("-")[-2]


def types_in(hand: list[str]) -> list[str]:
    """The distinct card types in a hand, in the glossary order."""
    present = {card_type(c) for c in hand}
    return [t for t in CARD_TYPES if t in present]


def keep_options(hand: list[str]) -> list[tuple[str, ...]]:
    """Every choice of at most two cards to keep, named by type (the same type twice needs two cards)."""
    kinds = types_in(hand)
    counts = {t: sum(1 for c in hand if card_type(c) == t) for t in kinds}
    out: list[tuple[str, ...]] = [()]
    out += [(t,) for t in kinds]
    for i, a in enumerate(kinds):
        for b in kinds[i:]:
            if a != b or counts[a] >= 2:
                out.append((a, b))
    return out


def canonical(cards: tuple[str, ...]) -> tuple[str, ...]:
    """Card types in the glossary order (how ``keep_options`` names a choice)."""
    return tuple(sorted(cards, key=lambda t: CARD_TYPES.index(t) if t in CARD_TYPES else len(CARD_TYPES)))


def take(hand: list[str], kind: str) -> str:
    """Remove one card of a type from a hand (plain cards before armed ones) and return it."""
    for c in hand:
        if card_type(c) == kind and not c.startswith("armed"):
            hand.remove(c)
            return c
    for c in hand:
        if card_type(c) == kind:
            hand.remove(c)
            return c
    raise ValueError(kind)


class Melee:
    """One fight, advanced inside ``apply`` on the state copy."""

    def __init__(self, lib: Library, s: State, rng: Rng, events: list[Any]) -> None:
        self.lib = lib
        self.s = s
        self.rng = rng
        self.events = events
        assert s.combat is not None
        self.c: Combat = s.combat
        self.only: set[int] = set()  # opponents whose attack card was the only kind they held

    # --- who fights ---------------------------------------------------------------------------

    @property
    def seat(self) -> int:
        return self.s.order[self.s.turn]

    def alive(self) -> list[int]:
        return [i for i, f in enumerate(self.c.foes) if f.life > 0]

    def hero_initiative(self) -> int:
        bonus = 1 if self.event() == "heroes_initiative_plus1" else 0
        return max(0, self.s.heroes[self.seat].initiative + bonus - self.c.leg)

    def event(self) -> str:
        return self.lib.event[self.s.event].effect if self.s.event in self.lib.event else "none"

    def weapon_options(self) -> list[str]:
        """One weapon each, then every pair of one-handed weapons ("gladius+sica": the book forbids pairing
        only a two-handed weapon), and a shield alone when the only weapons are two-handed."""
        me = self.s.heroes[self.seat]
        weapons = [i for i in me.items if self.lib.item[i].kind == "weapon"]
        one = list(dict.fromkeys(i for i in weapons if self.lib.item[i].hands < 2))
        pairs = [f"{a}+{b}" for k, a in enumerate(one) for b in one[k + 1:]]
        if any(self.lib.item[i].kind == "shield" for i in me.items) and any(
                self.lib.item[i].hands >= 2 for i in weapons):
            weapons.append("")  # shield alone, rather than a two-handed weapon
        return list(dict.fromkeys(weapons)) + pairs or [""]

    def ranged_options(self) -> list[str]:
        """Ranged weapons the hero may throw or shoot before melee ("" = none)."""
        if self.c.weapon is None:
            return []
        me = self.s.heroes[self.seat]
        chosen = self.lib.item[self.c.weapon] if self.c.weapon else None
        out = []
        for i in me.items:
            item = self.lib.item[i]
            if not item.ranged:
                continue
            if i == self.c.weapon or ((chosen is None or chosen.hands < 2) and item.hands < 2):
                out.append(i)
        return out

    def shield(self) -> str:
        """The shield the hero carries into the fight beside a one-handed weapon ("" if none may be used)."""
        chosen = self.lib.item.get(self.c.weapon or "")
        if (chosen is not None and chosen.hands >= 2) or self.c.second:
            return ""  # both hands hold weapons
        me = self.s.heroes[self.seat]
        shields = [i for i in me.items if self.lib.item[i].kind == "shield"]
        return max(shields, key=lambda i: (self.lib.item[i].armed_count, -shields.index(i)), default="")

    # --- cards --------------------------------------------------------------------------------

    def draw(self, n: int) -> list[str]:
        out: list[str] = []
        for _i in range(max(0, n)):
            if not self.s.combat_deck:
                if not self.s.combat_discard:
                    break
                self.s.combat_deck = self.rng.shuffle(self.s.combat_discard)
                self.s.combat_discard = []
                self.events.append(Reshuffled(pile="combat", cards=len(self.s.combat_deck)))
            out.append(self.s.combat_deck.pop(0))
        return out

    def draw_armed(self, weapon: str, n: int) -> list[str]:
        item = self.lib.item.get(weapon)
        if item is None or not item.armed:
            return []
        out: list[str] = []
        for c in list(self.s.armed):
            if len(out) >= n:
                break
            if card_type(c) == item.armed:
                self.s.armed.remove(c)
                out.append(c)
        return out

    def discard(self, cards: list[str]) -> None:
        for c in cards:
            if c.startswith("armed"):
                self.s.armed.append(c)
            else:
                self.s.combat_discard.append(c)

    def armed_count(self, weapon: str) -> int:
        item = self.lib.item.get(weapon)
        return item.armed_count if item is not None and item.armed else 0

    def deal(self, kept_hero: list[str], kept_foes: dict[int, list[str]]) -> None:
        """Fill every hand: combat value plus armed cards, less the cards kept from the last round."""
        c = self.c
        me = self.s.heroes[self.seat]
        want = max(1, me.combat + c.bonus)
        kept_armed = sum(1 for k in kept_hero if k.startswith("armed"))
        kept_plain = len(kept_hero) - kept_armed
        c.hand = kept_hero + self.draw(want - kept_plain)
        for gear in (c.weapon or "", c.second or self.shield()):  # the weapon's armed cards, then the off hand's
            need = self.armed_count(gear)
            use = min(need, kept_armed)
            kept_armed -= use
            c.hand += self.draw_armed(gear, need - use)
        self.events.append(CardsDrawn(who="hero", foe=-1, cards=len(c.hand), kept=len(kept_hero), round=c.round))
        for i in self.alive():
            f = c.foes[i]
            kept = kept_foes.get(i, [])
            k_armed = sum(1 for k in kept if k.startswith("armed"))
            f.hand = (kept + self.draw(max(1, f.combat) - (len(kept) - k_armed))
                      + self.draw_armed(f.weapon, self.armed_count(f.weapon) - k_armed))
            self.events.append(CardsDrawn(who=f.name, foe=i, cards=len(f.hand), kept=len(kept), round=c.round))

    # --- running the fight --------------------------------------------------------------------

    def advance(self) -> str:
        """Resolve what needs nobody's choice.  Returns "" while the fight goes on, else its result."""
        steps: dict[str, Callable[[], bool]] = {
            "weapon": self._auto_weapon, "ranged": self._auto_ranged, "hero_attack": self._auto_hero_attack,
            "hero_defend": self.hero_defend_auto, "foe_defend": self.foe_defend_auto,
            "foe_attack": self._auto_foe_attack}
        while not self.result():
            if not steps.get(self.c.step, self._auto_keep)():
                return ""
        return self.result()

    # each step taken by itself when nobody has a choice to make (False: someone must choose first)

    def _auto_weapon(self) -> bool:
        options = self.weapon_options()
        if len(options) != 1:
            return False
        self.choose_weapon(options[0])
        return True

    def _auto_ranged(self) -> bool:
        options = self.ranged_options()
        targets = self.alive()
        if len(options) > 1 or (options and len(targets) > 1):
            return False
        self.ranged(options[0] if options else "", targets[0])
        return True

    def _auto_hero_attack(self) -> bool:
        kinds, targets = types_in(self.c.hand), self.alive()
        if len(kinds) != 1 or len(targets) != 1:
            return False
        self.hero_attack(kinds[0], targets[0], why="only")  # the one card at the one opponent
        return True

    def _auto_foe_attack(self) -> bool:
        c = self.c
        waiting = [i for i in self.alive() if c.foes[i].hand and not c.foes[i].play]
        for i in waiting:
            if c.foes[i].controller < 0:
                c.foes[i].play = self.policy_attack(i)
            elif len(types_in(c.foes[i].hand)) == 1:  # one kind of card: nothing to choose
                c.foes[i].play = types_in(c.foes[i].hand)[0]
                self.only.add(i)
        if any(not c.foes[i].play for i in waiting):
            return False
        self.reveal_attacks()
        return True

    def _auto_keep(self) -> bool:
        c = self.c
        for i in self.alive():
            f = c.foes[i]
            if f.keep is None and f.controller < 0:
                f.keep = list(self.policy_keep(f.hand))
        if c.hero_keep is None or any(c.foes[i].keep is None for i in self.alive()):
            return False
        self.redraw()
        return True

    def result(self) -> str:
        me = self.s.heroes[self.seat]
        if self.c.over:
            return self.c.over
        if not self.alive():
            return "won"
        if me.life <= 0:
            return "lost"
        return ""

    def start(self) -> None:
        """The weapon is chosen: both sides draw, then the ranged attacks."""
        self.deal([], {})
        self.c.step = "ranged"

    def choose_weapon(self, choice: str) -> None:
        item, _sep, second = choice.partition("+")
        self.c.weapon, self.c.second = item, second
        armed = self.armed_count(item) + self.armed_count(second)
        self.events.append(WeaponChosen(seat=self.seat, item=item, armed=armed, second=second))
        me = self.s.heroes[self.seat]
        self.c.armour = sum(self.lib.item[i].armour for i in me.items if self.lib.item[i].kind == "armour")
        self.start()

    def ranged(self, item: str, target: int) -> None:
        """Both sides' ranged attacks, at the same time, then melee."""
        c = self.c
        me = self.s.heroes[self.seat]
        wound_foe = 0
        if item:
            weapon = self.lib.item[item]
            foe = c.foes[target]
            lost = self.rng.shuffle(foe.hand)[:weapon.ranged_discard] if weapon.ranged_discard else []
            for card in lost:
                foe.hand.remove(card)
            self.discard(lost)
            self.events.append(RangedAttack(by="hero", item=item, target=foe.name, discarded=len(lost),
                                            wound=weapon.ranged_wound))
            wound_foe = weapon.ranged_wound
        thrower = next((i for i in self.alive() if self.lib.item.get(c.foes[i].weapon)
                        and self.lib.item[c.foes[i].weapon].ranged), None)
        if thrower is not None:
            weapon = self.lib.item[c.foes[thrower].weapon]
            lost = self.rng.shuffle(c.hand)[:weapon.ranged_discard] if weapon.ranged_discard else []
            for card in lost:
                c.hand.remove(card)
            self.discard(lost)
            self.events.append(RangedAttack(by=c.foes[thrower].name, item=weapon.id, target="hero",
                                            discarded=len(lost), wound=weapon.ranged_wound))
            if weapon.ranged_wound:
                me.life = max(0, me.life - weapon.ranged_wound)
                self.events.append(Wound(who="hero", foe=-1, card="ranged", life=weapon.ranged_wound,
                                         left=me.life, initiative=self.hero_initiative()))
        if "fiery_breath" in c.abilities:
            me.life = max(0, me.life - 1)
            self.events.append(RangedAttack(by=c.foes[0].name, item="fiery_breath", target="hero", discarded=0,
                                            wound=1))
            self.events.append(Wound(who="hero", foe=-1, card="fire", life=1, left=me.life,
                                     initiative=self.hero_initiative()))
        if wound_foe:
            self.hurt_foe(target, "", wound_foe)
        if not self.alive():  # both fell at once: the tie goes to the hero
            me.life = max(me.life, 1)
            return
        if me.life <= 0:
            return
        self.after_turn()

    # --- initiative ----------------------------------------------------------------------------

    def initiative(self) -> None:
        c = self.c
        if c.yours:
            c.attacker = c.yours
            c.yours = ""
            self.events.append(NoRoll(attacker=c.attacker, reason="inspired"))
        else:
            alive = self.alive()
            roller = max(alive, key=lambda i: (c.foes[i].initiative, -i))
            hi = self.hero_initiative()
            fi = c.foes[roller].initiative
            rh, rf = self.rng.die(6), self.rng.die(6)
            th, tf = hi + rh, fi + rf
            tie = "foes" if "bull_rush" in c.abilities else "hero"
            if not c.attacker:  # the fight's first roll: the higher total attacks (the 6/1 rules come later)
                reason = "higher" if th != tf else "tie"
                winner = ("hero" if th > tf else "foes") if th != tf else tie
            elif (rh == 6 and rf == 6) or (rh == 1 and rf == 1):
                reason = "double six" if rh == 6 else "double one"
                winner = "hero" if hi > fi else "foes" if fi > hi else tie
            elif rh == 1 or rf == 1:
                reason = "one"
                winner = "foes" if rh == 1 else "hero"
            elif rh == 6 or rf == 6:
                reason = "six"
                winner = "hero" if rh == 6 else "foes"
            elif th != tf:
                reason = "higher"
                winner = "hero" if th > tf else "foes"
            else:
                reason = "tie"
                winner = tie
            c.attacker = winner
            self.events.append(InitiativeRolled(hero_roll=rh, foe_roll=rf, hero_total=th, foe_total=tf,
                                                roller=c.foes[roller].name, attacker=winner, reason=reason))
        if c.attacker == "hero":
            c.step = "hero_attack"
        else:
            c.step = "foe_attack"
            for f in c.foes:
                f.play = ""

    # --- attacks and defences -----------------------------------------------------------------

    def hero_attack(self, kind: str, target: int, *, why: str = "") -> None:
        c = self.c
        self.discard([take(c.hand, kind)])
        c.attack = kind
        c.target = target
        self.events.append(CardPlayed(by="hero", foe=target, card=kind, role="attack", auto=bool(why), why=why))
        c.step = "foe_defend"

    def foe_defend_auto(self) -> bool:
        """Resolve the attacked opponent's answer if it has no real choice (or Tabula plays it)."""
        c = self.c
        f = c.foes[c.target]
        kinds = types_in(f.hand)
        if c.attack in kinds:
            self.foe_answer(c.attack, auto=True)
            return True
        if len(kinds) <= 1 or f.controller < 0:
            self.foe_answer(self.policy_throw(f.hand) if kinds else "", auto=True,
                            why="only" if f.controller >= 0 and kinds else "")
            return True
        if f.order:
            self.foe_answer(first_held(f.order, f.hand) or self.policy_throw(f.hand), auto=True, why="queued")
            return True
        return False

    def foe_answer(self, kind: str, *, auto: bool = False, why: str = "") -> None:
        c = self.c
        i = c.target
        f = c.foes[i]
        if kind:
            card = take(f.hand, kind)
            self.discard([card])
        if kind and kind == c.attack:
            self.events.append(CardPlayed(by=f.name, foe=i, card=kind, role="defence", auto=auto))
            if kind == SEIZE:
                c.yours = "foes"
        else:
            if kind:
                self.events.append(CardPlayed(by=f.name, foe=i, card=kind, role="thrown", auto=auto, why=why))
            self.hurt_foe(i, c.attack, WOUND_LIFE[c.attack])
        self.after_turn()

    def reveal_attacks(self) -> None:
        c = self.c
        c.attacks = []
        for i in self.alive():
            f = c.foes[i]
            if f.play:
                self.discard([take(f.hand, f.play)])
                self.events.append(CardPlayed(by=f.name, foe=i, card=f.play, role="attack",
                                              auto=f.controller < 0 or i in self.only,
                                              why="only" if i in self.only else ""))
                c.attacks.append([str(i), f.play])
                f.play = ""
        c.step = "hero_defend"

    def hero_defend_auto(self) -> bool:
        """Answer the pending attacks that need no choice; False when the hero must choose a card."""
        c = self.c
        while c.attacks:
            kind = c.attacks[0][1]
            kinds = types_in(c.hand)
            if kind in kinds:
                self.hero_answer(kind, auto=True)
            elif len(kinds) <= 1:
                self.hero_answer(kinds[0] if kinds else "", auto=True, why="only" if kinds else "")
            elif c.hero_order:
                self.hero_answer(first_held(c.hero_order, c.hand) or self.policy_throw(c.hand), auto=True,
                                 why="queued")
            else:
                return False
            if self.result():
                return True
        self.after_turn()
        return True

    def hero_answer(self, kind: str, *, auto: bool = False, why: str = "") -> None:
        c = self.c
        i_str, attack = c.attacks.pop(0)
        if kind:
            self.discard([take(c.hand, kind)])
        if kind and kind == attack:
            self.events.append(CardPlayed(by="hero", foe=int(i_str), card=kind, role="defence", auto=auto))
            if kind == SEIZE:
                c.yours = "hero"
        else:
            if kind:
                self.events.append(CardPlayed(by="hero", foe=int(i_str), card=kind, role="thrown", auto=auto,
                                              why=why))
            self.hurt_hero(attack)

    def hurt_hero(self, kind: str) -> None:
        c = self.c
        me = self.s.heroes[self.seat]
        if c.armour > 0:
            c.armour -= 1
            self.events.append(Wound(who="hero", foe=-1, card=kind, life=0, left=me.life,
                                     initiative=self.hero_initiative(), absorbed="armour"))
            return
        loss = WOUND_LIFE[kind]
        me.life = max(0, me.life - loss)
        if kind == "leg":
            c.leg += 1
        self.events.append(Wound(who="hero", foe=-1, card=kind, life=loss, left=me.life,
                                 initiative=self.hero_initiative()))

    def hurt_foe(self, i: int, kind: str, loss: int) -> None:
        """Wound opponent ``i`` (``kind`` "" for a ranged hit); a single torso shares body wounds."""
        c = self.c
        victims = [i]
        if "single_torso" in c.abilities and kind in SHARED_BODY:
            victims = self.alive()
        if "armoured_hide" in c.abilities and not c.foes[i].hide_used:
            c.foes[i].hide_used = True
            f = c.foes[i]
            self.events.append(Wound(who=f.name, foe=i, card=kind, life=0, left=f.life, initiative=f.initiative,
                                     absorbed="hide"))
            return
        for v in victims:
            f = c.foes[v]
            f.life = max(0, f.life - loss)
            if kind == "leg":
                f.initiative = max(0, f.initiative - 1)
            self.events.append(Wound(who=f.name, foe=v, card=kind or "ranged", life=loss, left=f.life,
                                     initiative=f.initiative))
            if f.life == 0:
                self.discard(f.hand)
                f.hand = []
                c.kills.append(v)
                c.xp += f.xp
                self.events.append(FoeDied(name=f.name, foe=v, xp=f.xp))

    # --- the end of a combat turn and of a combat round ---------------------------------------

    def after_turn(self) -> None:
        c = self.c
        if self.result():
            return
        foes_out = all(not c.foes[i].hand for i in self.alive())
        if c.hand and not foes_out:
            self.initiative()
            return
        self.events.append(CombatRoundEnded(round=c.round))
        if c.rounds and c.round >= c.rounds:
            c.over = "fled"  # the story's combat rounds are over and the opponents still stand
            return
        c.step = "keep"
        c.hero_keep = [] if not c.hand else None
        for i in self.alive():
            c.foes[i].keep = [] if not c.foes[i].hand else None

    def keep(self, cards: tuple[str, ...], hand: list[str]) -> list[str]:
        """The card ids kept for the chosen types (the rest of the hand is left in ``hand``)."""
        kept = [take(hand, kind) for kind in cards]
        return kept

    def redraw(self) -> None:
        c = self.c
        kept_hero = self.keep(tuple(c.hero_keep or ()), c.hand)
        self.discard(c.hand)
        kept_foes: dict[int, list[str]] = {}
        for i in self.alive():
            f = c.foes[i]
            kept_foes[i] = self.keep(tuple(f.keep or ()), f.hand)
            self.discard(f.hand)
            f.hand = []
            f.keep = None
        c.hand = []
        c.hero_keep = None
        c.round += 1
        for f in c.foes:
            f.hide_used = False
        if "regenerates" in c.abilities:
            for i in self.alive():
                f = c.foes[i]
                if f.life < f.max_life:
                    f.life += 1
                    self.events.append(Regenerated(foe=i, life=f.life))
        self.deal(kept_hero, kept_foes)
        if "stone_gaze" in c.abilities and len(c.hand) > 1:
            lost = self.rng.shuffle(c.hand)[0]
            c.hand.remove(lost)
            self.discard([lost])
            self.events.append(Gazed(cards=1))
        if not c.hand or all(not c.foes[i].hand for i in self.alive()):
            self.after_turn()  # a side drew nothing (the decks are all in hands): the round ends at once
        else:
            self.initiative()

    # --- Tabula's opponents --------------------------------------------------------------------

    def unseen(self, kind: str, foe: int) -> int:
        """How many cards of a type the hero may still hold, as far as the opponent's side can tell."""
        total = self.lib.combat.combat.cards()[kind] + self.lib.combat.armed.cards()[kind]
        seen = sum(1 for c in self.s.combat_discard if card_type(c) == kind)
        seen += sum(1 for c in self.s.armed if card_type(c) == kind)
        for i in self.alive():
            seen += sum(1 for c in self.c.foes[i].hand if card_type(c) == kind)
        return total - seen

    def policy_attack(self, foe: int) -> str:
        """Attack with the type the hero is least likely to answer, weighing a head wound double."""
        kinds = types_in(self.c.foes[foe].hand)
        return min(kinds, key=lambda k: (self.unseen(k, foe) / WOUND_LIFE[k], CARD_TYPES.index(k)))

    @staticmethod
    def policy_throw(hand: list[str]) -> str:
        """With no matching card, throw down the most common type in hand (keeping variety)."""
        kinds = types_in(hand)
        return max(kinds, key=lambda k: (sum(1 for c in hand if card_type(c) == k), -KEEP_ORDER.index(k)))

    @staticmethod
    def policy_keep(hand: list[str]) -> tuple[str, ...]:
        """Keep the two rarest cards in hand (inspired, head, leg, hand before torso)."""
        ordered = sorted((card_type(c) for c in hand), key=KEEP_ORDER.index)
        return canonical(tuple(ordered[:2]))

    # --- what a seat may do -------------------------------------------------------------------

    def to_act(self) -> set[int]:
        c = self.c
        if c.step in ("weapon", "ranged", "hero_attack", "hero_defend"):
            return {self.seat}
        if c.step == "foe_defend":
            ctl = c.foes[c.target].controller
            return {ctl} if ctl >= 0 else set()
        if c.step == "foe_attack":
            return {c.foes[i].controller for i in self.alive()
                    if c.foes[i].hand and not c.foes[i].play and c.foes[i].controller >= 0}
        out = {c.foes[i].controller for i in self.alive() if c.foes[i].keep is None and c.foes[i].controller >= 0}
        if c.hero_keep is None:
            out.add(self.seat)
        return out

    def legal(self, seat: int) -> list[Any]:
        c = self.c
        out: list[Any] = []
        if seat == self.seat:
            if c.step == "weapon":
                out += [Weapon(item=i) for i in self.weapon_options()]
            elif c.step == "ranged":
                out += [Ranged(item=i, target=t) for i in self.ranged_options() for t in self.alive()]
                out.append(Ranged(item=""))
            elif c.step == "hero_attack":
                out += [Play(card=k, target=t) for t in self.alive() for k in types_in(c.hand)]
            elif c.step == "hero_defend":
                out += [Defend(card=k) for k in types_in(c.hand)]
                if not c.hero_order:  # or queue the throws for the rest of the fight
                    out.append(Defend(card=first_held(THROW_ORDER, c.hand), order=THROW_ORDER))
            elif c.step == "keep" and c.hero_keep is None:
                out += [Keep(cards=k) for k in keep_options(c.hand)]
        for i in self.alive():
            f = c.foes[i]
            if f.controller != seat:
                continue
            if c.step == "foe_defend" and i == c.target:
                out += [Defend(card=k, foe=i) for k in types_in(f.hand)]
                if not f.order:
                    out.append(Defend(card=first_held(THROW_ORDER, f.hand), foe=i, order=THROW_ORDER))
            elif c.step == "foe_attack" and f.hand and not f.play:
                out += [Play(card=k, foe=i) for k in types_in(f.hand)]
            elif c.step == "keep" and f.keep is None:
                out += [Keep(cards=k, foe=i) for k in keep_options(f.hand)]
        return out

    def policy(self, seat: int) -> Any | None:
        """The move Tabula makes for an absent opponents' player (deterministic)."""
        c = self.c
        for i in self.alive():
            f = c.foes[i]
            if f.controller != seat:
                continue
            if c.step == "foe_defend" and i == c.target:
                return Defend(card=self.policy_throw(f.hand), foe=i, auto=True)
            if c.step == "foe_attack" and f.hand and not f.play:
                return Play(card=self.policy_attack(i), foe=i, auto=True)
            if c.step == "keep" and f.keep is None:
                return Keep(cards=self.policy_keep(f.hand), foe=i, auto=True)
        return None

    def act(self, seat: int, action: Any) -> None:
        """Apply a person's combat move, refusing anything the book does not allow with the reason."""
        if seat not in self.to_act():
            raise NotYourTurn(self.waiting_for())
        moves: dict[type, Callable[[int, Any], None]] = {
            Weapon: self._act_weapon, Ranged: self._act_ranged, Play: self._act_play, Defend: self._act_defend,
            Keep: self._act_keep}
        move = moves.get(type(action))
        if move is None:
            raise IllegalAction(self.step_hint(seat))
        move(seat, action)

    def _act_weapon(self, seat: int, action: Weapon) -> None:
        if seat != self.seat or self.c.step != "weapon":
            raise IllegalAction(_("The weapon is chosen before the fight and cannot change now."))
        options = self.weapon_options()
        if action.item not in options:
            raise IllegalAction(_("Fight with one of your weapons: {weapons}.", weapons=self.names(options)))
        self.choose_weapon(action.item)

    def _act_ranged(self, seat: int, action: Ranged) -> None:
        if seat != self.seat or self.c.step != "ranged":
            raise IllegalAction(_("Ranged attacks come once, before melee; that moment has passed."))
        options = self.ranged_options()
        if action.item and action.item not in options:
            raise IllegalAction(_("You can shoot or throw: {weapons}, or none (`item:` empty).",
                                  weapons=self.names(options)))
        if action.item and action.target not in self.alive():
            raise IllegalAction(_("Aim at an opponent still standing: {foes}.", foes=self.foe_list()))
        self.ranged(action.item, action.target)

    def _act_play(self, seat: int, action: Play) -> None:
        c = self.c
        if seat == self.seat and action.foe < 0:
            if c.step != "hero_attack":
                raise IllegalAction(self.step_hint(seat))
            if action.card not in types_in(c.hand):
                raise IllegalAction(_("You hold no {card} card. You can attack with: {cards}.",
                                      card=self.card(action.card), cards=self.cards(types_in(c.hand))))
            if action.target not in self.alive():
                raise IllegalAction(_("Attack an opponent still standing: {foes}.", foes=self.foe_list()))
            self.hero_attack(action.card, action.target)
            return
        f = self.own_foe(seat, action.foe)
        if c.step != "foe_attack" or not f.hand or f.play:
            raise IllegalAction(self.step_hint(seat))
        if action.card not in types_in(f.hand):
            raise IllegalAction(_("{foe} holds no {card} card. It can attack with: {cards}.", foe=foe_name(f.name),
                                  card=self.card(action.card), cards=self.cards(types_in(f.hand))))
        f.play = action.card
        self.events.append(CardChosen(seat=seat, foe=action.foe, name=f.name))

    def _act_defend(self, seat: int, action: Defend) -> None:
        c = self.c
        bad = [k for k in action.order if k not in CARD_TYPES]
        if bad or len(set(action.order)) != len(action.order):
            raise IllegalAction(_("Queue card types once each, e.g. `order:torso,hand,leg,head,inspired` "
                                  "(the types are {types}).", types=comma(CARD_TYPES)))
        if seat == self.seat and action.foe < 0:
            if c.step != "hero_defend":
                raise IllegalAction(self.step_hint(seat))
            if action.card not in types_in(c.hand):
                raise IllegalAction(_("Throw down a card you hold: {cards}.", cards=self.cards(types_in(c.hand))))
            if action.order:
                c.hero_order = list(action.order)
            self.hero_answer(action.card, auto=action.auto)
            if not self.result() and not c.attacks:
                self.after_turn()
            return
        f = self.own_foe(seat, action.foe)
        if c.step != "foe_defend" or action.foe != c.target:
            raise IllegalAction(self.step_hint(seat))
        if action.card not in types_in(f.hand):
            raise IllegalAction(_("{foe} can throw down: {cards}.", foe=foe_name(f.name),
                                  cards=self.cards(types_in(f.hand))))
        if action.order:
            f.order = list(action.order)
        self.foe_answer(action.card, auto=action.auto)

    def _act_keep(self, seat: int, action: Keep) -> None:
        c = self.c
        if c.step != "keep":
            raise IllegalAction(_("Cards are kept only when a combat round ends."))
        if len(action.cards) > 2:
            raise IllegalAction(_("Keep at most two cards."))
        if seat == self.seat and action.foe < 0:
            if c.hero_keep is not None:
                raise IllegalAction(_("You have already chosen what to keep."))
            if canonical(action.cards) not in keep_options(c.hand):
                raise IllegalAction(_("Keep at most two cards you hold: {cards}.", cards=self.cards(types_in(c.hand))))
            c.hero_keep = list(canonical(action.cards))
            return
        f = self.own_foe(seat, action.foe)
        if f.keep is not None:
            raise IllegalAction(_("{foe}'s cards are already chosen.", foe=foe_name(f.name)))
        if canonical(action.cards) not in keep_options(f.hand):
            raise IllegalAction(_("{foe} can keep at most two of: {cards}.", foe=foe_name(f.name),
                                  cards=self.cards(types_in(f.hand))))
        f.keep = list(canonical(action.cards))

    # --- words --------------------------------------------------------------------------------

    def own_foe(self, seat: int, foe: int) -> Foe:
        c = self.c
        if not 0 <= foe < len(c.foes) or c.foes[foe].life <= 0 or c.foes[foe].controller != seat:
            mine = [f"{i + 1} ({foe_name(c.foes[i].name)})" for i in self.alive() if c.foes[i].controller == seat]
            if not mine:  # the hero's own player, or nobody's opponent: say what this seat can do now
                raise IllegalAction(self.step_hint(seat))
            raise IllegalAction(_("Name an opponent you play that still stands: {foes}.", foes=comma(mine)))
        return c.foes[foe]

    @staticmethod
    def card(kind: str) -> str:
        """A card type as a refusal names it: the type itself in English ("head"), its word elsewhere."""
        return _p("card", kind)

    def cards(self, kinds: list[str]) -> str:
        return comma(self.card(k) for k in kinds)

    def names(self, items: list[str]) -> str:
        loc = local(self.lib)

        def name(choice: str) -> str:
            return and_list([loc.item[i].name for i in choice.split("+")]) if choice else _("no weapon")
        return comma(name(i) for i in items) or _("nothing")

    def foe_list(self) -> str:
        return comma(f"{i + 1} ({foe_name(self.c.foes[i].name)})" for i in self.alive())

    def waiting_for(self) -> str:
        who = sorted(self.to_act())
        names = [self.s.heroes[w].name for w in who]
        if len(names) == 1:
            return _("The fight waits for {player}.", player=names[0])
        return (_("The fight waits for {players}.", players=and_list(names)) if names
                else _("The fight is being resolved."))

    def step_hint(self, seat: int) -> str:
        return _(STEP_HINTS[self.c.step])


#: What each combat step waits for, as a refusal says it.
STEP_HINTS = {
    "weapon": N_("Choose your weapon first: `/weapon item:`."),
    "ranged": N_("Make your ranged attack, or none: `/ranged item: target:`."),
    "hero_attack": N_("The hero attacks now: `/play card: target:`."),
    "foe_defend": N_("The attacked opponent answers: `/defend card:`."),
    "foe_attack": N_("The opponents attack now: `/play card: foe:`."),
    "hero_defend": N_("Answer the attack: `/defend card:` names the card you throw down."),
    "keep": N_("The combat round is over: `/keep cards:` (at most two)."),
}


def make_foe(name: str, combat: int, initiative: int, life: int, xp: int, weapon: str, controller: int) -> Foe:
    return Foe(name=name, combat=combat, initiative=initiative, life=life, max_life=life, xp=xp, weapon=weapon,
               controller=controller)


def all_cards(lib: Library) -> tuple[list[str], list[str]]:
    """Fresh card ids: the combat deck (``torso-1``…) and the face-up armed cards (``armed-torso-1``…)."""
    plain = [f"{t}-{n}" for t, count in lib.combat.combat.cards().items() for n in range(1, count + 1)]
    armed = [f"armed-{t}-{n}" for t, count in lib.combat.armed.cards().items() for n in range(1, count + 1)]
    return plain, armed
