"""Helpers the tests share: servers, API clients, store snapshots, models."""
