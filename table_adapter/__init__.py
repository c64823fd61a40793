"""The table's side: game engine, shoe, rule profiles (the client and floor simulator come later).

Layers, each a small module:

    profiles.py    jurisdiction rules as data (cut, burns, war layout, base-game odds)
    settlement.py  the base game's pays in exact integer cents
    shoe.py        6-8 decks: shuffle, cut, reshuffle marker, burns, face-up irregularities
    strategies.py  war / surrender / mix decisions and the decision timer
    bets.py        what a player puts on the felt, checked against the profile
    records.py     the finished round: every card drawn, settlements, side-bet outcomes
    report.py      the controller's round report (API.md) built from a record
    engine.py      Table: deals rounds for a live or a Stadium table
    montecarlo.py  vectorised side-bet dealing for paytable checks (needs numpy)
"""
