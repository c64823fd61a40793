"""Redis: every key name, every script, typed wrappers returning domain values."""
