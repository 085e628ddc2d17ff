"""What long games by message need: the turn clock and its reminder, pauses, each seat's strikes and vacation,
the result of a finished game (for stats), players' notification choice and each server's defaults."""

import sqlalchemy as sa
from alembic import op

from bot.store.migrating import add_columns, drop_columns, given_key, moment, optional, required

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(optional("result", sa.Text))  # JSON: winners, scores, summary
        batch.add_column(optional("finished_at", sa.Float))
        batch.add_column(optional("clock_deadline", sa.Float))  # when the turn clock runs out
        batch.add_column(optional("remind_at", sa.Float))  # when its reminder is due (once)
        batch.add_column(optional("wake_at", sa.Float))  # the sooner of the two: what sweeps read
        batch.add_column(required("paused", sa.Integer, server_default="0"))
        batch.add_column(optional("nudged_at", sa.Float))
        batch.create_index("ix_game_wake_at", ["wake_at"])
    add_columns(
        "seat",
        required("strikes", sa.Integer, server_default="0"),
        optional("vacation_until", sa.Float),
        moment("vacation_used"),
    )
    op.create_table(
        "player_pref",
        given_key("user_id", sa.BigInteger),
        required("notify", sa.Integer, server_default="0"),
    )
    op.create_table(
        "guild_setting",
        given_key("guild_id", sa.BigInteger),
        optional("clock", sa.String),
        optional("policy", sa.String),
    )


def downgrade() -> None:
    op.drop_table("guild_setting")
    op.drop_table("player_pref")
    drop_columns("seat", "vacation_used", "vacation_until", "strikes")
    with op.batch_alter_table("game") as batch:
        batch.drop_index("ix_game_wake_at")
        for name in ("nudged_at", "paused", "wake_at", "remind_at", "clock_deadline", "finished_at", "result"):
            batch.drop_column(name)
