"""Several processes on one database: each process's lease on its Discord shards (``shard_lease``, with a
heartbeat, so a crashed process's shards come free), and a claim on each game's background work
(``game.claimed_by`` / ``claimed_until``, so exactly one process sweeps a game's clock or timeout)."""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.create_table(
        "shard_lease",
        sa.Column("shard", sa.Integer, primary_key=True, autoincrement=False),  # -1: every shard
        sa.Column("shard_count", sa.Integer, nullable=True),  # None: the process lets Discord decide
        sa.Column("owner", sa.String(200), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("heartbeat_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(200), nullable=True))
        batch.add_column(sa.Column("claimed_until", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("claimed_until")
        batch.drop_column("claimed_by")
    op.drop_table("shard_lease")
