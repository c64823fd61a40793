"""The use cases, by area: the only place the domain and the store meet.

credentials  API keys: create, authenticate (cached), revoke
pools        pools, their public read, adjustments, a linked group's game
tables       tables, liveness, heartbeats, the linked-table rule
rounds       round reports (the hot path) and their stored results
payouts      jackpots awaiting verification: list, confirm, dispute
reports      the journal for accounting and background reconciliation
linkgroups   the one router: a pool's, a table's or a payout's link group and its use cases
fanout       what every link group holds, merged; placement: a new pool's or table's group

No use case builds a Redis key or reads a script's status: the stores return domain values
and raise domain errors.
"""
