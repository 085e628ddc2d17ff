"""Champion of the Empire in words: fights — the cards dealt, the weapon, ranged attacks, initiative, cards
played and thrown down, wounds, and how a fight ends — one function per event."""

from __future__ import annotations

from rules.champion.i18n import N_, _, _n, and_list, comma, semicolon
from rules.champion.state import (
    CardChosen,
    CardPlayed,
    CardsDrawn,
    Champion,
    CombatRoundEnded,
    FightBegan,
    FightEnded,
    FoeDied,
    Gazed,
    InitiativeRolled,
    NoRoll,
    RangedAttack,
    Regenerated,
    WeaponChosen,
    Wound,
)
from rules.champion.telling.words import CARD_NAMES, REASONS, Scene, _cap

#: How a card played without asking says why (after the card's name).
WHY = {"only": N_(" (the only choice, played at once)"), "queued": N_(" (as queued for this fight)")}


def drawn(scene: Scene, group: list[CardsDrawn], index: int) -> None:
    hero = next((g for g in group if g.who == "hero"), None)
    parts: list[str] = []
    lead = ""
    if hero is not None and hero.round == 1 and not scene.weapon_told:
        weapon = weapon_now(scene, index)
        if weapon is not None:
            scene.weapon_told = True
            lead = (_("{hero} fights with the {weapon}. ", hero=scene.hero_name(scene.fighter),
                      weapon=scene.item(weapon)) if weapon
                    else _("{hero} fights without a weapon. ", hero=scene.hero_name(scene.fighter)))
    names: list[str] = []
    for g in group:
        if g.who != "hero":
            scene.foes[g.foe] = g.who
        name = scene.side(g.who, g.foe)
        names.append(name)
        parts.append(_("{name} {cards} ({kept} kept)", name=name, cards=g.cards, kept=g.kept) if g.kept
                     else _("{name} {cards}", name=name, cards=g.cards))
    rnd = group[0].round
    if rnd <= 1 and all(g.kept == 0 for g in group):
        rest = parts[1:]
        line = _n("{name} draws {n} combat card", "{name} draws {n} combat cards", group[0].cards, name=names[0])
        scene.add(_("🃏 {lead}{draws}.", lead=lead, draws=semicolon([_cap(line), *rest])))
    else:
        scene.add(_("🃏 {lead}Combat round {round} — cards in hand: {parts}.", lead=lead, round=rnd,
                   parts=semicolon(parts)))

def weapon_now(scene: Scene, index: int) -> str | None:
    """The weapon of the fight under way, when the state still holds that fight."""
    c = scene.s.combat
    if c is None or any(isinstance(e, (FightEnded, FightBegan)) for e in scene.ev[index + 1:]):
        return None
    return c.weapon

def fight_began(scene: Scene, e: FightBegan) -> None:
    scene.fighter = e.seat
    scene.kind = e.kind
    scene.weapon_told = False
    scene.attacks = {}
    scene.foes = {}
    parts: list[str] = []
    players: dict[int, list[str]] = {}
    for i, f in enumerate(e.foes):
        name = str(f.get("name", "opponent"))
        scene.foes[i] = name
        stats = _("combat {combat} · initiative {initiative} · life {life}", combat=f.get('combat'),
                  initiative=f.get('initiative'), life=f.get('life'))
        parts.append(_("{foe} [{stats}]", foe=scene.foe(name), stats=stats) if name.endswith(")")
                     else _("{foe} ({stats})", foe=scene.foe(name), stats=stats))
        ctl = f.get("controller")
        if isinstance(ctl, int) and 0 <= ctl < len(scene.s.heroes):
            players.setdefault(ctl, []).append(scene.foe(name))
    limit = _n(" The fight lasts at most {n} combat round.", " The fight lasts at most {n} combat rounds.",
               e.rounds) if e.rounds else ""
    if e.kind == "monster":
        line = _("⚔️ Fight! {who} attacks {foes}.{limit}", who=scene.who(e.seat), foes=and_list(parts), limit=limit)
    else:
        line = _("⚔️ Fight! {who} faces {foes}.{limit}", who=scene.who(e.seat), foes=and_list(parts), limit=limit)
    if players:
        controllers = semicolon(_("{player} plays {foes}", player=scene.player(p), foes=and_list(names))
                                for p, names in players.items())
        line += _(" {controllers}.", controllers=controllers)
    scene.add(line)

def ranged(scene: Scene, e: RangedAttack) -> None:
    if e.item == "fiery_breath":
        scene.add(_("🔥 {foe} breathes fire at {hero}.", foe=scene.foe(e.by, cap=True),
                   hero=scene.hero_name(scene.fighter)))
        return
    shooter = scene.side(e.by, -1, cap=True)
    target = scene.hero_name(scene.fighter) if e.target == "hero" else scene.foe(e.target)
    shoots = any(w in e.item for w in ("bow", "sling"))
    item = scene.item(e.item)
    if e.discarded:
        scene.add(_n("🏹 {shooter} shoots the {item} at {target}: {target} loses {n} combat card.",
                    "🏹 {shooter} shoots the {item} at {target}: {target} loses {n} combat cards.",
                    e.discarded, shooter=shooter, item=item, target=target) if shoots else
                 _n("🏹 {shooter} throws the {item} at {target}: {target} loses {n} combat card.",
                    "🏹 {shooter} throws the {item} at {target}: {target} loses {n} combat cards.",
                    e.discarded, shooter=shooter, item=item, target=target))
    else:
        scene.add(_("🏹 {shooter} shoots the {item} at {target}.", shooter=shooter, item=item, target=target)
                 if shoots else
                 _("🏹 {shooter} throws the {item} at {target}.", shooter=shooter, item=item, target=target))

def initiative(scene: Scene, e: InitiativeRolled) -> None:
    hero = scene.hero_name(scene.fighter)
    roller = scene.foe(e.roller)
    if len(scene.foes) > 1:
        roller = _("{roller}, rolling for the opponents,", roller=roller)
    hi = e.hero_total - e.hero_roll
    fi = e.foe_total - e.foe_roll
    if e.reason == "tie":
        reason = _(" (a tie goes to the hero)") if e.attacker == "hero" else _(" (a tie goes to the opponents)")
    elif e.reason == "higher":
        reason = ""
    else:
        reason = _(" ({why})", why=_(REASONS[e.reason]) if e.reason in REASONS else e.reason)
    # each side's initiative plus its die: the die marked 🎲, so that one sees which number was rolled
    values = dict(hero=hero, hero_base=hi, hero_roll=f"🎲{e.hero_roll}", hero_total=e.hero_total, roller=roller,
                  foe_base=fi, foe_roll=f"🎲{e.foe_roll}", foe_total=e.foe_total, reason=reason)
    if e.attacker == "hero":
        scene.add(_("🎲 Initiative: {hero} {hero_base}+{hero_roll} = **{hero_total}**, {roller} "
                   "{foe_base}+{foe_roll} = **{foe_total}** — {hero} attacks{reason}.", **values))
    elif len(scene.foes) == 1:
        scene.add(_("🎲 Initiative: {hero} {hero_base}+{hero_roll} = **{hero_total}**, {roller} "
                   "{foe_base}+{foe_roll} = **{foe_total}** — {foe} attacks{reason}.", foe=scene.group(cap=False),
                   **values))
    else:
        scene.add(_("🎲 Initiative: {hero} {hero_base}+{hero_roll} = **{hero_total}**, {roller} "
                   "{foe_base}+{foe_roll} = **{foe_total}** — {foes} attack{reason}.",
                   foes=scene.group(cap=False), **values))

def played(scene: Scene, e: CardPlayed) -> None:
    prev, nxt, index = scene.prev, scene.nxt, scene.at
    card = scene.card(e.card) + (_(WHY[e.why]) if e.why in WHY else "")
    if e.role == "attack":
        if e.by == "hero":
            scene.hero_attack = e.card
            scene.add(_("⚔️ {hero} attacks {foe}: {card}", hero=scene.hero_name(scene.fighter),
                       foe=scene.foe_at(e.foe), card=card))
        else:
            scene.foes[e.foe] = e.by
            scene.attacks[e.foe] = e.card
            scene.add(_("⚔️ {foe} attacks: {card}", foe=scene.foe(e.by, cap=True), card=card))
        return
    paired = (isinstance(prev, CardPlayed) and prev.role == "attack" and prev.foe == e.foe
              and (prev.by == "hero") != (e.by == "hero"))
    defender = scene.side(e.by, e.foe)
    attack = scene.attacks.pop(e.foe, "") if e.by == "hero" else scene.hero_attack
    if e.role == "defence":
        tail = _("{defender} defends with {card}.", defender=defender, card=card)
    else:
        # the wound that follows names the attack that went unanswered: told in the same line
        hurt = isinstance(nxt, Wound) and (nxt.who == "hero") == (e.by == "hero")
        if isinstance(nxt, Wound) and hurt:
            attack = nxt.card if nxt.card in CARD_NAMES else attack
            scene.skip.add(index + 1)
            if nxt.who != "hero":
                scene.foes.setdefault(nxt.foe, nxt.who)
        missing = (_("no {card}", card=_(CARD_NAMES[attack]) if attack in CARD_NAMES else attack) if attack
                   else _("no matching card"))
        if isinstance(nxt, Wound) and hurt:
            tail = _("{defender} has {missing}, throws down {card} and {hurt}.", defender=defender,
                     missing=missing, card=card, hurt=scene.hurt(nxt))
        else:
            tail = _("{defender} has {missing} and throws down {card}.", defender=defender, missing=missing,
                     card=card)
    if paired and scene.lines:
        scene.lines[-1] += " — " + tail
    elif e.by == "hero" and e.foe in scene.foes:
        scene.add(_("🛡️ Against {foe}: {tail}", foe=scene.foe_at(e.foe), tail=tail))
    else:
        scene.add(f"🛡️ {_cap(tail)}")

def wound(scene: Scene, e: Wound) -> None:
    name = scene.side(e.who, e.foe, cap=True)
    if e.who != "hero":
        scene.foes.setdefault(e.foe, e.who)
    if e.absorbed:
        scene.add(_("🛡️ {name}'s {gear} takes the blow: no life lost.", name=name, gear=scene.gear(e.absorbed)))
        return
    scene.add(_("🩸 {name} {hurt}.", name=name, hurt=scene.hurt(e)))

def fight_ended(scene: Scene, e: FightEnded) -> None:
    nxt = scene.nxt
    hero = scene.hero_name(e.seat)
    gains = comma(x for x in (_("+{xp} XP", xp=e.xp) if e.xp else "",
                                  _("+{gold} gold", gold=e.gold) if e.gold else "") if x)
    gains = _(" ({changes})", changes=gains) if gains else ""
    if e.result == "won":
        if isinstance(nxt, Champion):
            return  # the champion's line says it all
        scene.add(_("🏆 {hero} wins the fight{gains}.", hero=hero, gains=gains))
    elif e.result == "fled":
        if len(scene.foes) == 1:
            scene.add(_("🏃 The combat rounds are over and {foe} still stands: the fight breaks off{gains}.",
                       foe=scene.group(cap=False), gains=gains))
        else:
            scene.add(_("🏃 The combat rounds are over and {foes} still stand: the fight breaks off{gains}.",
                       foes=scene.group(cap=False), gains=gains))
    else:
        scene.add(_("☠️ {hero} is beaten{gains}.", hero=hero, gains=gains))
    scene.attacks = {}


def weapon_chosen(scene: Scene, e: WeaponChosen) -> None:
    scene.weapon_told = True
    name = scene.hero_name(e.seat)
    armed = _n(" (+{n} armed card)", " (+{n} armed cards)", e.armed) if e.armed else ""
    if e.item and e.second:
        scene.add(_("🗡️ {hero} fights with the {item} and the {second}{armed}.", hero=name, item=scene.item(e.item),
                    second=scene.item(e.second), armed=armed))
    elif e.item:
        scene.add(_("🗡️ {hero} fights with the {item}{armed}.", hero=name, item=scene.item(e.item), armed=armed))
    elif e.second:
        scene.add(_("🗡️ {hero} fights with no weapon and the {second}{armed}.", hero=name,
                    second=scene.item(e.second), armed=armed))
    else:
        scene.add(_("🗡️ {hero} fights with no weapon{armed}.", hero=name, armed=armed))


def no_roll(scene: Scene, e: NoRoll) -> None:
    if e.attacker == "hero" or len(scene.foes) == 1:  # one opponent attacks, as the hero would
        scene.add(_("✨ The inspired defence seizes the moment: {who} attacks without an initiative roll.",
                    who=scene.hero_name(scene.fighter) if e.attacker == "hero" else scene.group(cap=False)))
    else:
        scene.add(_("✨ The inspired defence seizes the moment: {who} attack without an initiative roll.",
                    who=scene.group(cap=False)))


def card_chosen(scene: Scene, e: CardChosen) -> None:
    if not any(isinstance(x, CardPlayed) and x.role == "attack" and x.foe == e.foe for x in scene.ev[scene.at:]):
        scene.add(_("🂠 {player} plays a card for {foe} — face down until every opponent has chosen.",
                    player=scene.player(e.seat), foe=scene.foe(e.name)))


def foe_died(scene: Scene, e: FoeDied) -> None:
    scene.foes[e.foe] = e.name
    foe = scene.foe(e.name, cap=True)
    if e.xp:
        scene.add(_("💀 {foe} falls (+{xp} XP).", foe=foe, xp=e.xp))
    else:
        scene.add(_("💀 {foe} falls.", foe=foe))


def combat_round_ended(scene: Scene, e: CombatRoundEnded) -> None:
    if isinstance(scene.nxt, FightEnded):
        scene.add(_("— Combat round {round} ends. —", round=e.round))
    else:
        scene.add(_("— Combat round {round} ends: each side keeps at most two cards and draws again. —",
                    round=e.round))


def regenerated(scene: Scene, e: Regenerated) -> None:
    scene.add(_("🐍 {foe} regrows its wounds: life back to {life}.", foe=scene.foe_at(e.foe, cap=True), life=e.life))


def gazed(scene: Scene, e: Gazed) -> None:
    gazer = next((scene.foe(n, cap=True) for n in scene.foes.values()), _("The monster"))
    scene.add(_n("🗿 {gazer}'s gaze turns one of {hero}'s combat cards to stone.",
                 "🗿 {gazer}'s gaze turns {n} of {hero}'s combat cards to stone.", e.cards, gazer=gazer,
                 hero=scene.hero_name(scene.fighter)))
