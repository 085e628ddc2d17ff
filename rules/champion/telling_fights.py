"""Champion of the Empire in words: fights — the cards dealt, the weapon, ranged attacks, initiative, cards
played and thrown down, wounds, and how a fight ends."""

from __future__ import annotations

from rules.champion.i18n import N_, _, _n, comma, semicolon
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
from rules.champion.telling import CARD_NAMES, REASONS, WOUND_NAMES, Teller, _and, _cap
from rules.core import Event

#: How a card played without asking says why (after the card's name).
WHY = {"only": N_(" (the only choice, played at once)"), "queued": N_(" (as queued for this fight)")}
#: What turned a blow aside.
GEAR = {"armour": N_("armour"), "shield": N_("shield"), "hide": N_("armoured hide")}


class FightTeller(Teller):
    def drawn(self, group: list[CardsDrawn], index: int) -> None:
        hero = next((g for g in group if g.who == "hero"), None)
        parts: list[str] = []
        lead = ""
        if hero is not None and hero.round == 1 and not self.weapon_told:
            weapon = self.weapon_now(index)
            if weapon is not None:
                self.weapon_told = True
                lead = (_("{hero} fights with the {weapon}. ", hero=self.hero_name(self.fighter),
                          weapon=self.item(weapon)) if weapon
                        else _("{hero} fights without a weapon. ", hero=self.hero_name(self.fighter)))
        names: list[str] = []
        for g in group:
            if g.who != "hero":
                self.foes[g.foe] = g.who
            name = self.side(g.who, g.foe)
            names.append(name)
            parts.append(_("{name} {cards} ({kept} kept)", name=name, cards=g.cards, kept=g.kept) if g.kept
                         else _("{name} {cards}", name=name, cards=g.cards))
        rnd = group[0].round
        if rnd <= 1 and all(g.kept == 0 for g in group):
            rest = parts[1:]
            line = _n("{name} draws {n} combat card", "{name} draws {n} combat cards", group[0].cards, name=names[0])
            self.add(_("🃏 {lead}{draws}.", lead=lead, draws=semicolon([_cap(line), *rest])))
        else:
            self.add(_("🃏 {lead}Combat round {round} — cards in hand: {parts}.", lead=lead, round=rnd,
                       parts=semicolon(parts)))

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
            stats = _("combat {combat} · initiative {initiative} · life {life}", combat=f.get('combat'),
                      initiative=f.get('initiative'), life=f.get('life'))
            parts.append(_("{foe} [{stats}]", foe=self.foe(name), stats=stats) if name.endswith(")")
                         else _("{foe} ({stats})", foe=self.foe(name), stats=stats))
            ctl = f.get("controller")
            if isinstance(ctl, int) and 0 <= ctl < len(self.s.heroes):
                players.setdefault(ctl, []).append(self.foe(name))
        limit = _n(" The fight lasts at most {n} combat round.", " The fight lasts at most {n} combat rounds.",
                   e.rounds) if e.rounds else ""
        if e.kind == "monster":
            line = _("⚔️ Fight! {who} attacks {foes}.{limit}", who=self.who(e.seat), foes=_and(parts), limit=limit)
        else:
            line = _("⚔️ Fight! {who} faces {foes}.{limit}", who=self.who(e.seat), foes=_and(parts), limit=limit)
        if players:
            controllers = semicolon(_("{player} plays {foes}", player=self.player(p), foes=_and(names))
                                    for p, names in players.items())
            line += _(" {controllers}.", controllers=controllers)
        self.add(line)

    def group(self, *, cap: bool) -> str:
        if len(self.foes) == 1:
            return self.foe(next(iter(self.foes.values())), cap=cap)
        return _("The opponents") if cap else _("the opponents")

    def ranged(self, e: RangedAttack) -> None:
        if e.item == "fiery_breath":
            self.add(_("🔥 {foe} breathes fire at {hero}.", foe=self.foe(e.by, cap=True),
                       hero=self.hero_name(self.fighter)))
            return
        shooter = self.side(e.by, -1, cap=True)
        target = self.hero_name(self.fighter) if e.target == "hero" else self.foe(e.target)
        shoots = any(w in e.item for w in ("bow", "sling"))
        item = self.item(e.item)
        if e.discarded:
            self.add(_n("🏹 {shooter} shoots the {item} at {target}: {target} loses {n} combat card.",
                        "🏹 {shooter} shoots the {item} at {target}: {target} loses {n} combat cards.",
                        e.discarded, shooter=shooter, item=item, target=target) if shoots else
                     _n("🏹 {shooter} throws the {item} at {target}: {target} loses {n} combat card.",
                        "🏹 {shooter} throws the {item} at {target}: {target} loses {n} combat cards.",
                        e.discarded, shooter=shooter, item=item, target=target))
        else:
            self.add(_("🏹 {shooter} shoots the {item} at {target}.", shooter=shooter, item=item, target=target)
                     if shoots else
                     _("🏹 {shooter} throws the {item} at {target}.", shooter=shooter, item=item, target=target))

    def initiative(self, e: InitiativeRolled) -> None:
        hero = self.hero_name(self.fighter)
        roller = self.foe(e.roller)
        if len(self.foes) > 1:
            roller = _("{roller}, rolling for the opponents,", roller=roller)
        hi = e.hero_total - e.hero_roll
        fi = e.foe_total - e.foe_roll
        if e.reason == "tie":
            reason = _(" (a tie goes to the hero)") if e.attacker == "hero" else _(" (a tie goes to the opponents)")
        elif e.reason == "higher":
            reason = ""
        else:
            reason = _(" ({why})", why=_(REASONS[e.reason]) if e.reason in REASONS else e.reason)
        values = dict(hero=hero, hero_base=hi, hero_roll=e.hero_roll, hero_total=e.hero_total, roller=roller,
                      foe_base=fi, foe_roll=e.foe_roll, foe_total=e.foe_total, reason=reason)
        if e.attacker == "hero":
            self.add(_("🎲 Initiative: {hero} {hero_base}+{hero_roll} = **{hero_total}**, {roller} "
                       "{foe_base}+{foe_roll} = **{foe_total}** — {hero} attacks{reason}.", **values))
        elif len(self.foes) == 1:
            self.add(_("🎲 Initiative: {hero} {hero_base}+{hero_roll} = **{hero_total}**, {roller} "
                       "{foe_base}+{foe_roll} = **{foe_total}** — {foe} attacks{reason}.", foe=self.group(cap=False),
                       **values))
        else:
            self.add(_("🎲 Initiative: {hero} {hero_base}+{hero_roll} = **{hero_total}**, {roller} "
                       "{foe_base}+{foe_roll} = **{foe_total}** — {foes} attack{reason}.",
                       foes=self.group(cap=False), **values))

    def played(self, e: CardPlayed, prev: Event | None, nxt: Event | None, index: int) -> None:
        card = self.card(e.card) + (_(WHY[e.why]) if e.why in WHY else "")
        if e.role == "attack":
            if e.by == "hero":
                self.hero_attack = e.card
                self.add(_("⚔️ {hero} attacks {foe}: {card}", hero=self.hero_name(self.fighter),
                           foe=self.foe_at(e.foe), card=card))
            else:
                self.foes[e.foe] = e.by
                self.attacks[e.foe] = e.card
                self.add(_("⚔️ {foe} attacks: {card}", foe=self.foe(e.by, cap=True), card=card))
            return
        paired = (isinstance(prev, CardPlayed) and prev.role == "attack" and prev.foe == e.foe
                  and (prev.by == "hero") != (e.by == "hero"))
        defender = self.side(e.by, e.foe)
        attack = self.attacks.pop(e.foe, "") if e.by == "hero" else self.hero_attack
        if e.role == "defence":
            tail = _("{defender} defends with {card}.", defender=defender, card=card)
        else:
            # the wound that follows names the attack that went unanswered: told in the same line
            hurt = isinstance(nxt, Wound) and (nxt.who == "hero") == (e.by == "hero")
            if isinstance(nxt, Wound) and hurt:
                attack = nxt.card if nxt.card in CARD_NAMES else attack
                self.skip.add(index + 1)
                if nxt.who != "hero":
                    self.foes.setdefault(nxt.foe, nxt.who)
            missing = (_("no {card}", card=_(CARD_NAMES[attack]) if attack in CARD_NAMES else attack) if attack
                       else _("no matching card"))
            if isinstance(nxt, Wound) and hurt:
                tail = _("{defender} has {missing}, throws down {card} and {hurt}.", defender=defender,
                         missing=missing, card=card, hurt=self.hurt(nxt))
            else:
                tail = _("{defender} has {missing} and throws down {card}.", defender=defender, missing=missing,
                         card=card)
        if paired and self.lines:
            self.lines[-1] += " — " + tail
        elif e.by == "hero" and e.foe in self.foes:
            self.add(_("🛡️ Against {foe}: {tail}", foe=self.foe_at(e.foe), tail=tail))
        else:
            self.add(f"🛡️ {_cap(tail)}")

    def hurt(self, e: Wound) -> str:
        """What a wound did, as a verb phrase: "takes a leg wound: −1 life (4 left), initiative down to 2"."""
        if e.absorbed:
            return _("the {gear} takes the blow: no life lost", gear=self.gear(e.absorbed))
        what = _(WOUND_NAMES[e.card]) if e.card in WOUND_NAMES else _("a wound")
        if e.card == "leg":
            return _("takes {what}: −{life} life ({left} left), initiative down to {initiative}", what=what,
                     life=e.life, left=e.left, initiative=e.initiative)
        return _("takes {what}: −{life} life ({left} left)", what=what, life=e.life, left=e.left)

    def gear(self, absorbed: str) -> str:
        return _(GEAR[absorbed]) if absorbed in GEAR else absorbed

    def wound(self, e: Wound) -> None:
        name = self.side(e.who, e.foe, cap=True)
        if e.who != "hero":
            self.foes.setdefault(e.foe, e.who)
        if e.absorbed:
            self.add(_("🛡️ {name}'s {gear} takes the blow: no life lost.", name=name, gear=self.gear(e.absorbed)))
            return
        self.add(_("🩸 {name} {hurt}.", name=name, hurt=self.hurt(e)))

    def fight_ended(self, e: FightEnded, nxt: Event | None) -> None:
        hero = self.hero_name(e.seat)
        gains = comma(x for x in (_("+{xp} XP", xp=e.xp) if e.xp else "",
                                      _("+{gold} gold", gold=e.gold) if e.gold else "") if x)
        gains = _(" ({changes})", changes=gains) if gains else ""
        if e.result == "won":
            if isinstance(nxt, Champion):
                return  # the champion's line says it all
            self.add(_("🏆 {hero} wins the fight{gains}.", hero=hero, gains=gains))
        elif e.result == "fled":
            if len(self.foes) == 1:
                self.add(_("🏃 The combat rounds are over and {foe} still stands: the fight breaks off{gains}.",
                           foe=self.group(cap=False), gains=gains))
            else:
                self.add(_("🏃 The combat rounds are over and {foes} still stand: the fight breaks off{gains}.",
                           foes=self.group(cap=False), gains=gains))
        else:
            self.add(_("☠️ {hero} is beaten{gains}.", hero=hero, gains=gains))
        self.attacks = {}
