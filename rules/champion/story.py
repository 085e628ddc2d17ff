"""Champion of the Empire, in words: turns a step's events into the lines posted in the game's public thread.

Pure text (Discord markdown, no mentions: the cogs ping players separately).  ``tell`` is given the public
view *after* the step and the step's events; every fact it needs about the moment of an event comes from the
events themselves (or from that view where nothing in between can have changed it).

What is public and what stays secret (the same split as the typed view, ``view.build_view``):

- **Public** — everything on the table: heroes, sides, weapons and items, positions and moves, every
  attribute track, the event card, story cards drawn (both cards on offer under the fate track), their
  d6 rolls, outcomes and choices, cards placed in front of a hero, the market's three cards, the two item
  cards turned up for a player at setup (they lie face up beside the sheet), combat cards *played* (attack,
  defence, the card thrown down), how many combat cards each side holds, rolls and wounds, the *number* of
  pieces of information a hero has and how many region cards are left, which shrines a hero has used, and the
  name of the monster a hero hunts (its sheet lies face up; the bot posts its picture).
- **Secret** — a hand of combat cards (only counts are told), which region card was set aside with each
  piece of information (so: which regions are still in hand), the icon on a drawn province card, the lair
  these point to, and the monster sheets offered but not taken.  Lines about information, the province
  card, the lost trail and the monster never name a region, an icon or a province.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.champion.content import Library, library
from rules.champion.i18n import N_, _, _n, _p, comma, local
from rules.champion.state import (
    Bought,
    CardChosen,
    CardKept,
    CardPlayed,
    CardsDrawn,
    Champion,
    CombatRoundEnded,
    Defeated,
    Developed,
    FateMoved,
    FightBegan,
    FightEnded,
    FoeDied,
    Gained,
    Gazed,
    GoldForAll,
    Information,
    InitiativeRolled,
    ItemGained,
    ItemLost,
    KeptUsed,
    MonsterOffer,
    MonsterTaken,
    Moved,
    NoRoll,
    Offered,
    Passed,
    Picked,
    ProvinceCard,
    RangedAttack,
    Regenerated,
    Reshuffled,
    Rolled,
    RoundBegan,
    Seated,
    Shipwreck,
    Shuffled,
    StoryChosen,
    StoryDrawn,
    StoryOutcome,
    TrailLost,
    TurnBegan,
    Used,
    WeaponChosen,
    Wound,
)
from rules.champion.telling import (
    ATTRIBUTE_NAMES,
    CARD_NAMES,
    EFFECT_WORDS,
    KEEP_WORDS,
    _and,
    _safe,
    _signed,
    revealed,
)
from rules.champion.telling_fights import FightTeller
from rules.champion.view import ChampionView
from rules.core import Event


class _Teller(FightTeller):
    """One ``tell`` call: the walk over the step's events (names in ``telling``, fights in ``telling_fights``)."""

    # --- the walk -----------------------------------------------------------------------------

    def run(self) -> list[str]:
        skip = self.skip
        # While the heroes are chosen, each player's side, weapon and item stay private until everyone is ready.
        self.in_setup = self.s.phase == "setup" or any(isinstance(e, RoundBegan) and e.round == 1 for e in self.ev)
        for i, e in enumerate(self.ev):
            if i in skip:
                continue
            nxt = self.ev[i + 1] if i + 1 < len(self.ev) else None
            prev = self.ev[i - 1] if i > 0 else None
            if isinstance(e, Moved) and isinstance(nxt, Gained) and nxt.seat == e.seat and nxt.why == e.by:
                skip.add(i + 1)
                self.moved(e, nxt)
            elif isinstance(e, Rolled) and e.why == "voyage" and isinstance(nxt, Shipwreck):
                skip.add(i + 1)
                self.add(_("🎲 Sea roll: **{roll}** — 🌊 shipwreck! {hero} is washed ashore in **{province}**.",
                           roll=e.roll, hero=self.hero_name(e.seat), province=self.province(self.pos.get(e.seat, ''))))
            elif isinstance(e, CardsDrawn):
                group = [e]
                for j in range(i + 1, len(self.ev)):
                    later = self.ev[j]
                    if isinstance(later, CardsDrawn):
                        group.append(later)
                    elif isinstance(later, Reshuffled):  # the deck ran out while dealing: told first
                        self.one(later, None, None, j)
                    else:
                        break
                    skip.add(j)
                self.drawn(group, i)
            elif isinstance(e, Shuffled):
                self.shuffled(e, prev, nxt)
            else:
                self.one(e, prev, nxt, i)
        return [line for line in self.lines if line.strip()]

    def moved(self, e: Moved, gain: Gained | None) -> None:
        who = self.who(e.seat)
        start = self.province(e.path[0]) if e.path else "?"
        end = e.path[-1] if e.path else ""
        extra = _(" ({changes})", changes=self.changes(gain.changes)) if gain is not None and gain.changes else ""
        to = self.province(end)
        if e.by == "caravan":
            if len(e.path) < 2:
                self.add(_("🐪 {who} escorts a caravan around {start} without leaving it{extra}.", who=who,
                           start=start, extra=extra))
            else:
                self.add(_("🐪 {who} escorts a caravan from {start} to **{to}**{extra}.", who=who, start=start, to=to,
                           extra=extra))
        elif e.by == "explore":
            if len(e.path) < 2:
                self.add(_("🧭 {who} explores around {start}{extra}.", who=who, start=start, extra=extra))
            else:
                via = [self.province(p) for p in e.path[1:-1]]
                if via:
                    # the stops on the way, as a route reads (Greek writes them A → B, as around them)
                    stops = via[0] if len(via) == 1 else _p("route", "{items} and {last}", items=_p(
                        "route", ", ").join(via[:-1]), last=via[-1])
                    self.add(_("🧭 {who} explores from {start} through {via} to **{to}**{extra}.", who=who,
                               start=start, via=stops, to=to, extra=extra))
                else:
                    self.add(_("🧭 {who} explores from {start} to **{to}**{extra}.", who=who, start=start, to=to,
                               extra=extra))
        elif e.by == "voyage":
            cost = extra if extra else _(" (free passage)")
            self.add(_("⛵ {who} sails from {start} to **{to}**{cost}.", who=who, start=start, to=to, cost=cost))
        else:
            self.add(_("{who} moves from {start} to **{to}**{extra}.", who=who, start=start, to=to, extra=extra))
        if end:
            self.pos[e.seat] = end

    def shuffled(self, e: Shuffled, prev: Event | None, nxt: Event | None) -> None:
        if isinstance(prev, Shuffled):
            return
        if isinstance(nxt, Shuffled):
            self.add(_("🔀 Tabula shuffles the decks: events, the three story decks, items, combat cards, "
                       "province cards and monster sheets."))
        elif e.pile == "item" and isinstance(nxt, RoundBegan):
            self.add(_("🔀 Every hero is ready: the item cards nobody bought are shuffled back into the item deck. "
                       "The heroes set out:\n{heroes}", heroes="\n".join(self.ready_lines())))
        elif e.pile != "item":
            self.add(_n("🔀 The {pile} is shuffled ({cards} card).", "🔀 The {pile} is shuffled ({cards} cards).",
                        e.cards, pile=self.pile(e.pile), cards=e.cards))

    def one(self, e: Event, prev: Event | None, nxt: Event | None, index: int) -> None:
        lib = self.loc
        if isinstance(e, Seated):
            order = " → ".join(self.player(s) for s in e.order)
            tokens = comma(_("{player} {colour} ({letter})", player=self.player(s), colour=_p("colour", colour),
                                 letter=self.s.heroes[s].letter)
                               for s, colour in sorted(e.colours.items()) if 0 <= s < len(self.s.heroes))
            self.add(_("🎲 Tabula draws lots: {first} goes first. Turn order: {order}. Tokens: {tokens}.",
                       first=self.player(e.first), order=order, tokens=tokens))
        elif isinstance(e, Picked):
            hero = lib.hero.get(e.hero)
            if hero is None:
                self.add(_("{player} chooses a hero.", player=self.player(e.seat)))
                return
            # first come, first served: the hero is public at once; the side and the weapon when all are ready
            self.add(_("🛡️ {player} takes **{hero}**, {title}. The journey starts in **{province}**; the side of "
                       "the sheet, the weapon and the item stay private until everyone has chosen.",
                       player=self.player(e.seat), hero=hero.name, title=hero.title,
                       province=self.province(hero.start)))
        elif isinstance(e, Offered):
            prices = {c: lib.item[c].price if c in lib.item else 0 for c in e.cards}
            cards = comma(_n("{item} ({price} gold)", "{item} ({price} gold)", prices[c], item=self.item(c),
                             price=prices[c]) for c in e.cards)
            if e.where == "setup":
                return  # the two cards are the player's own to see (under **Your choices**)
            else:
                prov = lib.province.get(self.pos.get(e.seat, ""))
                if prov is not None and prov.city:
                    self.add(_("🏛️ The market of **{city}** lays out {cards}. {hero} may buy one or pass.",
                               city=prov.city, cards=cards, hero=self.hero_name(e.seat)))
                else:
                    self.add(_("🏛️ The market of **the city** lays out {cards}. {hero} may buy one or pass.",
                               cards=cards, hero=self.hero_name(e.seat)))
        elif isinstance(e, (Bought, Passed)) and self.in_setup:
            if isinstance(e, Bought):
                self.bought.add((e.seat, e.item))
            self.add(_("✅ {player} is ready.", player=self.player(e.seat)))
        elif isinstance(e, Bought):
            self.bought.add((e.seat, e.item))
            if e.price:
                self.add(_n("💰 {who} buys the {item} for {price} gold.", "💰 {who} buys the {item} for {price} gold.",
                            e.price, who=self.who(e.seat), item=self.item(e.item), price=e.price))
            else:
                self.add(_("💰 {who} buys the {item} for nothing.", who=self.who(e.seat), item=self.item(e.item)))
        elif isinstance(e, Passed):
            if e.what == "market":
                self.add(_("🏛️ {who} leaves the market without buying.", who=self.who(e.seat)))
            else:
                self.add(_("{who} passes on the item offer.", who=self.who(e.seat)))
        elif isinstance(e, RoundBegan):
            self.in_setup = False
            ev = lib.event.get(e.event)
            if ev is None:
                self.add(_("**Round {round}** begins.", round=e.round))
            else:
                effect = _(EFFECT_WORDS[ev.effect]) if ev.effect in EFFECT_WORDS else ev.effect
                self.add(_("🗓️ **Round {round}** — **{event}**: {effect}.", round=e.round, event=ev.name,
                           effect=effect))
        elif isinstance(e, GoldForAll):
            self.add(_n("💰 Every hero gains {gold} gold.", "💰 Every hero gains {gold} gold.", e.gold, gold=e.gold))
        elif isinstance(e, TurnBegan):
            self.add(_("▶️ {player}'s turn: {hero} is in **{province}**.", player=self.player(e.seat),
                       hero=self.hero_name(e.seat), province=self.province(self.pos.get(e.seat, ''))))
        elif isinstance(e, Moved):
            self.moved(e, None)
        elif isinstance(e, Gained):
            self.gained(e)
        elif isinstance(e, Rolled):
            if e.why == "voyage":
                self.add(_("🎲 Sea roll: **{roll}** — {hero} lands safely.", roll=e.roll, hero=self.hero_name(e.seat)))
            # a story card's roll is told with its outcome
        elif isinstance(e, Shipwreck):
            self.add(_("🌊 Shipwreck! {hero} is washed ashore in **{province}**.", hero=self.hero_name(e.seat),
                       province=self.province(self.pos.get(e.seat, ''))))
        elif isinstance(e, Developed):
            attribute = _(ATTRIBUTE_NAMES[e.attribute]) if e.attribute in ATTRIBUTE_NAMES else e.attribute
            self.add(_("📈 {who} spends {cost} XP: {attribute} +1.", who=self.who(e.seat), cost=e.cost,
                       attribute=attribute))
        elif isinstance(e, Used):
            self.add(_("🩹 {who} uses the {item}: +{life} life.", who=self.who(e.seat), item=self.item(e.item),
                       life=e.life))
        elif isinstance(e, ItemGained):
            if (e.seat, e.item) in self.bought:
                self.bought.discard((e.seat, e.item))
                return
            self.add(_("🎁 {who} gains the {item}.", who=self.who(e.seat), item=self.item(e.item)))
        elif isinstance(e, ItemLost):
            self.item_lost(e)
        elif isinstance(e, Information):
            if e.info >= self.target:
                self.add(_("📜 {who} gains a piece of information ({info} of {target}): the trail is complete.",
                           who=self.who(e.seat), info=e.info, target=self.target))
            else:
                self.add(_("📜 {who} gains a piece of information ({info} of {target}).", who=self.who(e.seat),
                           info=e.info, target=self.target))
        elif isinstance(e, ProvinceCard):
            self.add(_("📜 {player} draws a province card: {hero} now knows where the monster lairs. The place stays "
                       "secret.", player=self.player(e.seat), hero=self.hero_name(e.seat)))
        elif isinstance(e, MonsterOffer):
            self.add(_("🐉 {player} draws {n} monster sheets and chooses which beast {hero} will hunt.",
                       player=self.player(e.seat), n=len(e.monsters), hero=self.hero_name(e.seat)))
        elif isinstance(e, MonsterTaken):
            if e.chosen:
                self.add(_("🐉 {who} chooses to hunt **{monster}**.", who=self.who(e.seat),
                           monster=self.monster(e.monster)))
            else:
                self.add(_("🐉 {who} must hunt **{monster}**.", who=self.who(e.seat), monster=self.monster(e.monster)))
        elif isinstance(e, TrailLost):
            self.add(_("📜 {who} loses the trail: the province card goes back and information falls to {info} of "
                       "{target}.", who=self.who(e.seat), info=e.info, target=self.target))
        elif isinstance(e, StoryDrawn):
            self.story_drawn(e)
        elif isinstance(e, StoryChosen):
            self.story_chosen(e)
        elif isinstance(e, StoryOutcome):
            self.story_outcome(e)
        elif isinstance(e, CardKept):
            words = _(KEEP_WORDS[e.key]) if e.key in KEEP_WORDS else e.key
            self.add(_("📌 {hero} places **{card}** in front of them: {words}.", hero=self.hero_name(e.seat),
                       card=self.story(e.card), words=words))
        elif isinstance(e, KeptUsed):
            words = _(KEEP_WORDS[e.key]) if e.key in KEEP_WORDS else e.key
            self.add(_("📌 **{card}** takes effect for {who} ({words}) and is discarded.", card=self.story(e.card),
                       who=self.who(e.seat), words=words))
        elif isinstance(e, FateMoved):
            name = self.hero_name(e.seat)
            now = _signed(e.fate) if e.fate else '0'
            if e.mark == "reset":
                self.add(_("⚖️ {hero}'s fate marker returns to the middle of the track.", hero=name))
            elif e.mark == "laurel":
                self.add(_("⚖️ {hero}'s fate marker moves toward the laurel 🌿 (now {now}).", hero=name, now=now))
            else:
                self.add(_("⚖️ {hero}'s fate marker moves toward the skull 💀 (now {now}).", hero=name, now=now))
        elif isinstance(e, Reshuffled):
            self.add(_n("🔀 The {pile} ran out: {n} discard shuffled into a new pile.",
                        "🔀 The {pile} ran out: {n} discards shuffled into a new pile.", e.cards,
                        pile=self.pile(e.pile)))
        elif isinstance(e, FightBegan):
            self.fight_began(e)
        elif isinstance(e, WeaponChosen):
            self.weapon_told = True
            name = self.hero_name(e.seat)
            armed = _n(" (+{n} armed card)", " (+{n} armed cards)", e.armed) if e.armed else ""
            if e.item and e.second:
                self.add(_("🗡️ {hero} fights with the {item} and the {second}{armed}.", hero=name,
                           item=self.item(e.item), second=self.item(e.second), armed=armed))
            elif e.item:
                self.add(_("🗡️ {hero} fights with the {item}{armed}.", hero=name, item=self.item(e.item),
                           armed=armed))
            elif e.second:
                self.add(_("🗡️ {hero} fights with no weapon and the {second}{armed}.", hero=name,
                           second=self.item(e.second), armed=armed))
            else:
                self.add(_("🗡️ {hero} fights with no weapon{armed}.", hero=name, armed=armed))
        elif isinstance(e, RangedAttack):
            self.ranged(e)
        elif isinstance(e, InitiativeRolled):
            self.initiative(e)
        elif isinstance(e, NoRoll):
            if e.attacker == "hero" or len(self.foes) == 1:  # one opponent attacks, as the hero would
                self.add(_("✨ The inspired defence seizes the moment: {who} attacks without an initiative roll.",
                           who=self.hero_name(self.fighter) if e.attacker == "hero" else self.group(cap=False)))
            else:
                self.add(_("✨ The inspired defence seizes the moment: {who} attack without an initiative roll.",
                           who=self.group(cap=False)))
        elif isinstance(e, CardChosen):
            if not any(isinstance(x, CardPlayed) and x.role == "attack" and x.foe == e.foe for x in self.ev[index:]):
                self.add(_("🂠 {player} plays a card for {foe} — face down until every opponent has chosen.",
                           player=self.player(e.seat), foe=self.foe(e.name)))
        elif isinstance(e, CardPlayed):
            self.played(e, prev, nxt, index)
        elif isinstance(e, Wound):
            self.wound(e)
        elif isinstance(e, FoeDied):
            self.foes[e.foe] = e.name
            foe = self.foe(e.name, cap=True)
            if e.xp:
                self.add(_("💀 {foe} falls (+{xp} XP).", foe=foe, xp=e.xp))
            else:
                self.add(_("💀 {foe} falls.", foe=foe))
        elif isinstance(e, CombatRoundEnded):
            self.add(_("— Combat round {round} ends: each side keeps at most two cards and draws again. —",
                       round=e.round)
                     if not isinstance(nxt, FightEnded) else _("— Combat round {round} ends. —", round=e.round))
        elif isinstance(e, Regenerated):
            self.add(_("🐍 {foe} regrows its wounds: life back to {life}.", foe=self.foe_at(e.foe, cap=True),
                       life=e.life))
        elif isinstance(e, Gazed):
            gazer = next((self.foe(n, cap=True) for n in self.foes.values()), _("The monster"))
            self.add(_n("🗿 {gazer}'s gaze turns one of {hero}'s combat cards to stone.",
                        "🗿 {gazer}'s gaze turns {n} of {hero}'s combat cards to stone.", e.cards,
                        gazer=gazer, hero=self.hero_name(self.fighter)))
        elif isinstance(e, FightEnded):
            self.fight_ended(e, nxt)
        elif isinstance(e, Defeated):
            if e.gold_lost:
                self.add(_n("🩸 {who} is left for dead and comes round with {life} life, {gold} gold poorer.",
                            "🩸 {who} is left for dead and comes round with {life} life, {gold} gold poorer.",
                            e.gold_lost, who=self.who(e.seat), life=e.life, gold=e.gold_lost))
            else:
                self.add(_("🩸 {who} is left for dead and comes round with {life} life, with no gold to lose.",
                           who=self.who(e.seat), life=e.life))
        elif isinstance(e, Champion):
            self.add(_("👑 {who} has slain **{monster}** and is the **Champion of the Empire**!",
                       who=self.who(e.seat), monster=self.monster(e.monster)))

    # --- the pieces ---------------------------------------------------------------------------

    def ready_lines(self) -> list[str]:
        """Each hero as they set out: the side and its numbers, the weapon and the item bought at setup."""
        rows = []
        for h in self.s.heroes:
            hero = self.lib.hero.get(h.hero or "")
            if hero is None:
                continue
            local_hero = self.loc.hero[hero.id]
            index = next((i for i, sd in enumerate(hero.side) if sd.name == h.side), None)
            side = hero.side[index] if index is not None else None
            side_name = local_hero.side[index].name if index is not None else h.side
            stats = ""
            if side is not None:
                stats = _(": combat {combat} · initiative {initiative} · life {life}", combat=side.combat,
                          initiative=side.initiative, life=side.life)
                if side.xp:
                    stats += _(" · {xp} XP", xp=side.xp)
            bought = [self.item(i) for i in h.items if i != h.weapon]
            extra = _(", bought the {items}", items=_and(bought)) if bought else ""
            rows.append(_n("• {player}: **{hero}**, {side} side{stats} — the {weapon}{extra}; {gold} gold.",
                           "• {player}: **{hero}**, {side} side{stats} — the {weapon}{extra}; {gold} gold.", h.gold,
                          player=self.player(h.seat), hero=local_hero.name, side=side_name, stats=stats,
                          weapon=self.item(h.weapon or ''), extra=extra, gold=h.gold))
        return rows

    def gained(self, e: Gained) -> None:
        who = self.who(e.seat)
        what = self.changes(e.changes)
        if e.why == "commission":
            self.add(_("🔨 {who} takes local commissions: {what}.", who=who, what=what))
        elif e.why == "recuperate":
            life = e.changes.get("life", 0)
            prov = self.loc.province.get(self.pos.get(e.seat, ""))
            if prov is not None and prov.city:
                self.add(_("🛌 {who} rests in {city}: +{life} life.", who=who, city=prov.city, life=life) if life
                         else _("🛌 {who} rests in {city}: life is already full.", who=who, city=prov.city))
            else:
                self.add(_("🛌 {who} rests: +{life} life.", who=who, life=life) if life
                         else _("🛌 {who} rests: life is already full.", who=who))
        elif e.why == "lore":
            prov = self.loc.province.get(self.pos.get(e.seat, ""))
            if prov is not None and prov.shrine:
                self.add(_("🏛️ {who} pays the priests at the shrine of {shrine} for their secret lore ({what}).",
                           who=who, shrine=prov.shrine, what=what))
            else:
                self.add(_("🏛️ {who} pays the priests for their secret lore ({what}).", who=who, what=what))
        elif e.why in ("caravan", "explore", "voyage"):
            self.add(_("{who}: {what}.", who=who, what=what))
        elif e.why in self.lib.story:
            self.add(_("↳ {hero}: {what}.", hero=self.hero_name(e.seat), what=what))
        else:
            self.add(_("{who}: {what}.", who=who, what=what))

    def item_lost(self, e: ItemLost) -> None:
        who = self.who(e.seat)
        item = self.item(e.item)
        if e.why == "limit":
            self.add(_("🎒 {who} can carry four items at most and gives up the {item}.", who=who, item=item))
        elif e.why == "defeat":
            if e.chooser < 0:
                self.add(_("🎒 Tabula, for the player to the left, chooses: {hero} loses the {item} after the defeat.",
                           hero=self.hero_name(e.seat), item=item))
            else:
                self.add(_("🎒 {chooser} (to the left) chooses: {hero} loses the {item} after the defeat.",
                           chooser=self.player(e.chooser), hero=self.hero_name(e.seat), item=item))
        elif e.why == "shipwreck":
            self.add(_("🎒 {who} loses the {item} to the sea.", who=who, item=item))
        elif e.why == "story":
            self.add(_("🎒 {who} loses the {item} on the road.", who=who, item=item))
        else:
            self.add(_("🎒 {who} loses the {item}.", who=who, item=item))

    def story_drawn(self, e: StoryDrawn) -> None:
        deck = e.deck if e.deck in ("easy", "medium", "hard") else ""
        who = self.who(e.seat)
        if len(e.cards) >= 2:
            # TRANSLATORS: a story card's title inside a sentence: quote it the way the language quotes a title
            titles = _and([_("**{title}**", title=self.story(c)) for c in e.cards])
            if e.chooser == e.seat:
                chooser = _("{player} chooses which one {hero} faces", player=self.player(e.seat),
                            hero=self.hero_name(e.seat))
            elif self.s.opponents == "bot":
                chooser = _("Tabula chooses for the player to the right")
            else:
                chooser = _("{player} (to the right) chooses which one {hero} faces", player=self.player(e.chooser),
                            hero=self.hero_name(e.seat))
            line = {"easy": N_("⚖️ Fate: two easy story cards are drawn for {who} — {titles}. {chooser}."),
                    "medium": N_("⚖️ Fate: two medium story cards are drawn for {who} — {titles}. {chooser}."),
                    "hard": N_("⚖️ Fate: two hard story cards are drawn for {who} — {titles}. {chooser}."),
                    "": N_("⚖️ Fate: two story cards are drawn for {who} — {titles}. {chooser}.")}[deck]
            self.add(_(line, who=who, titles=titles, chooser=chooser))
            return
        lead = {"easy": N_("{who} draws an easy story card"), "medium": N_("{who} draws a medium story card"),
                "hard": N_("{who} draws a hard story card"), "": N_("{who} draws a story card")}[deck]
        for c in e.cards:
            self.read(e.seat, c, _(lead, who=who))

    def story_chosen(self, e: StoryChosen) -> None:
        hero = self.hero_name(e.seat)
        if e.auto and e.by != e.seat:
            lead = _("Tabula chooses (the harder card) what {hero} faces", hero=hero)
        else:
            lead = _("{player} chooses what {hero} faces", player=self.player(e.by), hero=hero)
        self.read(e.seat, e.card, lead)

    def read(self, seat: int, card: str, lead: str) -> None:
        st = self.loc.story.get(card)
        if st is None:
            self.add(_("📜 {lead}.", lead=lead))
            return
        text = _("📜 {lead}: **{title}**\n> {text}", lead=lead, title=st.title, text=st.text)
        if not st.roll and len(st.outcome) > 1:
            options = " · ".join(f"**{i + 1}.** {o.choice}" for i, o in enumerate(st.outcome))
            text += "\n" + _("{hero} chooses: {options}", hero=self.hero_name(seat), options=options)
        self.add(text)

    def story_outcome(self, e: StoryOutcome) -> None:
        st = self.loc.story.get(e.card)
        if st is None or not 0 <= e.outcome < len(st.outcome):
            self.add(_("🎲 {hero} rolls **{roll}**: nothing comes of it.", hero=self.hero_name(e.seat), roll=e.roll)
                     if e.roll else _("nothing comes of it."))
            return
        o = st.outcome[e.outcome]
        if e.roll:
            self.add(_("🎲 {hero} rolls **{roll}** — {text}", hero=self.hero_name(e.seat), roll=e.roll, text=o.text))
        elif o.choice:
            self.add(_("{hero} chooses **{choice}** — {text}", hero=self.hero_name(e.seat), choice=o.choice,
                       text=o.text))
        else:
            self.add(f"> {o.text}")


def tell(view: ChampionView, events: Iterable[Event], *, lib: Library | None = None) -> list[str]:
    """One line (or short paragraph) per event worth telling, in order; ``view`` is the public view after them."""
    return _Teller(view, list(events), lib or library()).run()


def final_report(view: ChampionView, *, lib: Library | None = None) -> list[str]:
    """The end: the champion first, then each hero's sheet in one line (information, XP, gold, items)."""
    lib = lib or library()
    loc = local(lib)
    target = view.info_needed
    winner = view.winner if view.winner is not None else -1
    rows: list[str] = []
    order = sorted(range(len(view.heroes)), key=lambda i: (i != winner, -view.heroes[i].info, i))
    for i in order:
        h = view.heroes[i]
        hero = loc.hero[h.hero].name if h.hero in loc.hero else _("no hero")
        items = comma(loc.item[x].name if x in loc.item else x for x in h.items) or _("no items")
        crown = "👑 " if i == winner else ""
        monster = h.monster or ""
        beast = _Teller(view, [], lib).monster(monster)
        hunt = _(" · hunting {monster}", monster=beast) if monster in lib.monster else ""
        if i == winner and monster in lib.monster:
            hunt = _(" · slew {monster}", monster=beast)
        rows.append(crown + _("**{player}** — {hero}: information {info}/{target} · {xp} XP · {gold} gold · life "
                              "{life}/{max_life}{hunt} · {items}", player=_safe(h.player), hero=hero, info=h.info,
                              target=target, xp=h.xp, gold=h.gold, life=h.life, max_life=h.max_life, hunt=hunt,
                              items=items))
    return rows


__all__ = ["CARD_NAMES", "EFFECT_WORDS", "KEEP_WORDS", "final_report", "revealed", "tell"]
