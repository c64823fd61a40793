"""The `jackpot` command: serve, worker, keys, math."""
