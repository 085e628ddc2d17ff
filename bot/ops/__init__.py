"""Running Tabula: settings (``config``), the health and metrics port, backup and restore, stopping cleanly,
several processes and their shards, verifying an exported log, and the loopback switch the tests use."""
