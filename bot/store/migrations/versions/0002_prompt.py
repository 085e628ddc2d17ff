"""Each game's newest prompt (the one message whose controls are live) is kept with the game, so that after a
restart, or in another process, the next prompt still retires it."""

import sqlalchemy as sa

from bot.store.migrating import add_columns, drop_columns, optional

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    add_columns("game", optional("prompt_channel_id", sa.BigInteger), optional("prompt_message_id", sa.BigInteger))


def downgrade() -> None:
    drop_columns("game", "prompt_message_id", "prompt_channel_id")
