"""The game: faithful Casino War for every rule profile, with no I/O.

profiles.py    jurisdiction rules as data (cut, burns, war layout, base-game odds)
shoe.py        6-8 decks: shuffle, cut, reshuffle marker, burns, face-up irregularities
strategies.py  war / surrender / mix decisions and the decision timer
bets.py        what a player puts on the felt, checked against the profile
players.py     simulated players and their bets
settlement.py  the base game's pays in exact integer cents
records.py     the finished round: every card drawn, settlements, side-bet outcomes
report.py      the controller's round report (docs/API.md) built from a record
deal.py        the cards out of the shoe: the original deal (dealer errors by rule), the war
engine.py      Table: deals rounds for a live or a Stadium table
"""
