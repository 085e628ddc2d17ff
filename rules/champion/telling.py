"""Champion of the Empire in words, the groundwork: the fixed phrases (effects, kept cards, wounds), the
cards a step turns face up, and the teller's running context with the names it writes (players, heroes,
items, provinces, opponents).  ``story`` walks the events; ``telling_fights`` tells the fights."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.champion.content import Library
from rules.champion.state import (
    Bought,
    CardPlayed,
    CardsDrawn,
    FightBegan,
    FightEnded,
    FoeDied,
    ItemGained,
    MonsterTaken,
    Moved,
    RoundBegan,
    StoryChosen,
    StoryDrawn,
    Wound,
)
from rules.champion.view import ChampionView
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
                               "leg": "a leg wound", "inspired": "a wound from an Inspired combat card",
                               "ranged": "a ranged hit",
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


def revealed(events: Iterable[Event], *, setup: bool = False) -> list[tuple[str, str]]:
    """The cards whose pictures go with the message, in order and once each: ``(kind, id)``.  ``setup``: the
    step began while the heroes were chosen, so items bought before the first round stay private."""
    out: list[tuple[str, str]] = []

    def add(kind: str, cid: str) -> None:
        if cid and (kind, cid) not in out:
            out.append((kind, cid))

    for e in events:
        if isinstance(e, RoundBegan):
            setup = False
            add("event", e.event)
        elif isinstance(e, StoryDrawn):
            for c in e.cards:
                add("story", c)
        elif isinstance(e, StoryChosen):
            add("story", e.card)
        elif isinstance(e, (Bought, ItemGained)) and not (setup and isinstance(e, Bought)):
            add("item", e.item)
        elif isinstance(e, MonsterTaken):
            add("monster", e.monster)
    return out


class Teller:
    """The running context of one ``tell`` call (names, the fight under way, where each hero stands)."""

    def __init__(self, state: ChampionView, events: list[Event], lib: Library) -> None:
        self.s = state
        self.ev = events
        self.lib = lib
        self.lines: list[str] = []
        self.target = state.info_needed
        # where each hero stood when the step began: the first move of the step starts there
        self.pos: dict[int, str] = {i: h.province or "" for i, h in enumerate(state.heroes)}
        for e in reversed(events):
            if isinstance(e, Moved) and e.path:
                self.pos[e.seat] = e.path[0]
        # the fight under way when the step began
        self.fighter = state.current if state.current is not None else (state.order[0] if state.order else 0)
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
        self.hero_attack = state.combat.hero_attack if state.combat is not None else ""
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
            return f"**{_safe(self.s.heroes[seat].player)}**"
        return "Tabula"

    def hero_name(self, seat: int) -> str:
        h = self.s.heroes[seat] if 0 <= seat < len(self.s.heroes) else None
        if h is None:
            return "the hero"
        hero = self.lib.hero.get(h.hero or "")
        return hero.name if hero is not None else _safe(h.player)

    def who(self, seat: int) -> str:
        """"Ann's **Labienus**" (or just the player before a hero is chosen)."""
        h = self.s.heroes[seat] if 0 <= seat < len(self.s.heroes) else None
        if h is None:
            return "Tabula"
        hero = self.lib.hero.get(h.hero or "")
        return f"{_safe(h.player)}'s **{hero.name}**" if hero is not None else f"**{_safe(h.player)}**"

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

