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
    LOSS_WHY,
    PILE_NAMES,
    _and,
    _plural,
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
                self.add(f"🎲 Sea roll: **{e.roll}** — 🌊 shipwreck! {self.hero_name(e.seat)} is washed ashore "
                         f"in **{self.province(self.pos.get(e.seat, ''))}**.")
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
        extra = f" ({self.changes(gain.changes)})" if gain is not None and gain.changes else ""
        if e.by == "caravan":
            if len(e.path) < 2:
                self.add(f"🐪 {who} escorts a caravan around {start} without leaving it{extra}.")
            else:
                self.add(f"🐪 {who} escorts a caravan from {start} to **{self.province(end)}**{extra}.")
        elif e.by == "explore":
            if len(e.path) < 2:
                self.add(f"🧭 {who} explores around {start}{extra}.")
            else:
                via = [self.province(p) for p in e.path[1:-1]]
                through = f" through {_and(via)}" if via else ""
                self.add(f"🧭 {who} explores from {start}{through} to **{self.province(end)}**{extra}.")
        elif e.by == "voyage":
            cost = extra if extra else " (free passage)"
            self.add(f"⛵ {who} sails from {start} to **{self.province(end)}**{cost}.")
        else:
            self.add(f"{who} moves from {start} to **{self.province(end)}**{extra}.")
        if end:
            self.pos[e.seat] = end

    def shuffled(self, e: Shuffled, prev: Event | None, nxt: Event | None) -> None:
        if isinstance(prev, Shuffled):
            return
        if isinstance(nxt, Shuffled):
            self.add("🔀 Tabula shuffles the decks: events, the three story decks, items, combat cards, "
                     "province cards and monster sheets.")
        elif e.pile == "item" and isinstance(nxt, RoundBegan):
            self.add("🔀 Every hero is ready: the item cards nobody bought are shuffled back into the item deck. "
                     "The heroes set out:\n" + "\n".join(self.ready_lines()))
        elif e.pile != "item":
            self.add(f"🔀 The {PILE_NAMES.get(e.pile, e.pile)} is shuffled ({e.cards} cards).")

    def one(self, e: Event, prev: Event | None, nxt: Event | None, index: int) -> None:
        lib = self.lib
        if isinstance(e, Seated):
            order = " → ".join(self.player(s) for s in e.order)
            tokens = ", ".join(f"{self.player(s)} {colour} ({self.s.heroes[s].letter})"
                               for s, colour in sorted(e.colours.items()) if 0 <= s < len(self.s.heroes))
            self.add(f"🎲 Tabula draws lots: {self.player(e.first)} goes first. Turn order: {order}. "
                     f"Tokens: {tokens}.")
        elif isinstance(e, Picked):
            hero = lib.hero.get(e.hero)
            if hero is None:
                self.add(f"{self.player(e.seat)} chooses a hero.")
                return
            # first come, first served: the hero is public at once; the side and the weapon when all are ready
            self.add(f"🛡️ {self.player(e.seat)} takes **{hero.name}**, {hero.title}. The journey starts in "
                     f"**{self.province(hero.start)}**; the side of the sheet, the weapon and the item stay "
                     "private until everyone has chosen.")
        elif isinstance(e, Offered):
            cards = ", ".join(f"{self.item(c)} ({lib.item[c].price if c in lib.item else '?'} gold)"
                              for c in e.cards)
            if e.where == "setup":
                return  # the two cards are the player's own to see (under **Your choices**)
            else:
                prov = lib.province.get(self.pos.get(e.seat, ""))
                city = prov.city if prov is not None and prov.city else "the city"
                self.add(f"🏛️ The market of **{city}** lays out {cards}. {self.hero_name(e.seat)} may buy one "
                         "or pass.")
        elif isinstance(e, (Bought, Passed)) and self.in_setup:
            if isinstance(e, Bought):
                self.bought.add((e.seat, e.item))
            self.add(f"✅ {self.player(e.seat)} is ready.")
        elif isinstance(e, Bought):
            self.bought.add((e.seat, e.item))
            price = f"for {e.price} gold" if e.price else "for nothing"
            self.add(f"💰 {self.who(e.seat)} buys the {self.item(e.item)} {price}.")
        elif isinstance(e, Passed):
            if e.what == "market":
                self.add(f"🏛️ {self.who(e.seat)} leaves the market without buying.")
            else:
                self.add(f"{self.who(e.seat)} passes on the item offer.")
        elif isinstance(e, RoundBegan):
            self.in_setup = False
            ev = lib.event.get(e.event)
            if ev is None:
                self.add(f"**Round {e.round}** begins.")
            else:
                self.add(f"🗓️ **Round {e.round}** — **{ev.name}**: {EFFECT_WORDS.get(ev.effect, ev.effect)}.")
        elif isinstance(e, GoldForAll):
            self.add(f"💰 Every hero gains {e.gold} gold.")
        elif isinstance(e, TurnBegan):
            self.add(f"▶️ {self.player(e.seat)}'s turn: {self.hero_name(e.seat)} is in "
                     f"**{self.province(self.pos.get(e.seat, ''))}**.")
        elif isinstance(e, Moved):
            self.moved(e, None)
        elif isinstance(e, Gained):
            self.gained(e)
        elif isinstance(e, Rolled):
            if e.why == "voyage":
                self.add(f"🎲 Sea roll: **{e.roll}** — {self.hero_name(e.seat)} lands safely.")
            # a story card's roll is told with its outcome
        elif isinstance(e, Shipwreck):
            self.add(f"🌊 Shipwreck! {self.hero_name(e.seat)} is washed ashore in "
                     f"**{self.province(self.pos.get(e.seat, ''))}**.")
        elif isinstance(e, Developed):
            self.add(f"📈 {self.who(e.seat)} spends {e.cost} XP: {ATTRIBUTE_NAMES.get(e.attribute, e.attribute)} +1.")
        elif isinstance(e, Used):
            self.add(f"🩹 {self.who(e.seat)} uses the {self.item(e.item)}: +{e.life} life.")
        elif isinstance(e, ItemGained):
            if (e.seat, e.item) in self.bought:
                self.bought.discard((e.seat, e.item))
                return
            self.add(f"🎁 {self.who(e.seat)} gains the {self.item(e.item)}.")
        elif isinstance(e, ItemLost):
            self.item_lost(e)
        elif isinstance(e, Information):
            total = f"{e.info} of {self.target}"
            if e.info >= self.target:
                self.add(f"📜 {self.who(e.seat)} gains a piece of information ({total}): the trail is complete.")
            else:
                self.add(f"📜 {self.who(e.seat)} gains a piece of information ({total}).")
        elif isinstance(e, ProvinceCard):
            self.add(f"📜 {self.player(e.seat)} draws a province card: {self.hero_name(e.seat)} now knows where "
                     "the monster lairs. The place stays secret.")
        elif isinstance(e, MonsterOffer):
            self.add(f"🐉 {self.player(e.seat)} draws {len(e.monsters)} monster sheets and chooses which beast "
                     f"{self.hero_name(e.seat)} will hunt.")
        elif isinstance(e, MonsterTaken):
            how = "chooses to hunt" if e.chosen else "must hunt"
            self.add(f"🐉 {self.who(e.seat)} {how} **{self.monster(e.monster)}**.")
        elif isinstance(e, TrailLost):
            self.add(f"📜 {self.who(e.seat)} loses the trail: the province card goes back and information falls "
                     f"to {e.info} of {self.target}.")
        elif isinstance(e, StoryDrawn):
            self.story_drawn(e)
        elif isinstance(e, StoryChosen):
            self.story_chosen(e)
        elif isinstance(e, StoryOutcome):
            self.story_outcome(e)
        elif isinstance(e, CardKept):
            words = KEEP_WORDS.get(e.key, e.key)
            self.add(f"📌 {self.hero_name(e.seat)} places **{self.story(e.card)}** in front of them: {words}.")
        elif isinstance(e, KeptUsed):
            words = KEEP_WORDS.get(e.key, e.key)
            self.add(f"📌 **{self.story(e.card)}** takes effect for {self.who(e.seat)} ({words}) and is "
                     "discarded.")
        elif isinstance(e, FateMoved):
            if e.mark == "reset":
                self.add(f"⚖️ {self.hero_name(e.seat)}'s fate marker returns to the middle of the track.")
            else:
                toward = "the laurel 🌿" if e.mark == "laurel" else "the skull 💀"
                self.add(f"⚖️ {self.hero_name(e.seat)}'s fate marker moves toward {toward} (now "
                         f"{_signed(e.fate) if e.fate else '0'}).")
        elif isinstance(e, Reshuffled):
            self.add(f"🔀 The {PILE_NAMES.get(e.pile, e.pile)} ran out: {_plural(e.cards, 'discard')} shuffled "
                     "into a new pile.")
        elif isinstance(e, FightBegan):
            self.fight_began(e)
        elif isinstance(e, WeaponChosen):
            self.weapon_told = True
            weapon = f"the {self.item(e.item)}" if e.item else "no weapon"
            if e.second:
                weapon += f" and the {self.item(e.second)}"
            armed = f" (+{_plural(e.armed, 'armed card')})" if e.armed else ""
            self.add(f"🗡️ {self.hero_name(e.seat)} fights with {weapon}{armed}.")
        elif isinstance(e, RangedAttack):
            self.ranged(e)
        elif isinstance(e, InitiativeRolled):
            self.initiative(e)
        elif isinstance(e, NoRoll):
            who = self.hero_name(self.fighter) if e.attacker == "hero" else self.group(cap=False)
            self.add(f"✨ The inspired defence seizes the moment: {who} attack{'s' if e.attacker == 'hero' else ''} "
                     "without an initiative roll.")
        elif isinstance(e, CardChosen):
            if not any(isinstance(x, CardPlayed) and x.role == "attack" and x.foe == e.foe for x in self.ev[index:]):
                self.add(f"🂠 {self.player(e.seat)} plays a card for {self.foe(e.name)} — face down until every "
                         "opponent has chosen.")
        elif isinstance(e, CardPlayed):
            self.played(e, prev, nxt, index)
        elif isinstance(e, Wound):
            self.wound(e)
        elif isinstance(e, FoeDied):
            self.foes[e.foe] = e.name
            xp = f" (+{e.xp} XP)" if e.xp else ""
            self.add(f"💀 {self.foe(e.name, cap=True)} falls{xp}.")
        elif isinstance(e, CombatRoundEnded):
            self.add(f"— Combat round {e.round} ends: each side keeps at most two cards and draws again. —"
                     if not isinstance(nxt, FightEnded) else f"— Combat round {e.round} ends. —")
        elif isinstance(e, Regenerated):
            self.add(f"🐍 {self.foe_at(e.foe, cap=True)} regrows its wounds: life back to {e.life}.")
        elif isinstance(e, Gazed):
            gazer = next((self.foe(n, cap=True) for n in self.foes.values()), "The monster")
            lost = "one" if e.cards == 1 else str(e.cards)
            self.add(f"🗿 {gazer}'s gaze turns {lost} of {self.hero_name(self.fighter)}'s combat cards to stone.")
        elif isinstance(e, FightEnded):
            self.fight_ended(e, nxt)
        elif isinstance(e, Defeated):
            poorer = f"{e.gold_lost} gold poorer" if e.gold_lost else "with no gold to lose"
            self.add(f"🩸 {self.who(e.seat)} is left for dead and comes round with {e.life} life, {poorer}.")
        elif isinstance(e, Champion):
            self.add(f"👑 {self.who(e.seat)} has slain **{self.monster(e.monster)}** and is the "
                     "**Champion of the Empire**!")

    # --- the pieces ---------------------------------------------------------------------------

    def ready_lines(self) -> list[str]:
        """Each hero as they set out: the side and its numbers, the weapon and the item bought at setup."""
        rows = []
        for h in self.s.heroes:
            hero = self.lib.hero.get(h.hero or "")
            if hero is None:
                continue
            side = next((sd for sd in hero.side if sd.name == h.side), None)
            stats = (f": combat {side.combat} · initiative {side.initiative} · life {side.life}"
                     f"{f' · {side.xp} XP' if side.xp else ''}") if side is not None else ""
            bought = [self.item(i) for i in h.items if i != h.weapon]
            extra = f", bought the {_and(bought)}" if bought else ""
            rows.append(f"• {self.player(h.seat)}: **{hero.name}**, {h.side} side{stats} — the "
                        f"{self.item(h.weapon or '')}{extra}; {h.gold} gold.")
        return rows

    def gained(self, e: Gained) -> None:
        who = self.who(e.seat)
        what = self.changes(e.changes)
        if e.why == "commission":
            self.add(f"🔨 {who} takes local commissions: {what}.")
        elif e.why == "recuperate":
            life = e.changes.get("life", 0)
            prov = self.lib.province.get(self.pos.get(e.seat, ""))
            where = f" in {prov.city}" if prov is not None and prov.city else ""
            self.add(f"🛌 {who} rests{where}: " + (f"+{life} life." if life else "life is already full."))
        elif e.why == "lore":
            prov = self.lib.province.get(self.pos.get(e.seat, ""))
            shrine = f" at the shrine of {prov.shrine}" if prov is not None and prov.shrine else ""
            self.add(f"🏛️ {who} pays the priests{shrine} for their secret lore ({what}).")
        elif e.why in ("caravan", "explore", "voyage"):
            self.add(f"{who}: {what}.")
        elif e.why in self.lib.story:
            self.add(f"↳ {self.hero_name(e.seat)}: {what}.")
        else:
            self.add(f"{who}: {what}.")

    def item_lost(self, e: ItemLost) -> None:
        who = self.who(e.seat)
        item = self.item(e.item)
        if e.why == "limit":
            self.add(f"🎒 {who} can carry four items at most and gives up the {item}.")
        elif e.why == "defeat":
            chooser = ("Tabula, for the player to the left," if e.chooser < 0
                       else f"{self.player(e.chooser)} (to the left)")
            self.add(f"🎒 {chooser} chooses: {self.hero_name(e.seat)} loses the {item} after the defeat.")
        else:
            self.add(f"🎒 {who} loses the {item} {LOSS_WHY.get(e.why, '')}".rstrip() + ".")

    def story_drawn(self, e: StoryDrawn) -> None:
        deck = f"{e.deck} story" if e.deck in ("easy", "medium", "hard") else "story"
        if len(e.cards) >= 2:
            titles = " and ".join(f"**{self.story(c)}**" for c in e.cards)
            if e.chooser == e.seat:
                chooser = f"{self.player(e.seat)} chooses which one {self.hero_name(e.seat)} faces"
            elif self.s.opponents == "bot":
                chooser = "Tabula chooses for the player to the right"
            else:
                chooser = f"{self.player(e.chooser)} (to the right) chooses which one {self.hero_name(e.seat)} faces"
            self.add(f"⚖️ Fate: two {deck} cards are drawn for {self.who(e.seat)} — {titles}. {chooser}.")
            return
        for c in e.cards:
            self.read(e.seat, c, f"{self.who(e.seat)} draws an {deck} card" if e.deck == "easy"
                      else f"{self.who(e.seat)} draws a {deck} card")

    def story_chosen(self, e: StoryChosen) -> None:
        if e.by == e.seat:
            lead = f"{self.player(e.seat)} chooses"
        elif e.auto:
            lead = "Tabula chooses (the harder card)"
        else:
            lead = f"{self.player(e.by)} chooses"
        self.read(e.seat, e.card, f"{lead} what {self.hero_name(e.seat)} faces")

    def read(self, seat: int, card: str, lead: str) -> None:
        st = self.lib.story.get(card)
        if st is None:
            self.add(f"📜 {lead}.")
            return
        text = f"📜 {lead}: **{st.title}**\n> {st.text}"
        if not st.roll and len(st.outcome) > 1:
            options = " · ".join(f"**{i + 1}.** {o.choice}" for i, o in enumerate(st.outcome))
            text += f"\n{self.hero_name(seat)} chooses: {options}"
        self.add(text)

    def story_outcome(self, e: StoryOutcome) -> None:
        st = self.lib.story.get(e.card)
        if st is None or not 0 <= e.outcome < len(st.outcome):
            roll = f"🎲 {self.hero_name(e.seat)} rolls **{e.roll}**: " if e.roll else ""
            self.add(f"{roll}nothing comes of it.")
            return
        o = st.outcome[e.outcome]
        if e.roll:
            self.add(f"🎲 {self.hero_name(e.seat)} rolls **{e.roll}** — {o.text}")
        elif o.choice:
            self.add(f"{self.hero_name(e.seat)} chooses **{o.choice}** — {o.text}")
        else:
            self.add(f"> {o.text}")


def tell(view: ChampionView, events: Iterable[Event], *, lib: Library | None = None) -> list[str]:
    """One line (or short paragraph) per event worth telling, in order; ``view`` is the public view after them."""
    return _Teller(view, list(events), lib or library()).run()


def final_report(view: ChampionView, *, lib: Library | None = None) -> list[str]:
    """The end: the champion first, then each hero's sheet in one line (information, XP, gold, items)."""
    lib = lib or library()
    target = view.info_needed
    winner = view.winner if view.winner is not None else -1
    rows: list[str] = []
    order = sorted(range(len(view.heroes)), key=lambda i: (i != winner, -view.heroes[i].info, i))
    for i in order:
        h = view.heroes[i]
        hero = lib.hero[h.hero].name if h.hero in lib.hero else "no hero"
        items = ", ".join(lib.item[x].name if x in lib.item else x for x in h.items) or "no items"
        crown = "👑 " if i == winner else ""
        monster = h.monster or ""
        beast = _Teller(view, [], lib).monster(monster)
        hunt = f" · hunting {beast}" if monster in lib.monster else ""
        if i == winner and monster in lib.monster:
            hunt = f" · slew {beast}"
        rows.append(f"{crown}**{_safe(h.player)}** — {hero}: information {h.info}/{target} · {h.xp} XP · {h.gold} gold "
                    f"· life {h.life}/{h.max_life}{hunt} · {items}")
    return rows


__all__ = ["CARD_NAMES", "EFFECT_WORDS", "KEEP_WORDS", "final_report", "revealed", "tell"]
