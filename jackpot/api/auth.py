"""Bearer API keys and the role each endpoint requires (API.md)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import current_app, g, request

from jackpot.domain.auth import ApiKey, Role
from jackpot.errors import ForbiddenError
from jackpot.services import Controller

F = TypeVar("F", bound=Callable[..., Any])


def controller() -> Controller:
    return cast(Controller, current_app.extensions["jackpot"])


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, secret = header.partition(" ")
    return secret.strip() if scheme.lower() == "bearer" and secret.strip() else None


def require(*roles: Role, rechecked_by_store: bool = False) -> Callable[[F], F]:
    """401 without a valid key; 403 when its role is not one of `roles`. With
    `rechecked_by_store` the store refuses a revoked key itself, so no lookup is repeated."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key = controller().authenticate(bearer(), rechecked_by_store)
            if key.role not in roles:
                allowed = ", ".join(r.value for r in roles)
                raise ForbiddenError(f"this needs the role {allowed}; the key is {key.role.value}")
            g.api_key = key
            return view(*args, **kwargs)

        return cast(F, wrapper)

    return decorate


def current_key() -> ApiKey:
    return cast(ApiKey, g.api_key)
