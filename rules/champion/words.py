"""Champion of the Empire: slash-command words.  ``parse`` turns a verb and its options into an action;
``choices`` lists every legal value of an option, labelled for people, for autocomplete."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.champion.combat import types_in
from rules.champion.content import CARD_TYPES
from rules.champion.state import (
    DEVELOP_COST,
    Attack,
    Buy,
    Caravan,
    Choose,
    Commission,
    Defend,
    Develop,
    Drop,
    Explore,
    Keep,
    Lore,
    Pass,
    Pick,
    Play,
    Ranged,
    Recuperate,
    State,
    Use,
    Voyage,
    Weapon,
)
from rules.core import GameOver, IllegalAction

if TYPE_CHECKING:
    from rules.champion.game import ChampionOfTheEmpire


def _norm(text: str) -> str:
    return text.strip().lower().replace(" ", "-").replace("_", "-")


def _province(game: ChampionOfTheEmpire, text: str) -> str:
    """A province id from an id or a name (case and spaces ignored)."""
    key = _norm(text)
    lib = game.lib
    if key in lib.province:
        return key
    for p in lib.map.province:
        if _norm(p.name) == key or (p.city and _norm(p.city) == key):
            return p.id
    raise IllegalAction(f"There is no province called {text.strip()[:30]!r}. The list offers every place you can "
                        "reach from where you stand.")


def _item(game: ChampionOfTheEmpire, text: str, allowed: list[str]) -> str:
    key = _norm(text)
    lib = game.lib
    for i in allowed:
        if key in (i, _norm(lib.item[i].name if i in lib.item else i)):
            return i
    if key in lib.item or not allowed:
        return key
    names = ", ".join(lib.item[i].name for i in allowed if i in lib.item)
    raise IllegalAction(f"No item called {text.strip()[:30]!r} here. You can choose: {names}.")


def _foe(game: ChampionOfTheEmpire, state: State, text: str) -> int:
    """An opponent's number (1, 2, 3 as people count) or name, as the 0-based index."""
    c = state.combat
    if c is None:
        raise IllegalAction("There is no fight going on.")
    text = text.strip()
    if not text:
        alive = [i for i, f in enumerate(c.foes) if f.life > 0]
        return alive[0] if alive else 0
    if text.isdigit():
        return int(text) - 1
    for i, f in enumerate(c.foes):
        if _norm(f.name) == _norm(text):
            return i
    raise IllegalAction("Name an opponent by its number: " +
                        ", ".join(f"{i + 1} ({f.name})" for i, f in enumerate(c.foes) if f.life > 0) + ".")


def _card(text: str) -> str:
    key = _norm(text)
    if key in CARD_TYPES:
        return key
    raise IllegalAction(f"Combat cards are {', '.join(CARD_TYPES)}; {text.strip()[:20]!r} is not one of them.")


def parse(game: ChampionOfTheEmpire, state: State, seat: int, verb: str, args: dict[str, str]) -> Any:
    if state.phase == "over":
        raise GameOver("This game has ended: " + game._winner_line(state))
    verb = verb.strip().lower()
    arg = {k: (v or "") for k, v in args.items()}
    me = state.heroes[seat] if 0 <= seat < len(state.heroes) else None
    in_fight = state.phase == "combat" and state.combat is not None
    if verb == "hero":
        lib = game.lib
        key = _norm(arg.get("hero", ""))
        hero = next((h for h in lib.heroes if key in (h.id, _norm(h.name))), None)
        if hero is None:
            raise IllegalAction("Choose a hero: " + ", ".join(h.name for h in lib.heroes) + ".")
        side_text = _norm(arg.get("side", ""))
        side = next((i + 1 for i, sd in enumerate(hero.side) if side_text in (str(i + 1), _norm(sd.name))), 0)
        if not side:
            raise IllegalAction(f"Choose a side of {hero.name}'s sheet: " +
                                ", ".join(f"{i + 1} ({sd.name})" for i, sd in enumerate(hero.side)) + ".")
        weapon = _item(game, arg.get("weapon", ""), list(hero.weapons))
        return Pick(hero=hero.id, side=side, weapon=weapon)
    if verb == "caravan":
        return Caravan(to=_province(game, arg.get("to", "")))
    if verb == "explore":
        raw = arg.get("path", "") or arg.get("to", "")
        parts = [p for p in raw.replace(">", ",").split(",") if p.strip()]
        if not parts:
            raise IllegalAction("Name the way: `/explore path:` one to three provinces separated by `>`.")
        path = [_province(game, p) for p in parts]
        if me is not None and len(path) == 1 and me.province and path[0] not in game.lib.near.get(me.province, ()):
            if path[0] == me.province:
                return Explore(path=(me.province,))
            steps = game.allowance(state, seat, "explore") if state.phase != "setup" else 2
            route = game.reach(state, seat, steps).get(path[0])
            if route:
                return Explore(path=tuple(route))
        return Explore(path=tuple(path))
    if verb == "voyage":
        return Voyage(to=_province(game, arg.get("to", "")))
    if verb == "commission":
        reward = _norm(arg.get("reward", ""))
        reward = {"experience": "xp", "exp": "xp"}.get(reward, reward)
        if reward not in ("xp", "gold"):
            raise IllegalAction("Local commissions pay **xp** or **gold**: `/commission reward:xp`.")
        return Commission(reward=reward)
    if verb == "recuperate":
        return Recuperate()
    if verb == "lore":
        return Lore()
    if verb == "develop":
        attribute = _norm(arg.get("attribute", ""))
        attribute = {"max-life": "life", "combat-value": "combat", "init": "initiative"}.get(attribute, attribute)
        if attribute not in DEVELOP_COST:
            raise IllegalAction("Develop **initiative** (4 XP), **combat** (3 XP) or **life** (2 XP).")
        return Develop(attribute=attribute)
    if verb == "buy":
        offer = (me.offer if state.phase == "setup" and me is not None else state.market)
        return Buy(item=_item(game, arg.get("item", ""), list(offer)))
    if verb == "pass":
        return Pass()
    if verb == "use":
        return Use(item=_item(game, arg.get("item", ""), list(me.items) if me else []))
    if verb == "drop":
        owner = state.heroes[state.order[state.turn]] if state.phase != "setup" else me
        return Drop(item=_item(game, arg.get("item", ""), list(owner.items) if owner else []))
    if verb == "choose":
        if state.phase not in ("fate", "monster", "story"):
            raise IllegalAction("There is nothing to choose right now: `/choose` answers a story card, or picks a "
                                "story card or a monster when the game asks.")
        option = arg.get("option", "").strip()
        if not option:
            raise IllegalAction("Say which option: `/choose option:` (the list shows them).")
        if state.phase in ("fate", "monster"):
            option = _norm(option)
            if state.phase == "monster":
                for m in state.monster_offer:
                    if option == _norm(game.lib.monster[m].name) if m in game.lib.monster else False:
                        option = m
            elif state.draw is not None:
                for cid in state.draw.cards:
                    if option == _norm(game.lib.story[cid].title):
                        option = cid
        return Choose(option=option)
    if verb == "attack" and not in_fight:
        return Attack()
    if verb in ("attack", "play"):
        if not in_fight:
            raise IllegalAction("There is no fight going on; cards are played only in combat.")
        card = _card(arg.get("card", ""))
        if seat == state.order[state.turn] and not arg.get("foe"):
            return Play(card=card, target=_foe(game, state, arg.get("target", "")))
        return Play(card=card, foe=_controlled(state, seat, arg.get("foe", ""), game))
    if verb == "defend":
        if not in_fight:
            raise IllegalAction("There is no fight going on.")
        card = _card(arg.get("card", ""))
        if seat == state.order[state.turn] and not arg.get("foe"):
            return Defend(card=card)
        return Defend(card=card, foe=_controlled(state, seat, arg.get("foe", ""), game))
    if verb == "keep":
        if not in_fight:
            raise IllegalAction("There is no fight going on.")
        raw = arg.get("cards", "")
        kinds = tuple(_card(k) for k in raw.replace(">", ",").replace(" ", ",").split(",")
                      if k.strip() and _norm(k) not in ("none", "nothing"))
        if seat == state.order[state.turn] and not arg.get("foe"):
            return Keep(cards=kinds)
        return Keep(cards=kinds, foe=_controlled(state, seat, arg.get("foe", ""), game))
    if verb in ("weapon", "ranged") and not in_fight:
        raise IllegalAction("There is no fight going on: the weapon and the ranged attack are chosen when a fight "
                            "begins.")
    if verb == "weapon":
        text = arg.get("item", "")
        if _norm(text) in ("", "none", "no-weapon"):
            return Weapon(item="")
        return Weapon(item=_item(game, text, list(me.items) if me else []))
    if verb == "ranged":
        text = arg.get("item", "")
        if _norm(text) in ("", "none"):
            return Ranged(item="")
        return Ranged(item=_item(game, text, list(me.items) if me else []),
                      target=_foe(game, state, arg.get("target", "")))
    listed = ", ".join(f"`/{v}`" for v in game.verbs)
    raise IllegalAction(f"Champion of the Empire has no `/{verb}`. Its commands: {listed} (and `/sheet`, `/hand`, "
                        "`/roll`, `/game status`).")


def _controlled(state: State, seat: int, text: str, game: ChampionOfTheEmpire) -> int:
    """The opponent a controller acts for: named, or the first one of theirs that is waiting."""
    if text.strip():
        return _foe(game, state, text)
    c = state.combat
    assert c is not None
    for i, f in enumerate(c.foes):
        if f.controller == seat and f.life > 0 and (
                (c.step == "foe_defend" and i == c.target) or (c.step == "foe_attack" and f.hand and not f.play)
                or (c.step == "keep" and f.keep is None)):
            return i
    return next((i for i, f in enumerate(c.foes) if f.controller == seat), -1)


def choices(game: ChampionOfTheEmpire, state: State, seat: int, verb: str, option: str) -> list[tuple[str, str]]:
    lib = game.lib
    legal = game.legal(state, seat)
    out: list[tuple[str, str]] = []

    def add(label: str, value: str) -> None:
        if (label, value) not in out and value not in [v for _, v in out]:
            out.append((label[:100], value))

    for a in legal:
        if verb == "hero" and isinstance(a, Pick):
            h = lib.hero[a.hero]
            if option == "hero":
                add(f"{h.name} — {h.title}", h.id)
            elif option == "side":
                sd = h.side[a.side - 1]
                add(f"{a.side}: {sd.name} (combat {sd.combat}, initiative {sd.initiative}, life {sd.life})",
                    str(a.side))
            elif option == "weapon":
                add(lib.item[a.weapon].name if a.weapon in lib.item else a.weapon, a.weapon)
        elif verb == "caravan" and isinstance(a, Caravan) and option == "to":
            add(_place(game, a.to), a.to)
        elif verb == "explore" and isinstance(a, Explore) and option in ("path", "to"):
            add(" > ".join(lib.province[p].name for p in a.path), ">".join(a.path))
        elif verb == "voyage" and isinstance(a, Voyage) and option == "to":
            add(_place(game, a.to), a.to)
        elif verb == "commission" and isinstance(a, Commission) and option == "reward":
            add("+2 experience" if a.reward == "xp" else "+2 gold", a.reward)
        elif verb == "develop" and isinstance(a, Develop) and option == "attribute":
            add(f"{a.attribute} ({DEVELOP_COST[a.attribute]} XP)", a.attribute)
        elif verb == "buy" and isinstance(a, Buy) and option == "item":
            item = lib.item[a.item]
            add(f"{item.name} — {item.price} gold", a.item)
        elif verb == "use" and isinstance(a, Use) and option == "item":
            add(f"{lib.item[a.item].name} (+{lib.item[a.item].heal} life)", a.item)
        elif verb == "drop" and isinstance(a, Drop) and option == "item":
            add(lib.item[a.item].name, a.item)
        elif verb == "choose" and isinstance(a, Choose) and option == "option":
            add(_option_label(game, state, a.option), a.option)
        elif verb == "weapon" and isinstance(a, Weapon) and option == "item":
            add(lib.item[a.item].name if a.item else "no weapon", a.item or "none")
        elif verb == "ranged" and isinstance(a, Ranged):
            if option == "item":
                add(lib.item[a.item].name if a.item else "no ranged attack", a.item or "none")
            elif option == "target" and a.item and state.combat is not None:
                add(f"{a.target + 1}: {state.combat.foes[a.target].name}", str(a.target + 1))
        elif verb in ("play", "attack") and isinstance(a, Play) and state.combat is not None:
            if option == "card":
                add(a.card, a.card)
            elif option == "target" and a.foe < 0:
                add(f"{a.target + 1}: {state.combat.foes[a.target].name}", str(a.target + 1))
            elif option == "foe" and a.foe >= 0:
                add(f"{a.foe + 1}: {state.combat.foes[a.foe].name}", str(a.foe + 1))
        elif verb == "defend" and isinstance(a, Defend) and option == "card":
            add(a.card, a.card)
        elif verb == "keep" and isinstance(a, Keep) and option == "cards":
            add(", ".join(a.cards) or "keep nothing", ",".join(a.cards) or "none")
    return out


def _place(game: ChampionOfTheEmpire, pid: str) -> str:
    p = game.lib.province[pid]
    extra = [x for x in (p.city, p.shrine and f"shrine of {p.shrine}") if x]
    return p.name + (f" ({', '.join(extra)})" if extra else "") + f" · {p.icon}"


def _option_label(game: ChampionOfTheEmpire, state: State, option: str) -> str:
    lib = game.lib
    if state.phase == "monster" and option in lib.monster:
        return lib.monster[option].name
    if state.phase == "fate" and option in lib.story:
        return lib.story[option].title
    if state.phase == "story" and state.draw is not None:
        story = lib.story[state.draw.cards[0]]
        index = int(option) - 1
        return f"{option}: {story.outcome[index].choice or story.outcome[index].text}"
    return option


__all__ = ["choices", "parse", "types_in"]


def command_for(state: State, action: Any) -> str:
    """An action as the slash command a player would type (the terminal runner's `--auto` plays these)."""
    c = state.combat
    if isinstance(action, Pick):
        return f"/hero hero:{action.hero} side:{action.side} weapon:{action.weapon}"
    if isinstance(action, Explore):
        return "/explore path:" + ">".join(action.path)
    if isinstance(action, Caravan):
        return f"/caravan to:{action.to}"
    if isinstance(action, Voyage):
        return f"/voyage to:{action.to}"
    if isinstance(action, Commission):
        return f"/commission reward:{action.reward}"
    if isinstance(action, Develop):
        return f"/develop attribute:{action.attribute}"
    if isinstance(action, (Buy, Use, Drop)):
        return f"/{type(action).__name__.lower()} item:{action.item}"
    if isinstance(action, Choose):
        return f"/choose option:{action.option}"
    if isinstance(action, Weapon):
        return f"/weapon item:{action.item or 'none'}"
    if isinstance(action, Ranged):
        return f"/ranged item:{action.item} target:{action.target + 1}" if action.item else "/ranged item:none"
    if isinstance(action, Play):
        who = f"foe:{action.foe + 1}" if action.foe >= 0 else f"target:{action.target + 1}"
        return f"/play card:{action.card} {who}"
    if isinstance(action, Defend):
        return f"/defend card:{action.card}" + (f" foe:{action.foe + 1}" if action.foe >= 0 else "")
    if isinstance(action, Keep):
        kept = ",".join(action.cards) or "none"
        return f"/keep cards:{kept}" + (f" foe:{action.foe + 1}" if action.foe >= 0 and c is not None else "")
    return "/" + type(action).__name__.lower()
