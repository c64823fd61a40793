"""The floor: many tables dealing into one controller, and what a run adds up to.

simulator.py   Floor: N tables dealing M rounds each through their adapters
tally.py       what a run dealt and what the controller answered; the JSON summary
montecarlo.py  vectorised side-bet dealing for paytable checks (needs numpy)
demo.py        the DEMO floor: its pool, paytable and plan
"""
