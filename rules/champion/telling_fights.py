"""Champion of the Empire in words: fights — the cards dealt, the weapon, ranged attacks, initiative, cards
played and thrown down, wounds, and how a fight ends."""

from __future__ import annotations

from rules.champion.state import (
    CardPlayed,
    CardsDrawn,
    Champion,
    FightBegan,
    FightEnded,
    InitiativeRolled,
    RangedAttack,
    Wound,
)
from rules.champion.telling import CARD_NAMES, REASONS, WOUND_NAMES, Teller, _and, _cap, _plural
from rules.core import Event

#: How a card played without asking says why (after the card's name).
WHY = {"only": " (the only choice, played at once)", "queued": " (as queued for this fight)"}


class FightTeller(Teller):
    def drawn(self, group: list[CardsDrawn], index: int) -> None:
        hero = next((g for g in group if g.who == "hero"), None)
        parts: list[str] = []
        lead = ""
        if hero is not None and hero.round == 1 and not self.weapon_told:
            weapon = self.weapon_now(index)
            if weapon is not None:
                self.weapon_told = True
                lead = (f"{self.hero_name(self.fighter)} fights with the {self.item(weapon)}. " if weapon
                        else f"{self.hero_name(self.fighter)} fights without a weapon. ")
        for g in group:
            if g.who != "hero":
                self.foes[g.foe] = g.who
            name = self.side(g.who, g.foe)
            kept = f" ({g.kept} kept)" if g.kept else ""
            parts.append(f"{name} {g.cards}{kept}")
        rnd = group[0].round
        if rnd <= 1 and all(g.kept == 0 for g in group):
            first, rest = parts[0], parts[1:]
            name, _, count = first.rpartition(" ")
            line = f"{name} draws {_plural(int(count), 'combat card')}" if count.isdigit() else first
            self.add(f"🃏 {lead}{_cap(line)}" + ("; " + "; ".join(rest) if rest else "") + ".")
        else:
            self.add(f"🃏 {lead}Combat round {rnd} — cards in hand: " + "; ".join(parts) + ".")

    def weapon_now(self, index: int) -> str | None:
        """The weapon of the fight under way, when the state still holds that fight."""
        c = self.s.combat
        if c is None or any(isinstance(e, (FightEnded, FightBegan)) for e in self.ev[index + 1:]):
            return None
        return c.weapon

    def fight_began(self, e: FightBegan) -> None:
        self.fighter = e.seat
        self.kind = e.kind
        self.weapon_told = False
        self.attacks = {}
        self.foes = {}
        parts: list[str] = []
        players: dict[int, list[str]] = {}
        for i, f in enumerate(e.foes):
            name = str(f.get("name", "opponent"))
            self.foes[i] = name
            stats = f"combat {f.get('combat')} · initiative {f.get('initiative')} · life {f.get('life')}"
            parts.append(f"{self.foe(name)} [{stats}]" if name.endswith(")") else f"{self.foe(name)} ({stats})")
            ctl = f.get("controller")
            if isinstance(ctl, int) and 0 <= ctl < len(self.s.heroes):
                players.setdefault(ctl, []).append(self.foe(name))
        limit = f" The fight lasts at most {_plural(e.rounds, 'combat round')}." if e.rounds else ""
        verb = "attacks" if e.kind == "monster" else "faces"
        line = f"⚔️ Fight! {self.who(e.seat)} {verb} {_and(parts)}.{limit}"
        if players:
            line += " " + "; ".join(f"{self.player(p)} plays {_and(names)}" for p, names in players.items()) + "."
        self.add(line)

    def group(self, *, cap: bool) -> str:
        if len(self.foes) == 1:
            return self.foe(next(iter(self.foes.values())), cap=cap)
        return "The opponents" if cap else "the opponents"

    def ranged(self, e: RangedAttack) -> None:
        if e.item == "fiery_breath":
            self.add(f"🔥 {self.foe(e.by, cap=True)} breathes fire at {self.hero_name(self.fighter)}.")
            return
        shooter = self.side(e.by, -1, cap=True)
        target = self.hero_name(self.fighter) if e.target == "hero" else self.foe(e.target)
        verb = "shoots" if any(w in e.item for w in ("bow", "sling")) else "throws"
        effect = []
        if e.discarded:
            effect.append(f"{target} loses {_plural(e.discarded, 'combat card')}")
        line = f"🏹 {shooter} {verb} the {self.item(e.item)} at {target}"
        self.add(line + (": " + "; ".join(effect) if effect else "") + ".")

    def initiative(self, e: InitiativeRolled) -> None:
        hero = self.hero_name(self.fighter)
        roller = self.foe(e.roller)
        if len(self.foes) > 1:
            roller += ", rolling for the opponents,"
        hi = e.hero_total - e.hero_roll
        fi = e.foe_total - e.foe_roll
        winner = hero if e.attacker == "hero" else self.group(cap=False)
        verb = "attacks" if e.attacker == "hero" or len(self.foes) == 1 else "attack"
        if e.reason == "tie":
            reason = f" (a tie goes to {'the hero' if e.attacker == 'hero' else 'the opponents'})"
        else:
            reason = "" if e.reason == "higher" else f" ({REASONS.get(e.reason, e.reason)})"
        self.add(f"🎲 Initiative: {hero} {hi}+{e.hero_roll} = **{e.hero_total}**, {roller} {fi}+{e.foe_roll} = "
                 f"**{e.foe_total}** — {winner} {verb}{reason}.")

    def played(self, e: CardPlayed, prev: Event | None, nxt: Event | None, index: int) -> None:
        card = self.card(e.card) + WHY.get(e.why, "")
        if e.role == "attack":
            if e.by == "hero":
                self.hero_attack = e.card
                self.add(f"⚔️ {self.hero_name(self.fighter)} attacks {self.foe_at(e.foe)}: {card}")
            else:
                self.foes[e.foe] = e.by
                self.attacks[e.foe] = e.card
                self.add(f"⚔️ {self.foe(e.by, cap=True)} attacks: {card}")
            return
        paired = (isinstance(prev, CardPlayed) and prev.role == "attack" and prev.foe == e.foe
                  and (prev.by == "hero") != (e.by == "hero"))
        defender = self.side(e.by, e.foe)
        attack = self.attacks.pop(e.foe, "") if e.by == "hero" else self.hero_attack
        if e.role == "defence":
            tail = f"{defender} defends with {card}."
        else:
            # the wound that follows names the attack that went unanswered: told in the same line
            hurt = isinstance(nxt, Wound) and (nxt.who == "hero") == (e.by == "hero")
            if isinstance(nxt, Wound) and hurt:
                attack = nxt.card if nxt.card in CARD_NAMES else attack
                self.skip.add(index + 1)
                if nxt.who != "hero":
                    self.foes.setdefault(nxt.foe, nxt.who)
            missing = f"no {CARD_NAMES.get(attack, attack)}" if attack else "no matching card"
            if isinstance(nxt, Wound) and hurt:
                tail = f"{defender} has {missing}, throws down {card} and {self.hurt(nxt)}."
            else:
                tail = f"{defender} has {missing} and throws down {card}."
        if paired and self.lines:
            self.lines[-1] += " — " + tail
        elif e.by == "hero" and e.foe in self.foes:
            self.add(f"🛡️ Against {self.foe_at(e.foe)}: {tail}")
        else:
            self.add(f"🛡️ {_cap(tail)}")

    def hurt(self, e: Wound) -> str:
        """What a wound did, as a verb phrase: "takes a leg wound: −1 life (4 left), initiative down to 2"."""
        if e.absorbed:
            gear = {"armour": "armour", "shield": "shield", "hide": "armoured hide"}.get(e.absorbed, e.absorbed)
            return f"the {gear} takes the blow: no life lost"
        what = WOUND_NAMES.get(e.card, "a wound")
        leg = f", initiative down to {e.initiative}" if e.card == "leg" else ""
        return f"takes {what}: −{e.life} life ({e.left} left){leg}"

    def wound(self, e: Wound) -> None:
        name = self.side(e.who, e.foe, cap=True)
        if e.who != "hero":
            self.foes.setdefault(e.foe, e.who)
        if e.absorbed:
            gear = {"armour": "armour", "shield": "shield", "hide": "armoured hide"}.get(e.absorbed, e.absorbed)
            self.add(f"🛡️ {name}'s {gear} takes the blow: no life lost.")
            return
        self.add(f"🩸 {name} {self.hurt(e)}.")

    def fight_ended(self, e: FightEnded, nxt: Event | None) -> None:
        hero = self.hero_name(e.seat)
        gains = ", ".join(x for x in (f"+{e.xp} XP" if e.xp else "", f"+{e.gold} gold" if e.gold else "") if x)
        gains = f" ({gains})" if gains else ""
        if e.result == "won":
            if isinstance(nxt, Champion):
                return  # the champion's line says it all
            self.add(f"🏆 {hero} wins the fight{gains}.")
        elif e.result == "fled":
            stand = "still stands" if len(self.foes) == 1 else "still stand"
            self.add(f"🏃 The combat rounds are over and {self.group(cap=False)} {stand}: the fight breaks off"
                     f"{gains}.")
        else:
            self.add(f"☠️ {hero} is beaten{gains}.")
        self.attacks = {}
