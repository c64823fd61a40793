"""The archive: every journal entry and round result, append-only, in an SQL database."""
