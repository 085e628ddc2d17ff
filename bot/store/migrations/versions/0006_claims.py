"""Several processes on one database: each process's lease on its Discord shards (``shard_lease``, with a
heartbeat, so a crashed process's shards come free), and a claim on each game's background work
(``game.claimed_by`` / ``claimed_until``, so exactly one process sweeps a game's clock or timeout)."""

import sqlalchemy as sa
from alembic import op

from bot.store.migrating import add_columns, drop_columns, given_key, optional, required

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.create_table(
        "shard_lease",
        given_key("shard", sa.Integer),  # -1: every shard
        optional("shard_count", sa.Integer),  # None: the process lets Discord decide
        required("owner", sa.String(200)),
        required("started_at", sa.Float),
        required("heartbeat_at", sa.Float),
        required("expires_at", sa.Float),
    )
    add_columns("game", optional("claimed_by", sa.String(200)), optional("claimed_until", sa.Float))


def downgrade() -> None:
    drop_columns("game", "claimed_until", "claimed_by")
    op.drop_table("shard_lease")
