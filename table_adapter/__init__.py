"""The table's side: the game engine, the durable link to the controller, the floor simulator.

Layers, each a small module:

    profiles.py    jurisdiction rules as data (cut, burns, war layout, base-game odds)
    settlement.py  the base game's pays in exact integer cents
    shoe.py        6-8 decks: shuffle, cut, reshuffle marker, burns, face-up irregularities
    strategies.py  war / surrender / mix decisions and the decision timer
    bets.py        what a player puts on the felt, checked against the profile
    records.py     the finished round: every card drawn, settlements, side-bet outcomes
    report.py      the controller's round report (docs/API.md) built from a record
    engine.py      Table: deals rounds for a live or a Stadium table
    montecarlo.py  vectorised side-bet dealing for paytable checks (needs numpy)
    journal.py     the durable SQLite journal of reports until the controller acknowledges them
    client.py      the controller's HTTP API (httpx); answers.py parses what it says
    backoff.py     capped exponential backoff with jitter, honouring Retry-After
    adapter.py     one table's link: journal, send in order, heartbeats, grace period
    display.py     the controller's answer shown at the table: who won what, envy included
    players.py     simulated players and their bets
    simulator.py   a floor of tables against a controller; tally.py sums the run
    progress.py    the terminal progress bar
    cli.py         the `war-floor` command
"""
