"""Controller for linked Casino War progressive jackpots and their envy bonus."""

__version__ = "0.1.0"
