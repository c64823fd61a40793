"""The table's side: four rooms and a door.

    game/     the game: shoe, engine, profiles, bets, settlement, players, strategies
    link/     the link to the controller: adapter, client, journal, backoff, answers, meters,
              supervisor
    floor/    the floor: simulator, tally, Monte Carlo, the demo
    screens/  the screens: board, live, display, plain, wins
    cli/      the door: the `war-floor` command
    errors.py the table side's errors, as one tree

Each room imports only the rooms below it (cli > screens > floor > link > game), and the table
side takes only jackpot.domain from the controller, apart from one module (pyproject.toml,
the import contracts).
"""
