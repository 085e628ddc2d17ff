"""What long games by message need: the turn clock and its reminder, pauses, each seat's strikes and vacation,
the result of a finished game (for stats), players' notification choice and each server's defaults."""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("result", sa.Text, nullable=True))  # JSON: winners, scores, summary
        batch.add_column(sa.Column("finished_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("clock_deadline", sa.Float, nullable=True))  # when the turn clock runs out
        batch.add_column(sa.Column("remind_at", sa.Float, nullable=True))  # when its reminder is due (once)
        batch.add_column(sa.Column("wake_at", sa.Float, nullable=True))  # the sooner of the two: what sweeps read
        batch.add_column(sa.Column("paused", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("nudged_at", sa.Float, nullable=True))
        batch.create_index("ix_game_wake_at", ["wake_at"])
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("strikes", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("vacation_until", sa.Float, nullable=True))
        batch.add_column(sa.Column("vacation_used", sa.Float, nullable=False, server_default="0"))
    op.create_table(
        "player_pref",
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("notify", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "guild_setting",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("clock", sa.String, nullable=True),
        sa.Column("policy", sa.String, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("guild_setting")
    op.drop_table("player_pref")
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("vacation_used")
        batch.drop_column("vacation_until")
        batch.drop_column("strikes")
    with op.batch_alter_table("game") as batch:
        batch.drop_index("ix_game_wake_at")
        for name in ("nudged_at", "paused", "wake_at", "remind_at", "clock_deadline", "finished_at", "result"):
            batch.drop_column(name)
