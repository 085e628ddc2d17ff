"""Champion of the Empire, in words: turns a step's events into the lines posted in the game's public thread.

Pure text (Discord markdown, no mentions: the cogs ping players separately).  ``tell`` is given the state
*after* the step and the step's events; every fact it needs about the moment of an event comes from the
events themselves (or from that state where nothing in between can have changed it).

What is public and what stays secret (the same split as ``ChampionOfTheEmpire.view``):

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

from collections.abc import Iterable, Sequence

from rules.champion.content import Library, library
from rules.champion.state import (
    Bought,
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
    State,
    StoryChosen,
    StoryDrawn,
    StoryOutcome,
    TrailLost,
    TurnBegan,
    Used,
    WeaponChosen,
    Wound,
)
from rules.core import Event

#: Each event card's effect in plain words (the card's own text ends with the same rule).
EFFECT_WORDS: dict[str, str] = {
    "none": "nothing changes this round",
    "explore_move_minus1": "exploring moves one province fewer this round",
    "explore_move_plus1": "exploring moves one province further this round",
    "caravan_gold_plus1": "a caravan escort earns 1 more gold this round",
    "voyage_forbidden": "no ship sails this round: no voyages",
    "voyage_free": "a voyage costs nothing this round",
    "market_closed": "every city market is shut this round",
    "market_discount1": "every market item costs 1 gold less this round",
    "commission_gold_plus1": "local commissions taken in gold pay 1 more this round",
    "commission_xp_plus1": "local commissions taken in experience give 1 more XP this round",
    "recuperate_plus1": "resting outside a city restores 1 more life this round",
    "lore_free": "secret lore costs no gold this round",
    "story_xp_plus1": "a fight from a story card gives 1 more XP this round",
    "opponents_combat_plus1": "every opponent fights with combat value +1 this round",
    "opponents_initiative_plus1": "every opponent has initiative +1 this round",
    "heroes_initiative_plus1": "every hero fights with initiative +1 this round",
    "shipwreck_on_1_2": "a voyage is wrecked on a roll of 1 or 2 this round",
    "all_gain_1_gold": "every hero gains 1 gold now",
}
#: What a card placed in front of a hero does (the story glossary's words).
KEEP_WORDS: dict[str, str] = {
    "guide": "the next exploration moves one province further",
    "blessing": "1 extra combat card in the next fight",
    "fever": "1 fewer combat card in the next fight",
    "free_passage": "the next voyage costs nothing",
    "lame": "the next move action moves one province fewer",
}
CARD_NAMES: dict[str, str] = {"torso": "Torso", "head": "Head", "hand": "Hand", "leg": "Leg",
                              "inspired": "Inspired combat"}
WOUND_NAMES: dict[str, str] = {"torso": "a torso wound", "head": "a head wound", "hand": "a hand wound",
                               "leg": "a leg wound", "inspired": "an Inspired combat wound", "ranged": "a ranged hit",
                               "fire": "a blast of fiery breath", "": "a blow"}
CHANGE_NAMES: dict[str, str] = {"gold": "gold", "xp": "XP", "life": "life", "max_life": "maximum life",
                                "combat": "combat", "initiative": "initiative"}
ATTRIBUTE_NAMES: dict[str, str] = {"initiative": "initiative", "combat": "combat value", "life": "maximum life"}
PILE_NAMES: dict[str, str] = {"event": "event deck", "combat": "combat deck", "item": "item deck",
                              "easy": "easy story deck", "medium": "medium story deck", "hard": "hard story deck",
                              "province": "province cards", "monster": "monster sheets"}
LOSS_WHY: dict[str, str] = {"shipwreck": "to the sea", "story": "on the road", "defeat": "after the defeat"}
REASONS: dict[str, str] = {"double six": "double six: the higher initiative wins",
                           "double one": "double one: the higher initiative wins",
                           "one": "a 1 always loses", "six": "a 6 always wins"}


def _safe(name: str) -> str:
    """A player's name as text: never a mention."""
    return name.replace("@", "＠")


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _and(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def revealed(events: Iterable[Event]) -> list[tuple[str, str]]:
    """The cards whose pictures go with the message, in order and once each: ``(kind, id)``."""
    out: list[tuple[str, str]] = []

    def add(kind: str, cid: str) -> None:
        if cid and (kind, cid) not in out:
            out.append((kind, cid))

    for e in events:
        if isinstance(e, RoundBegan):
            add("event", e.event)
        elif isinstance(e, StoryDrawn):
            for c in e.cards:
                add("story", c)
        elif isinstance(e, StoryChosen):
            add("story", e.card)
        elif isinstance(e, (Bought, ItemGained)):
            add("item", e.item)
        elif isinstance(e, MonsterTaken):
            add("monster", e.monster)
    return out


class _Teller:
    """The running context of one ``tell`` call (names, the fight under way, where each hero stands)."""

    def __init__(self, state: State, events: list[Event], lib: Library) -> None:
        self.s = state
        self.ev = events
        self.lib = lib
        self.lines: list[str] = []
        self.target = 5 if state.short else 6
        # where each hero stood when the step began: the first move of the step starts there
        self.pos: dict[int, str] = {i: h.province for i, h in enumerate(state.heroes)}
        for e in reversed(events):
            if isinstance(e, Moved) and e.path:
                self.pos[e.seat] = e.path[0]
        # the fight under way when the step began
        self.fighter = state.order[state.turn] if state.order else 0
        self.foes: dict[int, str] = {}
        self.kind: str = state.combat.kind if state.combat is not None else "story"
        first = next((e for e in events if isinstance(e, (FightBegan, FightEnded))), None)
        if isinstance(first, FightEnded):
            self.fighter = first.seat
        elif state.combat is not None:
            self.foes = {i: f.name for i, f in enumerate(state.combat.foes)}
        for e in events:
            if isinstance(e, FightBegan):
                break
            name, index = self._foe_of(e)
            if name and index >= 0:
                self.foes.setdefault(index, name)
        self.attacks: dict[int, str] = {}  # the card each opponent attacked with this combat turn
        # the hero's last attack (an opponent's answer may come in the next step, from its player)
        self.hero_attack = state.combat.attack if state.combat is not None else ""
        self.weapon_told = False
        self.bought: set[tuple[int, str]] = set()
        self.skip: set[int] = set()  # events already told together with an earlier one

    @staticmethod
    def _foe_of(e: Event) -> tuple[str, int]:
        if isinstance(e, CardsDrawn) and e.who != "hero":
            return e.who, e.foe
        if isinstance(e, CardPlayed) and e.by != "hero":
            return e.by, e.foe
        if isinstance(e, Wound) and e.who != "hero":
            return e.who, e.foe
        if isinstance(e, FoeDied):
            return e.name, e.foe
        return "", -1

    # --- names --------------------------------------------------------------------------------

    def player(self, seat: int) -> str:
        if 0 <= seat < len(self.s.heroes):
            return f"**{_safe(self.s.heroes[seat].name)}**"
        return "Tabula"

    def hero_name(self, seat: int) -> str:
        h = self.s.heroes[seat] if 0 <= seat < len(self.s.heroes) else None
        if h is None:
            return "the hero"
        hero = self.lib.hero.get(h.hero)
        return hero.name if hero is not None else _safe(h.name)

    def who(self, seat: int) -> str:
        """"Ann's **Labienus**" (or just the player before a hero is chosen)."""
        h = self.s.heroes[seat] if 0 <= seat < len(self.s.heroes) else None
        if h is None:
            return "Tabula"
        hero = self.lib.hero.get(h.hero)
        return f"{_safe(h.name)}'s **{hero.name}**" if hero is not None else f"**{_safe(h.name)}**"

    def item(self, item: str) -> str:
        it = self.lib.item.get(item)
        return f"**{it.name}**" if it is not None else f"**{item}**"

    def province(self, pid: str) -> str:
        p = self.lib.province.get(pid)
        return p.name if p is not None else pid

    def story(self, sid: str) -> str:
        st = self.lib.story.get(sid)
        return st.title if st is not None else sid

    def monster(self, mid: str) -> str:
        m = self.lib.monster.get(mid)
        return self.foe(m.name) if m is not None else mid

    def foe(self, name: str, *, cap: bool = False) -> str:
        """An opponent's name with its article: "the Bodyguard", "Kerberos (left head)", "the Minotaur"."""
        if not any(name.startswith(m.name) for m in self.lib.monsters):
            name = "the " + name
        if name[:4] in ("The ", "the "):
            name = ("The " if cap else "the ") + name[4:]
        return name

    def side(self, who: str, foe: int, *, cap: bool = False) -> str:
        """The hero's name (for "hero") or an opponent's, as combat events name them."""
        if who == "hero":
            return self.hero_name(self.fighter)
        return self.foe(who, cap=cap)

    def foe_at(self, index: int, *, cap: bool = False) -> str:
        name = self.foes.get(index)
        if name is None:
            return "The opponent" if cap else "the opponent"
        return self.foe(name, cap=cap)

    def card(self, kind: str) -> str:
        return f"**{CARD_NAMES.get(kind, kind)}**"

    def changes(self, changes: dict[str, int]) -> str:
        return ", ".join(f"{_signed(v)} {CHANGE_NAMES.get(k, k)}" for k, v in changes.items() if v)

    def add(self, line: str) -> None:
        if line:
            self.lines.append(line)

    # --- the walk -----------------------------------------------------------------------------

    def run(self) -> list[str]:
        skip = self.skip
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
                self.add(f"🐪 {who} escorts a caravan but cannot leave {start}{extra}.")
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

    def shuffled(self, e: Shuffled, prev: Event | None, nxt: Event | None) -> None:
        if isinstance(prev, Shuffled):
            return
        if isinstance(nxt, Shuffled):
            self.add("🔀 Tabula shuffles the decks: events, the three story decks, items, combat cards, "
                     "province cards and monster sheets.")
        elif e.pile == "item" and isinstance(nxt, RoundBegan):
            self.add("🔀 Every hero is ready: the item cards nobody bought are shuffled back into the item deck.")
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
            side = next((sd for sd in hero.side if sd.name == e.side), None)
            stats = (f" (combat {side.combat} · initiative {side.initiative} · life {side.life} · "
                     f"{side.gold} gold{f' · {side.xp} XP' if side.xp else ''})") if side is not None else ""
            self.add(f"🛡️ {self.player(e.seat)} takes **{hero.name}**, {hero.title} — {e.side} side{stats}, "
                     f"with the {self.item(e.weapon)}. The journey starts in **{self.province(hero.start)}**.")
        elif isinstance(e, Offered):
            cards = ", ".join(f"{self.item(c)} ({lib.item[c].price if c in lib.item else '?'} gold)"
                              for c in e.cards)
            if e.where == "setup":
                count = {1: "One item card is", 2: "Two item cards are"}.get(len(e.cards),
                                                                              f"{len(e.cards)} item cards are")
                self.add(f"🏛️ {count} turned up for {self.player(e.seat)}: {cards}. Buy one or pass.")
            else:
                prov = lib.province.get(self.pos.get(e.seat, ""))
                city = prov.city if prov is not None and prov.city else "the city"
                self.add(f"🏛️ The market of **{city}** lays out {cards}. {self.hero_name(e.seat)} may buy one "
                         "or pass.")
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
        card = self.card(e.card)
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


def tell(state: State, events: Iterable[Event], *, lib: Library | None = None) -> list[str]:
    """One line (or short paragraph) per event worth telling, in order; ``state`` is the state after them."""
    return _Teller(state, list(events), lib or library()).run()


def final_report(state: State, *, lib: Library | None = None) -> list[str]:
    """The end: the champion first, then each hero's sheet in one line (information, XP, gold, items)."""
    lib = lib or library()
    target = 5 if state.short else 6
    rows: list[str] = []
    order = sorted(range(len(state.heroes)), key=lambda i: (i != state.winner, -state.heroes[i].info, i))
    for i in order:
        h = state.heroes[i]
        hero = lib.hero[h.hero].name if h.hero in lib.hero else "no hero"
        items = ", ".join(lib.item[x].name if x in lib.item else x for x in h.items) or "no items"
        crown = "👑 " if i == state.winner else ""
        beast = _Teller(state, [], lib).monster(h.monster)
        hunt = f" · hunting {beast}" if h.monster in lib.monster else ""
        if i == state.winner and h.monster in lib.monster:
            hunt = f" · slew {beast}"
        rows.append(f"{crown}**{_safe(h.name)}** — {hero}: information {h.info}/{target} · {h.xp} XP · {h.gold} gold "
                    f"· life {h.life}/{h.max_life}{hunt} · {items}")
    return rows


__all__ = ["EFFECT_WORDS", "KEEP_WORDS", "final_report", "revealed", "tell"]
