"""The clock's notices: reminders, run-out lines, waits and seat offers owed to Discord like moves' tellings
(``bot/delivery/notices.py``), and the one offer message a seat has while it is offered.

``outbox_notice`` gets a row in the transaction that does what it tells (a clock's claim, a strike); ``key``
names the event so that a step tried again after a crash finds its row instead of writing a second.  The
seat's ``offer_channel_id``/``offer_message_id`` remember the offer posted for it, so that later strikes edit
that message and its closing replaces its button."""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "outbox_notice",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("after_seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("body", sa.Text, nullable=False, server_default="{}"),
        sa.Column("anchor", sa.BigInteger, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False, server_default="0"),
        sa.Column("delivered_at", sa.Float, nullable=True),
        sa.Column("message_id", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_outbox_notice_game_key", "outbox_notice", ["game_id", "key"], unique=True)
    op.create_index("ix_outbox_notice_delivered_at", "outbox_notice", ["delivered_at"])
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("offer_channel_id", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("offer_message_id", sa.BigInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("offer_message_id")
        batch.drop_column("offer_channel_id")
    op.drop_index("ix_outbox_notice_delivered_at", table_name="outbox_notice")
    op.drop_index("ix_outbox_notice_game_key", table_name="outbox_notice")
    op.drop_table("outbox_notice")
