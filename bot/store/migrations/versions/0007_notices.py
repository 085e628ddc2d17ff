"""The clock's notices: reminders, run-out lines, waits and seat offers owed to Discord like moves' tellings
(``bot/delivery/notices.py``), and the one offer message a seat has while it is offered.

``outbox_notice`` gets a row in the transaction that does what it tells (a clock's claim, a strike); ``key``
names the event so that a step tried again after a crash finds its row instead of writing a second.  The
seat's ``offer_channel_id``/``offer_message_id`` remember the offer posted for it, so that later strikes edit
that message and its closing replaces its button."""

import sqlalchemy as sa
from alembic import op

from bot.store.migrating import add_columns, drop_columns, optional, outbox_table, required

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    outbox_table("outbox_notice",
                 required("key", sa.String(80)),
                 required("kind", sa.String(16)),
                 required("after_seq", sa.Integer),
                 optional("seat", sa.Integer),
                 required("body", sa.Text, server_default="{}"),
                 optional("anchor", sa.BigInteger))
    op.create_index("ix_outbox_notice_game_key", "outbox_notice", ["game_id", "key"], unique=True)
    add_columns("seat", optional("offer_channel_id", sa.BigInteger), optional("offer_message_id", sa.BigInteger))


def downgrade() -> None:
    drop_columns("seat", "offer_message_id", "offer_channel_id")
    op.drop_index("ix_outbox_notice_delivered_at", table_name="outbox_notice")
    op.drop_index("ix_outbox_notice_game_key", table_name="outbox_notice")
    op.drop_table("outbox_notice")
