"""`jackpot payouts list|history|show|record|confirm|approve|dispute|void|approve-void|
refuse-void`: hand pays over the HTTP API.

`parser` declares the commands; `reads` lists, searches and shows payouts; `steps` takes a
verification step on one; `detail` says a payout's fields in a person's words.
"""

from __future__ import annotations

from jackpot.cli.payouts.detail import payout_detail, pool_of, won_by
from jackpot.cli.payouts.parser import register

__all__ = ["payout_detail", "pool_of", "register", "won_by"]
