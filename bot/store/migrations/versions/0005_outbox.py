"""The outbox: every move's public telling is owed to its thread until Discord has accepted it, and old
prompts whose controls are still to be taken away are listed until they have been.

``outbox`` gets one row in the same transaction as each move (and the start), keyed by the game and the
version the move made; the row keeps the state the move was made in, so its telling can be drawn again after
a crash (the move is applied to it once more).  ``delivered_at`` and ``message_id`` are set once Discord
accepted the post.  ``stale_prompt`` lists messages whose controls must be removed (written in the
transaction that makes a newer prompt live)."""

import sqlalchemy as sa
from alembic import op

from bot.store.migrating import given_key, moment, optional, outbox_table, required

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    outbox_table("outbox",
                 required("seq", sa.Integer),
                 required("kind", sa.String(16), server_default="move"),
                 optional("state", sa.Text))
    op.create_index("ix_outbox_game_seq", "outbox", ["game_id", "seq"], unique=True)
    op.create_table(
        "stale_prompt",
        given_key("message_id", sa.BigInteger),
        required("channel_id", sa.BigInteger),
        required("game_id", sa.Integer),
        moment("created_at"),
    )


def downgrade() -> None:
    op.drop_table("stale_prompt")
    op.drop_index("ix_outbox_delivered_at", table_name="outbox")
    op.drop_index("ix_outbox_game_seq", table_name="outbox")
    op.drop_table("outbox")
