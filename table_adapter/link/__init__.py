"""The link to the controller: a table's reports delivered durably, once, in order.

journal.py     the durable SQLite journal of reports until the controller acknowledges them
client.py      the controller's HTTP API (httpx); answers.py parses what it says
backoff.py     capped exponential backoff with jitter, honouring Retry-After
adapter.py     one table's link: journal, send in order, heartbeats, grace period
meters.py      the pools' public meters, read as a sign reads them
supervisor.py  the demo's floor supervisor, confirming its jackpots over the API
"""
