"""The link to the controller: a table's reports delivered durably, once, in order.

journal/       the durable SQLite journal of reports until the controller acknowledges them
client.py      the controller's HTTP API (httpx); answers.py parses what it says
backoff.py     capped exponential backoff with jitter, honouring Retry-After
adapter.py     one table's link, the dealer's side: deal, journal first, void, requeue, status
sender.py      the sender's side: send in order, heartbeats, day counts, grace period
status.py      the link's settings, state and snapshot
daycounts.py   what an acknowledgement adds to the table's own day counts
meters.py      the pools' public meters, read as a sign reads them
supervisor.py  the demo's floor supervisor, confirming its jackpots over the API
"""
