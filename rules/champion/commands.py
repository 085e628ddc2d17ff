"""Champion of the Empire's words: the codec.  ``parse`` turns a command (typed, pressed or picked) into an
action, ``encode`` is its inverse, and ``label`` is how people read a command or one of its values.

The encoded forms are the ones Tabula's buttons have always carried (``commission?reward=xp``,
``explore?path=latium>campania``, ``play?card=head&target=2``), so controls drawn before the plug-in work
still parse.  Typed values may be ids or names, in any case; numbers (opponents, story choices) count from 1.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.champion import state as st
from rules.champion.content import CARD_TYPES, Hero
from rules.champion.engine import Engine
from rules.champion.i18n import N_, _, _n, and_list, comma, foe_name, local, semicolon
from rules.core import GameOver, IllegalAction
from rules.spec import Command, number

#: The longest encoded command (the platform prefixes ~25 characters; Discord allows 100).
LIMIT = 70
CARD_NAMES = {"torso": N_("Torso"), "head": N_("Head"), "hand": N_("Hand"), "leg": N_("Leg"),
              "inspired": N_("Inspired")}
#: The eight province icons as the menus name them.
ICON_NAMES = {"jug": N_("jug"), "amphora": N_("amphora"), "basket": N_("basket"), "campfire": N_("campfire"),
              "scroll": N_("scroll"), "bow": N_("bow"), "sword": N_("sword"), "chest": N_("chest")}
#: The three attributes experience raises, as the menus name them.
DEVELOP_NAMES = {"initiative": N_("initiative"), "combat": N_("combat"), "life": N_("life")}
VERBS = ("hero", "caravan", "explore", "voyage", "commission", "recuperate", "lore", "develop", "buy", "pass", "use",
         "attack", "choose", "drop", "weapon", "ranged", "play", "defend", "keep")


def _norm(text: str) -> str:
    return text.strip().lower().replace(" ", "-").replace("_", "-")


def _card_word(card: str) -> str:
    return _(CARD_NAMES[card]) if card in CARD_NAMES else card


def _explore_command(action: st.Explore) -> Command:
    full = Command.of("explore", path=">".join(action.path))
    if len(full.encode()) <= LIMIT:
        return full
    return Command.of("explore", path=action.path[-1])  # the shortest way there, as parse finds it


def _ranged_command(action: st.Ranged) -> Command:
    if not action.item:
        return Command.of("ranged", item="none")
    return Command.of("ranged", item=action.item, target=action.target + 1)


def _play_command(action: st.Play) -> Command:
    if action.foe >= 0:
        return Command.of("play", card=action.card, foe=action.foe + 1)
    return Command.of("play", card=action.card, target=action.target + 1)


#: The command each kind of action is written as (the rest: the verb and its one value, or the verb alone).
ENCODERS: dict[type, Callable[[Any], Command]] = {
    st.Pick: lambda a: Command.of("hero", hero=a.hero, side=a.side, weapon=a.weapon),
    st.Explore: _explore_command,
    st.Commission: lambda a: Command.of("commission", reward=a.reward),
    st.Develop: lambda a: Command.of("develop", attribute=a.attribute),
    st.Choose: lambda a: Command.of("choose", option=a.option),
    st.Weapon: lambda a: Command.of("weapon", item=a.item or "none"),
    st.Ranged: _ranged_command,
    st.Play: _play_command,
    st.Defend: lambda a: Command.of("defend", card=a.card, foe=a.foe + 1 if a.foe >= 0 else None,
                                    order=",".join(a.order) or None),
    st.Keep: lambda a: Command.of("keep", cards=",".join(a.cards) or "none", foe=a.foe + 1 if a.foe >= 0 else None),
}


class ChampionCodec:
    def __init__(self, game: Engine) -> None:
        self.game = game
        #: What each verb outside a fight means (the rest are read by ``_fight``).
        self._parsers: dict[str, Callable[[st.State, int, dict[str, str]], st.ChampionAction]] = {
            "hero": self._hero,
            "caravan": lambda state, seat, arg: self._go(state, seat, arg, st.Caravan, "caravan"),
            "voyage": lambda state, seat, arg: self._go(state, seat, arg, st.Voyage, "voyage"),
            "explore": lambda state, seat, arg: self._explore(state, seat, arg.get("path", "") or arg.get("to", "")),
            "commission": self._commission_of,
            "recuperate": lambda state, seat, arg: st.Recuperate(),
            "lore": lambda state, seat, arg: st.Lore(),
            "develop": self._develop,
            "buy": lambda state, seat, arg: st.Buy(item=self._named_item(state, seat, "buy", arg)),
            "pass": lambda state, seat, arg: st.Pass(),
            "use": lambda state, seat, arg: st.Use(item=self._named_item(state, seat, "use", arg)),
            "drop": lambda state, seat, arg: st.Drop(item=self._named_item(state, seat, "drop", arg)),
            "choose": lambda state, seat, arg: self._choose(state, arg.get("option", "")),
            "attack": self._attack,
        }
        #: How each verb reads on a button or in a menu, and how one of its values reads.
        self._labels: dict[str, Callable[[st.State, int, Command], str]] = {
            "hero": self._hero_label, "explore": self._explore_label, "caravan": self._caravan_label,
            "voyage": self._voyage_label, "commission": self._commission_label,
            "recuperate": lambda state, seat, command: _("Recuperate"), "lore": self._lore_label,
            "attack": lambda state, seat, command: _("Attack the monster!"), "pass": self._pass_label,
            "develop": self._develop_label, "use": self._use_label, "buy": self._buy_label,
            "choose": lambda state, seat, command: self._option_label(state, command.get("option"), short=True),
            "drop": lambda state, seat, command: _("Give up {item}",
                                                   item=local(self.game.lib).item[command.get('item')].name),
            "weapon": lambda state, seat, command: _("Fight with {weapons}",
                                                     weapons=self._weapons(command.get('item'))),
            "ranged": self._ranged_label, "play": self._play_label, "defend": self._defend_label,
            "keep": self._keep_label,
        }

    # --- names to ids -----------------------------------------------------------------------------

    def _province(self, text: str) -> str:
        """A province id from an id or a name (case and spaces ignored)."""
        key = _norm(text)
        lib = self.game.lib
        if key in lib.province:
            return key
        for p in (*lib.map.province, *local(lib).map.province):
            if _norm(p.name) == key or (p.city and _norm(p.city) == key):
                return p.id
        raise IllegalAction(_("There is no province called '{name}'. The list offers every place you can reach from "
                              "where you stand.", name=text.strip()[:30]))

    def _item(self, text: str, allowed: list[str]) -> str:
        key = _norm(text)
        lib, loc = self.game.lib, local(self.game.lib)
        for i in allowed:
            if key in (i, _norm(lib.item[i].name if i in lib.item else i),
                       _norm(loc.item[i].name if i in loc.item else i)):
                return i
        if key in lib.item or not allowed:
            return key
        names = comma(loc.item[i].name for i in allowed if i in loc.item)
        raise IllegalAction(_("No item called '{name}' here. You can choose: {names}.", name=text.strip()[:30],
                              names=names))

    @staticmethod
    def _foe(state: st.State, text: str) -> int:
        """An opponent's number (1, 2, 3 as people count) or name, as the 0-based index."""
        c = state.combat
        if c is None:
            raise IllegalAction(_("There is no fight going on."))
        text = text.strip()
        if not text:
            alive = [i for i, f in enumerate(c.foes) if f.life > 0]
            return alive[0] if alive else 0
        counted = number(text)
        if counted is not None:
            return counted - 1
        for i, f in enumerate(c.foes):
            if _norm(text) in (_norm(f.name), _norm(foe_name(f.name))):
                return i
        raise IllegalAction(_("Name an opponent by its number: {foes}.", foes=comma(
            f"{i + 1} ({foe_name(f.name)})" for i, f in enumerate(c.foes) if f.life > 0)))

    @staticmethod
    def _card(text: str) -> str:
        key = _norm(text)
        if key in CARD_TYPES:
            return key
        for kind, name in CARD_NAMES.items():
            if key == _norm(_(name)):
                return kind
        raise IllegalAction(_("Combat cards are {cards}; '{name}' is not one of them.", cards=comma(CARD_TYPES),
                              name=text.strip()[:20]))

    def _controlled(self, state: st.State, seat: int, text: str) -> int:
        """The opponent a controller acts for: named, or the first one of theirs that is waiting."""
        if text.strip():
            return self._foe(state, text)
        c = state.combat
        assert c is not None
        for i, f in enumerate(c.foes):
            if f.controller == seat and f.life > 0 and (
                    (c.step == "foe_defend" and i == c.target) or (c.step == "foe_attack" and f.hand and not f.play)
                    or (c.step == "keep" and f.keep is None)):
                return i
        return next((i for i, f in enumerate(c.foes) if f.controller == seat), -1)

    # --- parse ------------------------------------------------------------------------------------

    def parse(self, state: st.State, seat: int, command: Command) -> st.ChampionAction:
        if state.phase == "over":
            raise GameOver(_("This game has ended: {winner}", winner=self.game.table.winner_line(state)))
        verb = command.verb.strip().lower()
        arg = {k: (v or "") for k, v in command.args}
        parser = self._parsers.get(verb)
        if parser is not None:
            return parser(state, seat, arg)
        return self._fight(state, seat, verb, arg)

    def _hero(self, state: st.State, seat: int, arg: dict[str, str]) -> st.ChampionAction:
        lib = self.game.lib
        key = _norm(arg.get("hero", ""))
        loc = local(lib)
        hero = next((h for h in lib.heroes if key in (h.id, _norm(h.name), _norm(loc.hero[h.id].name))), None)
        if hero is None:
            raise IllegalAction(_("Choose a hero: {heroes}.", heroes=comma(h.name for h in loc.heroes)))
        here = loc.hero[hero.id]
        side_text = _norm(arg.get("side", ""))
        side = next((i + 1 for i, sd in enumerate(hero.side)
                     if side_text in (str(i + 1), _norm(sd.name), _norm(here.side[i].name))), 0)
        if not side or not arg.get("weapon", "").strip():
            raise IllegalAction(self._hero_needs(hero, side))
        return st.Pick(hero=hero.id, side=side, weapon=self._item(arg.get("weapon", ""), list(hero.weapons)))

    def _hero_needs(self, hero: Hero, side: int) -> str:
        """What a `/hero` command left out: the side of the sheet and the weapon, or the weapon."""
        loc = local(self.game.lib)
        here = loc.hero[hero.id]
        sides = semicolon(_n("{number} **{side}** (combat {combat}, initiative {initiative}, life {life}, {gold} "
                             "gold)", "{number} **{side}** (combat {combat}, initiative {initiative}, life {life}, "
                             "{gold} gold)", sd.gold, number=i + 1, side=here.side[i].name, combat=sd.combat,
                             initiative=sd.initiative, life=sd.life, gold=sd.gold)
                          for i, sd in enumerate(hero.side))
        weapons = _(" or ").join(_("**{weapon}** (`{id}`)", weapon=loc.item[w].name, id=w) for w in hero.weapons)
        example = f"/hero hero:{hero.id} side:{_norm(hero.side[0].name)} weapon:{hero.weapons[0]}"
        if not side:
            return _("{hero} also needs the side of the sheet and the weapon, all in one command, e.g. `{example}`. "
                     "Sides: {sides}. Weapons: {weapons}.", hero=here.name, example=example, sides=sides,
                     weapons=weapons)
        return _("{hero} also needs the starting weapon, all in one command, e.g. `{example}`. Sides: {sides}. "
                 "Weapons: {weapons}.", hero=here.name, example=example, sides=sides, weapons=weapons)

    def _go(self, state: st.State, seat: int, arg: dict[str, str], kind: type[st.Caravan] | type[st.Voyage],
            verb: str) -> st.ChampionAction:
        if not arg.get("to", "").strip():
            raise IllegalAction(self._where_to(state, seat, verb))
        return kind(to=self._province(arg.get("to", "")))

    @staticmethod
    def _commission_of(state: st.State, seat: int, arg: dict[str, str]) -> st.ChampionAction:
        reward = _norm(arg.get("reward", ""))
        reward = {"experience": "xp", "exp": "xp"}.get(reward, reward)
        if reward not in ("xp", "gold"):
            raise IllegalAction(_("Local commissions pay **xp** or **gold**: `/commission reward:xp`."))
        return st.Commission(reward=reward)

    @staticmethod
    def _develop(state: st.State, seat: int, arg: dict[str, str]) -> st.ChampionAction:
        attribute = _norm(arg.get("attribute", ""))
        attribute = {"max-life": "life", "combat-value": "combat", "init": "initiative"}.get(attribute, attribute)
        if attribute not in st.DEVELOP_COST:
            raise IllegalAction(_("Develop **initiative** (4 XP), **combat** (3 XP) or **life** (2 XP)."))
        return st.Develop(attribute=attribute)

    def _items_of(self, state: st.State, seat: int, verb: str) -> list[str]:
        """The items a `/buy`, `/use` or `/drop` may name: the offer or the market, one's own, the owner's."""
        me = state.heroes[seat] if 0 <= seat < len(state.heroes) else None
        if verb == "buy":
            return list(me.offer if state.phase == "setup" and me is not None else state.market)
        if verb == "use":
            return list(me.items) if me else []
        owner = state.heroes[state.order[state.turn]] if state.phase != "setup" else me
        return list(owner.items) if owner else []

    def _named_item(self, state: st.State, seat: int, verb: str, arg: dict[str, str]) -> str:
        return self._item(arg.get("item", ""), self._items_of(state, seat, verb))

    def _attack(self, state: st.State, seat: int, arg: dict[str, str]) -> st.ChampionAction:
        """`/attack`: the monster in its lair, or (in a fight) a card."""
        if state.phase == "combat" and state.combat is not None:
            return self._fight(state, seat, "attack", arg)
        return st.Attack()

    def _where_to(self, state: st.State, seat: int, verb: str) -> str:
        """What to type when a caravan or a voyage names no destination, with a few places it may go."""
        lib = local(self.game.lib)
        legal = [a for a in self.game.legal(state, seat) if isinstance(a, (st.Caravan, st.Voyage))
                 and a.__class__.__name__.lower() == verb] if 0 <= seat < len(state.heroes) else []
        names = [lib.province[a.to].name for a in legal if a.to in lib.province]
        if verb == "voyage":
            head = _("Name the port you sail to: `/voyage to:` and a coastal province, e.g. `/voyage to:sicilia`.")
            if not names:
                return head + " " + _("Right now no voyage is possible (it needs a port where you stand and 2 gold).")
            if len(names) > 6:
                return head + " " + _("From here: {places} and {n} more.", places=comma(names[:6]),
                                      n=len(names) - 6)
            return head + " " + _("From here: {places}.", places=comma(names))
        head = _("Name where the caravan goes: `/caravan to:` and a neighbouring province (or where you stand).")
        return head + (" " + _("From here: {places}.", places=comma(names)) if names else "")

    def _explore(self, state: st.State, seat: int, raw: str) -> st.Explore:
        game = self.game
        me = state.heroes[seat] if 0 <= seat < len(state.heroes) else None
        parts = [p for p in raw.replace(">", ",").split(",") if p.strip()]
        if not parts:
            raise IllegalAction(_("Name the way: `/explore path:` one to three provinces separated by `>`."))
        path = [self._province(p) for p in parts]
        if me is not None and len(path) == 1 and me.province and path[0] not in game.lib.near.get(me.province, ()):
            if path[0] == me.province:
                return st.Explore(path=(me.province,))
            steps = game.movement.allowance(state, seat, "explore") if state.phase != "setup" else 2
            route = game.movement.reach(state, seat, steps).get(path[0])
            if route:
                return st.Explore(path=tuple(route))
        return st.Explore(path=tuple(path))

    def _choose(self, state: st.State, text: str) -> st.Choose:
        lib = self.game.lib
        if state.phase not in ("fate", "monster", "story"):
            raise IllegalAction(_("There is nothing to choose right now: `/choose` answers a story card, or picks a "
                                  "story card or a monster when the game asks."))
        option = text.strip()
        if not option:
            raise IllegalAction(_("Say which option: `/choose option:` (the list shows them)."))
        loc = local(lib)
        if state.phase == "monster":
            option = _norm(option)
            for m in state.monster_offer:
                if m in lib.monster and option in (_norm(lib.monster[m].name), _norm(loc.monster[m].name)):
                    option = m
        elif state.phase == "fate":
            option = _norm(option)
            if state.draw is not None:
                for cid in state.draw.cards:
                    if option in (_norm(lib.story[cid].title), _norm(loc.story[cid].title)):
                        option = cid
        return st.Choose(option=option)

    def _fight(self, state: st.State, seat: int, verb: str, arg: dict[str, str]) -> st.ChampionAction:
        """A move in a fight (a card played or thrown down, cards kept, the weapon, a ranged attack)."""
        in_fight = state.phase == "combat" and state.combat is not None
        items = state.heroes[seat].items if 0 <= seat < len(state.heroes) else []
        hero = seat == state.order[state.turn] if state.order else False
        if verb in ("attack", "play"):
            if not in_fight:
                raise IllegalAction(_("There is no fight going on; cards are played only in combat."))
            card = self._card(arg.get("card", ""))
            if hero and not arg.get("foe"):
                return st.Play(card=card, target=self._foe(state, arg.get("target", "")))
            return st.Play(card=card, foe=self._controlled(state, seat, arg.get("foe", "")))
        if verb == "defend":
            if not in_fight:
                raise IllegalAction(_("There is no fight going on."))
            card = self._card(arg.get("card", ""))
            raw = arg.get("order", "")
            order = tuple(self._card(k) for k in raw.replace(">", ",").replace(" ", ",").split(",") if k.strip())
            if hero and not arg.get("foe"):
                return st.Defend(card=card, order=order)
            return st.Defend(card=card, foe=self._controlled(state, seat, arg.get("foe", "")), order=order)
        if verb == "keep":
            if not in_fight:
                raise IllegalAction(_("There is no fight going on."))
            raw = arg.get("cards", "")
            kinds = tuple(self._card(k) for k in raw.replace(">", ",").replace(" ", ",").split(",")
                          if k.strip() and _norm(k) not in ("none", "nothing"))
            if hero and not arg.get("foe"):
                return st.Keep(cards=kinds)
            return st.Keep(cards=kinds, foe=self._controlled(state, seat, arg.get("foe", "")))
        if verb in ("weapon", "ranged") and not in_fight:
            raise IllegalAction(_("There is no fight going on: the weapon and the ranged attack are chosen when a "
                                  "fight begins."))
        if verb == "weapon":
            text = arg.get("item", "")
            if _norm(text) in ("", "none", "no-weapon"):
                return st.Weapon(item="")
            parts = [p for p in text.replace(" and ", "+").replace("&", "+").split("+") if p.strip()]
            return st.Weapon(item="+".join(self._item(p, list(items)) for p in parts) or "")
        if verb == "ranged":
            text = arg.get("item", "")
            if _norm(text) in ("", "none"):
                return st.Ranged(item="")
            return st.Ranged(item=self._item(text, list(items)), target=self._foe(state, arg.get("target", "")))
        listed = comma(f"`/{v}`" for v in VERBS)
        raise IllegalAction(_("Champion of the Empire has no `/{verb}`. Its commands: {listed} (and `/sheet`, "
                              "`/hand`, `/roll`, `/game status`).", verb=verb, listed=listed))

    # --- encode -----------------------------------------------------------------------------------

    def encode(self, state: st.State, seat: int, action: st.ChampionAction) -> Command:
        encoder = ENCODERS.get(type(action))
        if encoder is not None:
            return encoder(action)
        if isinstance(action, (st.Caravan, st.Voyage)):
            return Command.of(type(action).__name__.lower(), to=action.to)
        if isinstance(action, (st.Buy, st.Use, st.Drop)):
            return Command.of(type(action).__name__.lower(), item=action.item)
        return Command.of(type(action).__name__.lower())  # pass, recuperate, lore, attack

    # --- label ------------------------------------------------------------------------------------

    def label(self, state: st.State, seat: int, command: Command, arg: str | None = None) -> str:
        try:
            text = self._value_label(state, command, arg) if arg is not None else self._label(state, seat, command)
        except (KeyError, IndexError, ValueError):
            text = command.get(arg) if arg is not None else command.typed()
        return text[:100]

    def place(self, pid: str) -> str:
        """A province as the move menu shows it: "Campania (amphora · city)"."""
        p = local(self.game.lib).province[pid]
        icon = _(ICON_NAMES[p.icon]) if p.icon in ICON_NAMES else p.icon
        if p.city:
            return _("{province} ({icon} · city)", province=p.name, icon=icon)
        if p.shrine:
            return _("{province} ({icon} · shrine)", province=p.name, icon=icon)
        return _("{province} ({icon})", province=p.name, icon=icon)

    def _weapons(self, value: str) -> str:
        """"Gladius", "Gladius and Sica" (two one-handed weapons), or "no weapon"."""
        lib = local(self.game.lib)
        names = [lib.item[i].name for i in value.split("+") if i in lib.item]
        return and_list(names) if names else _("no weapon")

    def _commission(self, state: st.State, reward: str) -> int:
        """What local commissions pay this round: 2, or 3 under the event that raises that reward."""
        return 2 + (1 if self.game.table.effect(state) == f"commission_{reward}_plus1" else 0)

    @staticmethod
    def _side_index(hero: Hero, text: str) -> int:
        """A side of a hero's sheet by number (1, 2) or name, as the 0-based index."""
        key = _norm(text)
        found = next((i for i, sd in enumerate(hero.side) if key in (str(i + 1), _norm(sd.name))), None)
        if found is None:
            raise ValueError(text)
        return found

    @staticmethod
    def _foe_name(state: st.State, counted: str) -> str:
        c = state.combat
        if c is None:
            return counted
        n = number(counted)
        if n is None:
            raise ValueError(counted)
        return foe_name(c.foes[n - 1].name)

    def _label(self, state: st.State, seat: int, command: Command) -> str:
        labeller = self._labels.get(command.verb)
        return labeller(state, seat, command) if labeller is not None else command.typed()

    def _hero_label(self, state: st.State, seat: int, command: Command) -> str:
        lib, get = local(self.game.lib), command.get
        h = lib.hero[get("hero")]
        side = h.side[self._side_index(self.game.lib.hero[h.id], get("side"))]
        weapon = get("weapon")
        return _("{hero} · {side}: combat {combat}, init {initiative}, life {life} · {weapon}", hero=h.name,
                 side=side.name, combat=side.combat, initiative=side.initiative, life=side.life,
                 weapon=lib.item[weapon].name if weapon in lib.item else weapon)

    def _explore_label(self, state: st.State, seat: int, command: Command) -> str:
        return _("Explore → {place} (+1 XP)", place=self.place(command.get('path').split('>')[-1]))

    def _caravan_label(self, state: st.State, seat: int, command: Command) -> str:
        if state.heroes[seat].province == command.get("to"):
            return _("Caravan, staying in {place} (+1 gold)", place=self.place(command.get('to')))
        return _("Caravan → {place} (+1 gold)", place=self.place(command.get('to')))

    def _voyage_label(self, state: st.State, seat: int, command: Command) -> str:
        cost = self.game.movement.voyage_cost(state, seat)
        return _n("Voyage → {place} ({gold} gold)", "Voyage → {place} ({gold} gold)", cost,
                  place=self.place(command.get('to')), gold=cost)

    def _commission_label(self, state: st.State, seat: int, command: Command) -> str:
        reward = command.get('reward')
        if reward == 'xp':
            return _("Commission: +{n} XP", n=self._commission(state, reward))
        return _n("Commission: +{n} gold", "Commission: +{n} gold", self._commission(state, reward))

    def _lore_label(self, state: st.State, seat: int, command: Command) -> str:
        cost = self.game.stories.lore_cost(state)
        return _n("Learn the shrine's lore ({gold} gold)", "Learn the shrine's lore ({gold} gold)", cost, gold=cost)

    @staticmethod
    def _pass_label(state: st.State, seat: int, command: Command) -> str:
        if state.phase == "lair":
            return _("Draw a story card instead")
        return _("Leave the market") if state.phase == "market" else _("Pass")

    @staticmethod
    def _develop_label(state: st.State, seat: int, command: Command) -> str:
        attribute = command.get('attribute')
        return _("Develop {attribute} ({cost} XP)", cost=st.DEVELOP_COST[attribute],
                 attribute=_(DEVELOP_NAMES[attribute]) if attribute in DEVELOP_NAMES else attribute)

    def _use_label(self, state: st.State, seat: int, command: Command) -> str:
        item = local(self.game.lib).item[command.get("item")]
        return _("Use {item} (+{life} life)", item=item.name, life=item.heal)

    def _buy_label(self, state: st.State, seat: int, command: Command) -> str:
        item = local(self.game.lib).item[command.get("item")]
        cut = self.game.items.price_cut(state) if state.phase == "market" else 0
        price = max(0, item.price - cut)
        return _n("Buy {item} ({gold} gold)", "Buy {item} ({gold} gold)", price, item=item.name, gold=price)

    def _ranged_label(self, state: st.State, seat: int, command: Command) -> str:
        if command.get("item") in ("", "none"):
            return _("No ranged attack")
        return _("{item} at {foe}", item=local(self.game.lib).item[command.get('item')].name,
                 foe=self._foe_name(state, command.get('target')))

    def _play_label(self, state: st.State, seat: int, command: Command) -> str:
        card = _card_word(command.get("card"))
        if command.get("foe"):
            return _("{foe}: attack with {card}", foe=self._foe_name(state, command.get('foe')), card=card)
        return _("{card} → {foe}", card=card, foe=self._foe_name(state, command.get('target')))

    def _defend_label(self, state: st.State, seat: int, command: Command) -> str:
        card, get = _card_word(command.get("card")), command.get
        if get("foe"):
            if get("order"):
                return _("{foe}: throw down {card}, then always the commonest card",
                         foe=self._foe_name(state, get('foe')), card=card)
            return _("{foe}: throw down {card}", foe=self._foe_name(state, get('foe')), card=card)
        if get("order"):
            return _("Throw down {card}, then always the commonest card", card=card)
        return _("Throw down {card}", card=card)

    def _keep_label(self, state: st.State, seat: int, command: Command) -> str:
        get = command.get
        kept = " + ".join(_card_word(k) for k in get("cards").split(",") if k and k != "none")
        if get("foe"):
            return (_("{foe}: keep {cards}", foe=self._foe_name(state, get('foe')), cards=kept) if kept
                    else _("{foe}: keep nothing", foe=self._foe_name(state, get('foe'))))
        return _("keep {cards}", cards=kept) if kept else _("keep nothing")

    def _option_label(self, state: st.State, option: str, *, short: bool = False) -> str:
        lib = local(self.game.lib)
        if state.phase == "monster" and option in lib.monster:
            return lib.monster[option].name
        if state.phase == "fate" and option in lib.story:
            return lib.story[option].title
        if state.phase == "story" and state.draw is not None:
            chosen = number(option)
            if chosen is None:
                raise ValueError(option)
            outcome = lib.story[state.draw.cards[0]].outcome[chosen - 1]
            if short:
                return (outcome.choice or _("Option {option}", option=option))[:80]
            return f"{option}: {outcome.choice or outcome.text}"
        return option

    def _value_label(self, state: st.State, command: Command, arg: str) -> str:
        """One value of an option, for autocomplete: "Campania (Capua, shrine of …) · amphora"."""
        lib = local(self.game.lib)
        verb, value = command.verb, command.get(arg)
        if verb == "hero":
            return self._hero_value(command, arg)
        if verb in ("caravan", "voyage") and arg == "to":
            return self._province_value(value)
        if verb == "explore":
            route = self._explore(state, state.order[state.turn], value).path
            return " > ".join(lib.province[p].name for p in route)
        if verb == "commission":
            n = self._commission(state, value)
            return _("+{n} experience", n=n) if value == "xp" else _n("+{n} gold", "+{n} gold", n)
        if verb == "develop":
            return _("{attribute} ({cost} XP)", attribute=_(DEVELOP_NAMES[value]) if value in DEVELOP_NAMES else value,
                     cost=st.DEVELOP_COST[value])
        if verb in ("buy", "use", "drop"):
            return self._item_value(verb, value)
        if verb == "choose":
            return self._option_label(state, value)
        if verb in ("weapon", "ranged") and arg == "item":
            if value in ("", "none"):
                return _("no weapon") if verb == "weapon" else _("no ranged attack")
            return self._weapons(value)
        if arg in ("target", "foe"):
            return f"{value}: {self._foe_name(state, value)}"
        if verb == "keep" and arg == "cards":
            return comma(_(CARD_NAMES[k]).lower() if k in CARD_NAMES and k != "inspired" else k
                         for k in value.split(",") if k != "none") or _("keep nothing")
        return value

    def _hero_value(self, command: Command, arg: str) -> str:
        """A hero, a side of the hero's sheet, or a starting weapon, as the autocomplete lists them."""
        lib, value = local(self.game.lib), command.get(arg)
        h = lib.hero[command.get("hero")]
        if arg == "hero":
            return f"{h.name} — {h.title}"
        if arg == "side":
            index = self._side_index(self.game.lib.hero[h.id], value)
            sd = h.side[index]
            return _n("{hero}, side {number}: {side} (combat {combat}, initiative {initiative}, life {life}, {gold} "
                      "gold)", "{hero}, side {number}: {side} (combat {combat}, initiative {initiative}, life {life}, "
                      "{gold} gold)", sd.gold, hero=h.name, number=index + 1, side=sd.name, combat=sd.combat,
                      initiative=sd.initiative, life=sd.life, gold=sd.gold)
        return _("{weapon} ({hero}'s {people} weapon)", weapon=lib.item[value].name if value in lib.item else value,
                 hero=h.name, people=h.people)

    def _province_value(self, value: str) -> str:
        p = local(self.game.lib).province[value]
        extra = [x for x in (p.city, p.shrine and _("shrine of {shrine}", shrine=p.shrine)) if x]
        icon = _(ICON_NAMES[p.icon]) if p.icon in ICON_NAMES else p.icon
        return (_("{place} ({extra}) · {icon}", place=p.name, extra=comma(extra), icon=icon) if extra
                else _("{place} · {icon}", place=p.name, icon=icon))

    def _item_value(self, verb: str, value: str) -> str:
        item = local(self.game.lib).item[value]
        if verb == "buy":
            return _n("{item} — {price} gold", "{item} — {price} gold", item.price, item=item.name, price=item.price)
        if verb == "use":
            return _("{item} (+{life} life)", item=item.name, life=item.heal)
        return item.name


__all__ = ["CARD_NAMES", "LIMIT", "VERBS", "ChampionCodec"]
