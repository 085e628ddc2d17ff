"""The outbox: every move's public telling is owed to its thread until Discord has accepted it, and old
prompts whose controls are still to be taken away are listed until they have been.

``outbox`` gets one row in the same transaction as each move (and the start), keyed by the game and the
version the move made; the row keeps the state the move was made in, so its telling can be drawn again after
a crash (the move is applied to it once more).  ``delivered_at`` and ``message_id`` are set once Discord
accepted the post.  ``stale_prompt`` lists messages whose controls must be removed (written in the
transaction that makes a newer prompt live)."""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False, server_default="move"),
        sa.Column("state", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False, server_default="0"),
        sa.Column("delivered_at", sa.Float, nullable=True),
        sa.Column("message_id", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_outbox_game_seq", "outbox", ["game_id", "seq"], unique=True)
    op.create_index("ix_outbox_delivered_at", "outbox", ["delivered_at"])
    op.create_table(
        "stale_prompt",
        sa.Column("message_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("stale_prompt")
    op.drop_index("ix_outbox_delivered_at", table_name="outbox")
    op.drop_index("ix_outbox_game_seq", table_name="outbox")
    op.drop_table("outbox")
