"""Champion of the Empire in words, the groundwork: the fixed phrases (effects, kept cards, wounds), the
cards a step turns face up, and the telling's running context (``Scene``) with the names it writes (players,
heroes, items, provinces, opponents).  The package walks the events; ``fights`` tells the fights."""

from __future__ import annotations

from collections.abc import Iterable

from rules.champion.content import Library
from rules.champion.i18n import N_, _, comma, foe_name, local, the
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
    "none": N_("nothing changes this round"),
    "explore_move_minus1": N_("exploring moves one province fewer this round"),
    "explore_move_plus1": N_("exploring moves one province further this round"),
    "caravan_gold_plus1": N_("a caravan escort earns 1 more gold this round"),
    "voyage_forbidden": N_("no ship sails this round: no voyages"),
    "voyage_free": N_("a voyage costs nothing this round"),
    "market_closed": N_("every city market is shut this round"),
    "market_discount1": N_("every market item costs 1 gold less this round"),
    "commission_gold_plus1": N_("local commissions taken in gold pay 1 more this round"),
    "commission_xp_plus1": N_("local commissions taken in experience give 1 more XP this round"),
    "recuperate_plus1": N_("resting outside a city restores 1 more life this round"),
    "lore_free": N_("secret lore costs no gold this round"),
    "story_xp_plus1": N_("a fight from a story card gives 1 more XP this round"),
    "opponents_combat_plus1": N_("every opponent fights with combat value +1 this round"),
    "opponents_initiative_plus1": N_("every opponent has initiative +1 this round"),
    "heroes_initiative_plus1": N_("every hero fights with initiative +1 this round"),
    "shipwreck_on_1_2": N_("a voyage is wrecked on a roll of 1 or 2 this round"),
    "all_gain_1_gold": N_("every hero gains 1 gold now"),
}
#: What a card placed in front of a hero does (the story glossary's words).
KEEP_WORDS: dict[str, str] = {
    "guide": N_("the next exploration moves one province further"),
    "blessing": N_("1 extra combat card in the next fight"),
    "fever": N_("1 fewer combat card in the next fight"),
    "free_passage": N_("the next voyage costs nothing"),
    "lame": N_("the next move action moves one province fewer"),
}
CARD_NAMES: dict[str, str] = {"torso": N_("Torso"), "head": N_("Head"), "hand": N_("Hand"), "leg": N_("Leg"),
                              "inspired": N_("Inspired combat")}
WOUND_NAMES: dict[str, str] = {"torso": N_("a torso wound"), "head": N_("a head wound"), "hand": N_("a hand wound"),
                               "leg": N_("a leg wound"), "inspired": N_("a wound from an Inspired combat card"),
                               "ranged": N_("a ranged hit"),
                               "fire": N_("a blast of fiery breath"), "": N_("a blow")}
CHANGE_NAMES: dict[str, str] = {"gold": N_("gold"), "xp": N_("XP"), "life": N_("life"),
                                "max_life": N_("maximum life"), "combat": N_("combat"),
                                "initiative": N_("initiative")}
ATTRIBUTE_NAMES: dict[str, str] = {"initiative": N_("initiative"), "combat": N_("combat value"),
                                   "life": N_("maximum life")}
PILE_NAMES: dict[str, str] = {"event": N_("event deck"), "combat": N_("combat deck"), "item": N_("item deck"),
                              "easy": N_("easy story deck"), "medium": N_("medium story deck"),
                              "hard": N_("hard story deck"), "province": N_("province cards"),
                              "monster": N_("monster sheets")}
REASONS: dict[str, str] = {"double six": N_("double six: the higher initiative wins"),
                           "double one": N_("double one: the higher initiative wins"),
                           "one": N_("a 1 always loses"), "six": N_("a 6 always wins")}


def _safe(name: str) -> str:
    """A player's name as text: never a mention."""
    return name.replace("@", "＠")


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


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


#: What turned a blow aside.
GEAR = {"armour": N_("armour"), "shield": N_("shield"), "hide": N_("armoured hide")}


class Scene:
    """The running context of one ``tell`` call (names, the fight under way, where each hero stands, the event
    being told and its neighbours)."""

    def __init__(self, state: ChampionView, events: list[Event], lib: Library) -> None:
        self.s = state
        self.ev = events
        self.lib = lib
        self.loc = local(lib)  # the same content, in the current language (names and texts only)
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
        self.at = 0  # the index of the event being told
        # While the heroes are chosen, each player's side, weapon and item stay private until everyone is ready.
        self.in_setup = state.phase == "setup" or any(isinstance(e, RoundBegan) and e.round == 1 for e in events)

    @property
    def prev(self) -> Event | None:
        return self.ev[self.at - 1] if self.at > 0 else None

    @property
    def nxt(self) -> Event | None:
        return self.ev[self.at + 1] if self.at + 1 < len(self.ev) else None

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
            return _("the hero")
        hero = self.loc.hero.get(h.hero or "")
        return hero.name if hero is not None else _safe(h.player)

    def who(self, seat: int) -> str:
        """"Ann's **Labienus**" (or just the player before a hero is chosen)."""
        h = self.s.heroes[seat] if 0 <= seat < len(self.s.heroes) else None
        if h is None:
            return "Tabula"
        hero = self.loc.hero.get(h.hero or "")
        return (_("{player}'s **{hero}**", player=_safe(h.player), hero=hero.name) if hero is not None
                else f"**{_safe(h.player)}**")

    def item(self, item: str) -> str:
        it = self.loc.item.get(item)
        return f"**{it.name}**" if it is not None else f"**{item}**"

    def province(self, pid: str) -> str:
        p = self.loc.province.get(pid)
        return p.name if p is not None else pid

    def story(self, sid: str) -> str:
        st = self.loc.story.get(sid)
        return st.title if st is not None else sid

    def monster(self, mid: str) -> str:
        m = self.lib.monster.get(mid)
        return self.foe(m.name) if m is not None else mid

    def foe(self, name: str, *, cap: bool = False) -> str:
        """An opponent's name with its article: "the Bodyguard", "Kerberos (left head)", "the Minotaur"."""
        proper = any(name.startswith(m.name) for m in self.lib.monsters)
        return the(foe_name(name), cap=cap, proper=proper)

    def side(self, who: str, foe: int, *, cap: bool = False) -> str:
        """The hero's name (for "hero") or an opponent's, as combat events name them."""
        if who == "hero":
            return self.hero_name(self.fighter)
        return self.foe(who, cap=cap)

    def foe_at(self, index: int, *, cap: bool = False) -> str:
        name = self.foes.get(index)
        if name is None:
            return _("The opponent") if cap else _("the opponent")
        return self.foe(name, cap=cap)

    def card(self, kind: str) -> str:
        return f"**{_(CARD_NAMES[kind]) if kind in CARD_NAMES else kind}**"

    def changes(self, changes: dict[str, int]) -> str:
        return comma(_("{change} {what}", change=_signed(v), what=_(CHANGE_NAMES[k]) if k in CHANGE_NAMES else k)
                         for k, v in changes.items() if v)

    def pile(self, pile: str) -> str:
        return _(PILE_NAMES[pile]) if pile in PILE_NAMES else pile

    def group(self, *, cap: bool) -> str:
        """The opponent (when there is one) or "the opponents"."""
        if len(self.foes) == 1:
            return self.foe(next(iter(self.foes.values())), cap=cap)
        return _("The opponents") if cap else _("the opponents")

    def hurt(self, e: Wound) -> str:
        """What a wound did, as a verb phrase: "takes a leg wound: −1 life (4 left), initiative down to 2"."""
        if e.absorbed:
            return _("the {gear} takes the blow: no life lost", gear=self.gear(e.absorbed))
        what = _(WOUND_NAMES[e.card]) if e.card in WOUND_NAMES else _("a wound")
        if e.card == "leg":
            return _("takes {what}: −{life} life ({left} left), initiative down to {initiative}", what=what,
                     life=e.life, left=e.left, initiative=e.initiative)
        return _("takes {what}: −{life} life ({left} left)", what=what, life=e.life, left=e.left)

    @staticmethod
    def gear(absorbed: str) -> str:
        return _(GEAR[absorbed]) if absorbed in GEAR else absorbed

    def add(self, line: str) -> None:
        if line:
            self.lines.append(line)
