"""Champion of the Empire, shown to people: the story of each move, the map, the cards, and the buttons for
whoever must act next.

Public buttons carry decisions everyone may see (a move, a commission, a story card's choice, a purchase);
anything secret — a hand of combat cards, a hero's first choice of sheet — sits behind a **Your hand** /
**Your choices** button that answers only the person who presses it.  Every button is one encoded command
(``verb?option=value``), the same as typing it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from bot.play import Result
from bot.present import Button, Picture, Prompt, Telling, game_title
from render import champion as art
from rules.champion.content import CARD_TYPES, library
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
    Use,
    Voyage,
    Weapon,
)
from rules.champion.story import final_report, revealed, tell

#: What each phase asks of the players who must act (the buttons say the rest).
ASKS = {
    "action": "your turn: choose an action — a move from the menu (a story card follows), a button, or "
              "**Your choices**",
    "lair": "your turn: press **Your choices**",
    "fate": "the fate track gives you the choice: pick the story card to be faced",
    "story": "choose what you do",
    "monster": "choose the mythological monster you will hunt",
    "item": "choose the item that is given up",
    "market": "the local market: buy one item, or pass",
}
CARD_NAMES = {t: t.capitalize() for t in CARD_TYPES}  # "Torso", "Head", …


def encode(verb: str, **args: str | int) -> str:
    """One command as a button or menu value: ``explore?path=latium>campania``."""
    if not args:
        return verb
    return verb + "?" + "&".join(f"{k}={quote(str(v), safe='>,-_')}" for k, v in args.items())


class ChampionPresenter:
    key = "champion"

    def __init__(self) -> None:
        self.lib = library()

    # --- pictures -------------------------------------------------------------------------------

    def board(self, result: Result) -> Picture:
        view = result.view()
        return Picture("map.png", art.render_map(view, title=game_title(result)), art.map_alt_text(view)[:1000])

    def card(self, kind: str, card_id: str) -> Picture | None:
        lib = self.lib
        if kind == "story" and card_id in lib.story:
            c = lib.story[card_id]
            return Picture(f"story-{card_id}.png", art.render_story(c), art.story_alt_text(c)[:1000])
        if kind == "event" and card_id in lib.event:
            e = lib.event[card_id]
            return Picture(f"event-{card_id}.png", art.render_event(e), art.event_alt_text(e)[:1000])
        if kind == "item" and card_id in lib.item:
            i = lib.item[card_id]
            return Picture(f"item-{card_id}.png", art.render_item(i), art.item_alt_text(i)[:1000])
        if kind == "monster" and card_id in lib.monster:
            m = lib.monster[card_id]
            return Picture(f"monster-{card_id}.png", art.render_monster(m), art.monster_alt_text(m)[:1000])
        return None

    def warm(self) -> int:
        """Draw the static map and every card once, so no player waits for a first drawing."""
        art.warm()
        count = 1
        lib = self.lib
        for kind, ids in (("story", lib.story), ("event", lib.event), ("item", lib.item), ("monster", lib.monster)):
            for card_id in ids:
                self.card(kind, card_id)
                count += 1
        return count

    # --- the message after a move ---------------------------------------------------------------

    def telling(self, result: Result, *, with_board: bool = True) -> Telling:
        state = result.state
        lines = tell(state, result.events, lib=self.lib)
        if getattr(result.action, "auto", False) and result.actor is not None:
            away = next((e.name for e in result.seats if e.seat == result.actor), "A player")
            lines.insert(0, f"⏳ {away} did not answer within the game's time limit, so Tabula plays for them.")
        pictures = [p for kind, cid in revealed(result.events) if (p := self.card(kind, cid)) is not None][:6]
        if state.phase == "market" and state.market:
            pictures += [p for cid in state.market if (p := self.card("item", cid)) is not None]
        if result.outcome is not None:
            lines.append("**The heroes at the end**\n" + "\n".join(final_report(state, lib=self.lib)))
            lines.append(f"🏆 {result.outcome.summary}")
        # Nothing moves on the map during a fight: show it when the fight is not running.
        if with_board and (state.phase != "combat" or not result.events):
            pictures.append(self.board(result))
        return Telling(text="\n".join(lines) or "—", pictures=pictures[:10], prompt=self.prompt(result))

    def status(self, result: Result) -> Telling:
        view = result.view()
        rows = []
        for h in view["heroes"]:
            if not h["hero"]:
                rows.append(f"{h['letter']} **{h['player']}** — still choosing a hero")
                continue
            hero = self.lib.hero[h["hero"]].name
            where = self.lib.province[h["province"]].name if h["province"] else "—"
            items = ", ".join(self.lib.item[i].name for i in h["items"]) or "no items"
            rows.append(f"{h['letter']} **{h['player']}** ({h['colour']}, {hero}) in {where} — life {h['life']}/"
                        f"{h['max_life']}, combat {h['combat']}, initiative {h['initiative']}, XP {h['xp']}, gold "
                        f"{h['gold']}, information {h['info']}/{view['info_needed']} · {items}")
        head = "This game was abandoned." if result.status == "abandoned" else view["caption"]
        text = f"**{game_title(result)}** — {head}\n" + "\n".join(rows)
        return Telling(text=text, pictures=[self.board(result)], prompt=self.prompt(result))

    def sheet(self, result: Result, seat: int) -> Telling:
        """`/sheet`: the character sheet picture, and (for its owner only) what the information has shown."""
        view = result.view(seat)
        hero = view["heroes"][seat]
        if not hero["hero"]:
            return Telling(text="You have not chosen your hero yet — press **Your choices** in the thread.",
                           pictures=[], prompt=None)
        secret = view.get("secret", {})
        side = hero.get("side") or ""
        hero = {**hero, "info_needed": view["info_needed"]}
        png = art.render_sheet(hero, side_name=side)
        lines = [f"**{self.lib.hero[hero['hero']].name}** — {hero['player']}'s hero ({side} side)."]
        regions = [self.lib.region[r].name for r in secret.get("regions", [])]
        if regions:
            lines.append(f"Region cards still in your hand ({len(regions)}): {', '.join(regions)} — the monster is "
                         "in one of them.")
        if secret.get("monster"):
            lines.append(f"Your monster: **{self.lib.monster[secret['monster']].name}**.")
        if secret.get("lair"):
            lines.append(f"Its lair: **{self.lib.province[secret['lair']].name}** — travel there and `/attack`.")
        kept = [k["key"] for k in hero.get("kept", [])]
        if kept:
            lines.append("Cards in front of you: " + ", ".join(kept) + ".")
        return Telling(text="\n".join(lines), pictures=[Picture("sheet.png", png, art.sheet_alt_text(
            hero, side_name=side)[:1000])], prompt=None)

    def narrator_card(self, result: Result, seat: int) -> Telling | None:
        return None  # nobody narrates in Champion of the Empire

    # --- who must act, and the buttons they get -------------------------------------------------

    def prompt(self, result: Result) -> Prompt | None:
        rules, state = result.rules, result.state
        if result.status != "active" or state.phase == "over":
            return None
        acting = sorted(rules.to_act(state))
        if not acting:
            return None
        users = [result.user_of(s) for s in acting]
        if state.phase == "setup":
            picking = all(not state.heroes[s].hero for s in acting)
            what = ("choose your hero, the side of the sheet and a starting weapon, then buy one of the two items "
                    "offered or pass" if picking else "choose a hero, or buy one of your two items or pass")
            return Prompt(users=users, text=f"{what} — press **Your choices** (only you see them).",
                          private="Your choices")
        if state.phase == "combat":
            return self._combat_prompt(result, acting, users)
        seat = acting[0]
        if state.phase == "lair":  # standing in one's own lair is a secret: the choice is made privately
            return Prompt(users=users, text=ASKS["lair"] + " (only you see them).", private="Your choices")
        prompt = self._choices(result, seat, public=True)
        prompt.users = users
        prompt.text = ASKS.get(state.phase, "your move") + self._hint(result, seat)
        if state.phase == "action":
            prompt.private = "Your choices"
        return prompt

    def _hint(self, result: Result, seat: int) -> str:
        state = result.state
        if state.phase == "story" and state.draw is not None:
            return f" (**{self.lib.story[state.draw.cards[0]].title}**)"
        if state.phase == "item" and state.losing:
            owner = state.heroes[state.order[state.turn]].name
            return f" ({owner}'s item)" if state.heroes[seat].name != owner else ""
        return ""

    def _choices(self, result: Result, seat: int, *, public: bool = False) -> Prompt:
        """Every legal action for the seat, as a menu (moves) and buttons (the rest).  In public, attacking
        the monster is left out: only its hunter may know that this is its lair (**Your choices** has it)."""
        rules, state = result.rules, result.state
        legal = rules.legal(state, seat)
        menu: list[tuple[str, str]] = []
        buttons: list[Button] = []
        seen: set[str] = set()
        here = state.heroes[seat].province
        for a in legal:
            if isinstance(a, Explore):
                to = a.path[-1]
                if to in seen or (to == here and len(a.path) > 1):
                    continue
                seen.add(to)
                menu.append((f"Explore → {self._place(to)} (+1 XP)", encode("explore", path=">".join(a.path))))
        for a in legal:
            if isinstance(a, Caravan):
                menu.append((f"Caravan → {self._place(a.to)} (+1 gold)", encode("caravan", to=a.to)))
            elif isinstance(a, Voyage):
                menu.append((f"Voyage → {self._place(a.to)} ({rules.voyage_cost(state, seat)} gold)",
                             encode("voyage", to=a.to)))
        for a in legal:
            b = None if public and isinstance(a, Attack) else self._button(result, seat, a)
            if b is not None:
                buttons.append(b)
        menu = [(label, value) for label, value in menu if len(value) <= 100]  # Discord's limit for a value
        return Prompt(users=[result.user_of(seat)], text="", verb="act" if menu else None,
                      option="a" if menu else None, choices=menu[:25], placeholder="Move: explore, caravan or sail…",
                      buttons=buttons[:20])

    def _place(self, pid: str) -> str:
        p = self.lib.province[pid]
        extra = " · city" if p.city else (" · shrine" if p.shrine else "")
        return f"{p.name} ({p.icon}{extra})"

    def _button(self, result: Result, seat: int, a: Any) -> Button | None:
        """A button for one legal non-move action (moves go in the menu)."""
        state = result.state
        lib = self.lib
        c = state.combat
        if isinstance(a, Commission):
            return Button(f"Commission: +2 {'XP' if a.reward == 'xp' else 'gold'}", "act", "secondary", "a",
                          encode("commission", reward=a.reward))
        if isinstance(a, Recuperate):
            return Button("Recuperate", "act", "success", "a", encode("recuperate"))
        if isinstance(a, Lore):
            return Button("Learn the shrine's lore (2 gold)", "act", "primary", "a", encode("lore"))
        if isinstance(a, Attack):
            return Button("Attack the monster!", "act", "danger", "a", encode("attack"))
        if isinstance(a, Pass):
            label = {"lair": "Draw a story card instead", "market": "Leave the market"}.get(state.phase, "Pass")
            return Button(label, "act", "secondary", "a", encode("pass"))
        if isinstance(a, Develop):
            cost = DEVELOP_COST[a.attribute]
            return Button(f"Develop {a.attribute} ({cost} XP)", "act", "secondary", "a",
                          encode("develop", attribute=a.attribute))
        if isinstance(a, Use):
            item = lib.item[a.item]
            return Button(f"Use {item.name} (+{item.heal} life)", "act", "success", "a", encode("use", item=a.item))
        if isinstance(a, Buy):
            item = lib.item[a.item]
            cut = result.rules.price_cut(state) if state.phase == "market" else 0
            return Button(f"Buy {item.name} ({max(0, item.price - cut)} gold)", "act", "primary", "a",
                          encode("buy", item=a.item))
        if isinstance(a, Choose):
            return Button(self._option_label(result, a.option), "act", "primary", "a",
                          encode("choose", option=a.option))
        if isinstance(a, Drop):
            return Button(f"Give up {lib.item[a.item].name}", "act", "danger", "a", encode("drop", item=a.item))
        if isinstance(a, Pick):
            return None  # 20 combinations: a menu, in the private view
        if isinstance(a, Weapon):
            name = lib.item[a.item].name if a.item else "no weapon"
            return Button(f"Fight with {name}", "act", "primary", "a", encode("weapon", item=a.item or "none"))
        if isinstance(a, Ranged):
            if not a.item:
                return Button("No ranged attack", "act", "secondary", "a", encode("ranged", item="none"))
            assert c is not None
            return Button(f"{lib.item[a.item].name} at {c.foes[a.target].name}", "act", "danger", "a",
                          encode("ranged", item=a.item, target=a.target + 1))
        if isinstance(a, Play):
            assert c is not None
            card = CARD_NAMES.get(a.card, a.card)
            if a.foe >= 0:
                return Button(f"{c.foes[a.foe].name}: attack with {card}", "act", "danger", "a",
                              encode("play", card=a.card, foe=a.foe + 1))
            return Button(f"{card} → {c.foes[a.target].name}", "act", "danger", "a",
                          encode("play", card=a.card, target=a.target + 1))
        if isinstance(a, Defend):
            card = CARD_NAMES.get(a.card, a.card)
            if a.foe >= 0 and c is not None:
                return Button(f"{c.foes[a.foe].name}: throw down {card}", "act", "secondary", "a",
                              encode("defend", card=a.card, foe=a.foe + 1))
            return Button(f"Throw down {card}", "act", "secondary", "a", encode("defend", card=a.card))
        if isinstance(a, Keep):
            kept = " + ".join(CARD_NAMES.get(k, k) for k in a.cards) or "nothing"
            who = f"{c.foes[a.foe].name}: " if c is not None and a.foe >= 0 else ""
            args: dict[str, str | int] = {"cards": ",".join(a.cards) or "none"}
            if a.foe >= 0:
                args["foe"] = a.foe + 1
            return Button(f"{who}keep {kept}", "act", "secondary", "a", encode("keep", **args))
        return None

    def _option_label(self, result: Result, option: str) -> str:
        state = result.state
        lib = self.lib
        if state.phase == "monster" and option in lib.monster:
            return lib.monster[option].name
        if state.phase == "fate" and option in lib.story:
            return lib.story[option].title
        if state.phase == "story" and state.draw is not None:
            outcome = lib.story[state.draw.cards[0]].outcome[int(option) - 1]
            return (outcome.choice or f"Option {option}")[:80]
        return option

    def _combat_prompt(self, result: Result, acting: list[int], users: list[int]) -> Prompt:
        state = result.state
        c = state.combat
        assert c is not None
        hero_seat = state.order[state.turn]
        step = c.step
        if step == "weapon" and acting == [hero_seat]:
            p = self._choices(result, hero_seat)
            p.users, p.text = users, "choose the weapon you fight with (it cannot be changed during the fight)"
            return p
        if step == "ranged" and acting == [hero_seat]:
            p = self._choices(result, hero_seat)
            p.users, p.text = users, "your one ranged attack before melee, if you want it"
            return p
        texts = {
            "hero_attack": "you attack: choose a card and a target",
            "foe_defend": "the opponent must throw a card down (no matching card to defend with)",
            "foe_attack": "play the opponents' attack cards",
            "hero_defend": "you have no matching card: choose the card to throw down",
            "keep": "the combat round is over: choose at most two cards to keep",
        }
        return Prompt(users=users, text=texts.get(step, "your move in the fight") + " — press **Your hand** "
                                                                                   "(only you see it).",
                      private="Your hand")

    def private(self, result: Result, seat: int) -> Telling | None:
        """What only this seat sees: the hero choice in setup, a hand of cards in a fight, with its buttons."""
        rules, state = result.rules, result.state
        if result.status != "active" or seat not in rules.to_act(state):
            return None
        view = result.view(seat)
        secret = view.get("secret", {})
        lib = self.lib
        if state.phase == "setup":
            me = state.heroes[seat]
            if not me.hero:
                menu = []
                for a in rules.legal(state, seat):
                    if isinstance(a, Pick):
                        h = lib.hero[a.hero]
                        side = h.side[a.side - 1]
                        menu.append((f"{h.name} · {side.name}: combat {side.combat}, init {side.initiative}, "
                                     f"life {side.life} · {lib.item[a.weapon].name}",
                                     encode("hero", hero=a.hero, side=a.side, weapon=a.weapon)))
                text = ("Choose your hero, the side of the sheet (its starting numbers) and one of the two starting "
                        "weapons of the hero's people:\n" + "\n".join(
                            f"**{h.name}** — {h.title}, starts in {lib.province[h.start].name}"
                            for h in lib.heroes if h.id not in {x.hero for x in state.heroes}))
                return Telling(text=text, pictures=[], prompt=Prompt(
                    users=[], text="", verb="act", option="a", choices=menu[:25], placeholder="Choose your hero…"))
            p = self._choices(result, seat)
            offer = [lib.item[i] for i in secret.get("offer", [])]
            text = (f"You have {me.gold} gold. Two item cards are turned over for you: "
                    + ", ".join(f"**{i.name}** ({i.price} gold)" for i in offer) + ". Buy one, or pass.")
            return Telling(text=text, pictures=[x for i in offer if (x := self.card("item", i.id)) is not None],
                           prompt=p)
        if state.phase == "combat":
            p = self._choices(result, seat)
            lines = []
            if secret.get("hand"):
                lines.append("**Your hand:** " + ", ".join(CARD_NAMES.get(k, k) for k in secret["hand"]))
            for foe, hand in (secret.get("foe_hands") or {}).items():
                name = state.combat.foes[int(foe)].name if state.combat else foe
                lines.append(f"**{name}'s hand** (you play it): " + ", ".join(CARD_NAMES.get(k, k) for k in hand))
            lines.append("Your choices are the buttons below; everyone sees each card as it is played.")
            return Telling(text="\n".join(lines), pictures=[], prompt=p)
        p = self._choices(result, seat)
        own = {"lair": "You stand in your monster's lair (only you know it): attack it now, or draw a story card "
                       "as usual.",
               "action": "Your choices this turn (a shrine's lore can be learned the turn after you end a turn at "
                         "the shrine)."}
        return Telling(text=own.get(state.phase, ASKS.get(state.phase, "Your move.")), pictures=[], prompt=p)

