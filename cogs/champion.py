"""Champion of the Empire's own verbs.  Each acts on the game of the thread it is used in; the ruleset parses
the options (so a typed name works as well as the list's choice) and refuses anything illegal politely.
`/explore path:` and `/attack` are shared with Legend of Heroes and live in `cogs/verbs.py`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import game_here
from cogs.components import perform
from cogs.verbs import _game_choices

Choices = list[app_commands.Choice[str]]


async def _do(interaction: discord.Interaction, verb: str, **args: str | None) -> None:
    game_id = await game_here(interaction)
    await perform(interaction, game_id, verb=verb, args={k: v for k, v in args.items() if v})


class Champion(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="caravan", description="Champion: escort a caravan one province (+1 gold)")
    @app_commands.describe(to="The neighbouring province")
    async def caravan(self, interaction: discord.Interaction, to: str) -> None:
        await _do(interaction, "caravan", to=to)

    @caravan.autocomplete("to")
    async def caravan_to(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "caravan", "to", current)

    @app_commands.guild_only()
    @app_commands.command(name="voyage", description="Champion: sail across the Mare Internum to another port")
    @app_commands.describe(to="The port to sail to")
    async def voyage(self, interaction: discord.Interaction, to: str) -> None:
        await _do(interaction, "voyage", to=to)

    @voyage.autocomplete("to")
    async def voyage_to(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "voyage", "to", current)

    @app_commands.guild_only()
    @app_commands.command(name="commission", description="Champion: take local commissions (+2 XP or +2 gold)")
    async def commission(self, interaction: discord.Interaction, reward: str) -> None:
        await _do(interaction, "commission", reward=reward)

    @commission.autocomplete("reward")
    async def commission_reward(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "commission", "reward", current)

    @app_commands.guild_only()
    @app_commands.command(name="recuperate", description="Champion: rest — full life in a city, +2 elsewhere")
    async def recuperate(self, interaction: discord.Interaction) -> None:
        await _do(interaction, "recuperate")

    @app_commands.guild_only()
    @app_commands.command(name="lore", description="Champion: learn a secret shrine's lore (2 gold, +1 information)")
    async def lore(self, interaction: discord.Interaction) -> None:
        await _do(interaction, "lore")

    @app_commands.guild_only()
    @app_commands.command(name="develop", description="Champion: spend experience (initiative 4, combat 3, life 2)")
    async def develop(self, interaction: discord.Interaction, attribute: str) -> None:
        await _do(interaction, "develop", attribute=attribute)

    @develop.autocomplete("attribute")
    async def develop_attribute(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "develop", "attribute", current)

    @app_commands.guild_only()
    @app_commands.command(name="buy", description="Champion: buy an item on offer (setup offer or local market)")
    async def buy(self, interaction: discord.Interaction, item: str) -> None:
        await _do(interaction, "buy", item=item)

    @buy.autocomplete("item")
    async def buy_item(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "buy", "item", current)

    @app_commands.guild_only()
    @app_commands.command(name="pass", description="Champion: skip the item offer or the market; in the lair, draw a "
                                                    "story card instead")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await _do(interaction, "pass")

    @app_commands.guild_only()
    @app_commands.command(name="use", description="Champion: use a healing item (outside fights)")
    async def use(self, interaction: discord.Interaction, item: str) -> None:
        await _do(interaction, "use", item=item)

    @use.autocomplete("item")
    async def use_item(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "use", "item", current)

    @app_commands.guild_only()
    @app_commands.command(name="hero", description="Champion: choose your hero, the side of the sheet and a weapon")
    async def hero(self, interaction: discord.Interaction, hero: str, side: str, weapon: str) -> None:
        await _do(interaction, "hero", hero=hero, side=side, weapon=weapon)

    @hero.autocomplete("hero")
    async def hero_hero(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "hero", "hero", current)

    @hero.autocomplete("side")
    async def hero_side(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "hero", "side", current)

    @hero.autocomplete("weapon")
    async def hero_weapon(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "hero", "weapon", current)

    @app_commands.guild_only()
    @app_commands.command(name="choose", description="Champion: answer a story card, or pick a story card or monster")
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        await _do(interaction, "choose", option=option)

    @choose.autocomplete("option")
    async def choose_option(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "choose", "option", current)

    @app_commands.guild_only()
    @app_commands.command(name="drop", description="Champion: give up an item")
    async def drop(self, interaction: discord.Interaction, item: str) -> None:
        await _do(interaction, "drop", item=item)

    @drop.autocomplete("item")
    async def drop_item(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "drop", "item", current)

    @app_commands.guild_only()
    @app_commands.command(name="weapon", description="Champion: the weapon you fight with (before the fight)")
    async def weapon(self, interaction: discord.Interaction, item: str) -> None:
        await _do(interaction, "weapon", item=item)

    @weapon.autocomplete("item")
    async def weapon_item(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "weapon", "item", current)

    @app_commands.guild_only()
    @app_commands.command(name="ranged", description="Champion: your one ranged attack before melee")
    async def ranged(self, interaction: discord.Interaction, item: str, target: str | None = None) -> None:
        await _do(interaction, "ranged", item=item, target=target)

    @ranged.autocomplete("item")
    async def ranged_item(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "ranged", "item", current)

    @ranged.autocomplete("target")
    async def ranged_target(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "ranged", "target", current)

    @app_commands.guild_only()
    @app_commands.command(name="play", description="Champion, in a fight: attack with a combat card")
    @app_commands.describe(card="The card's type", target="Which opponent (the hero)",
                           foe="Which opponent you are playing for (whoever plays the opponents)")
    async def play(self, interaction: discord.Interaction, card: str, target: str | None = None,
                   foe: str | None = None) -> None:
        await _do(interaction, "play", card=card, target=target, foe=foe)

    @play.autocomplete("card")
    async def play_card(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "play", "card", current)

    @play.autocomplete("target")
    async def play_target(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "play", "target", current)

    @play.autocomplete("foe")
    async def play_foe(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "play", "foe", current)

    @app_commands.guild_only()
    @app_commands.command(name="defend", description="Champion, in a fight: with no matching card, the card you "
                                                      "throw down")
    async def defend(self, interaction: discord.Interaction, card: str, foe: str | None = None) -> None:
        await _do(interaction, "defend", card=card, foe=foe)

    @defend.autocomplete("card")
    async def defend_card(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "defend", "card", current)

    @app_commands.guild_only()
    @app_commands.command(name="keep", description="Champion, end of a combat round: keep at most two cards")
    @app_commands.describe(cards="e.g. head,leg — or none")
    async def keep(self, interaction: discord.Interaction, cards: str, foe: str | None = None) -> None:
        await _do(interaction, "keep", cards=cards, foe=foe)

    @keep.autocomplete("cards")
    async def keep_cards(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _game_choices(interaction, "keep", "cards", current)

    @app_commands.guild_only()
    @app_commands.command(name="hand", description="Your own secret choices right now (a hand of combat cards)")
    async def hand(self, interaction: discord.Interaction) -> None:
        from cogs.components import show_private

        await show_private(interaction, await game_here(interaction))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Champion(bot))
