"""The screens: the floor as a person sees it, on a terminal or as plain lines.

display.py  the controller's answer shown at the table: who won what, envy included
wins.py     the notable wins of a run, newest first
board.py    what a view shows, taken from the floor as a snapshot
live.py     the live terminal view (rich)
plain.py    plain lines for a log, a pipe or CI
"""
