"""The processes' entry points, together: the API's Flask app and gunicorn's module and settings
for it (`jackpot serve`), and the same for the sign process (`jackpot signs`). Each builds its
process from the composition root (jackpot.bootstrap); the command line is jackpot.cli."""
