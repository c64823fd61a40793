"""The OpenAPI 3.1 document of the whole v1 API, served at /openapi.json.

tests/api/test_openapi.py holds it to the app: every route is documented and every
documented operation exists, with the roles the app enforces. The request bodies' schemas
are the domain's declarations (jackpot.domain.fields), the ones the validators check with;
tests/unit/test_request_schemas.py holds the two together. Each area's paths are in the
module named like its blueprint (pools.py for /v1/pools, ...); the component schemas in
schemas.py.
"""

from __future__ import annotations

import copy
from typing import Any

from jackpot import __version__
from jackpot.api.openapi import accounting, pages, payouts, people, pools, rounds, signs, tables
from jackpot.api.openapi.schemas import SCHEMAS

_AREAS = (pages, pools, signs, tables, rounds, payouts, people, accounting)


def document() -> dict[str, Any]:
    """The whole document, a new copy each call."""
    paths: dict[str, Any] = {}
    for area in _AREAS:
        paths.update(area.PATHS)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Casino War progressive jackpot controller",
            "version": __version__,
            "description": (
                "Money is whole cents as JSON integers; rates are basis points. An integer is "
                "written without a fraction or an exponent: 5.0 and 5e0 are refused. A body is "
                "a JSON object without repeated keys, and fields the schema does not name are "
                "refused."
            ),
        },
        "paths": copy.deepcopy(paths),
        "components": {
            "schemas": copy.deepcopy(SCHEMAS),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
