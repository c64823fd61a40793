"""Bearer API keys and the role each endpoint requires (docs/API.md)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import current_app, g, request

from jackpot import logs
from jackpot.bootstrap import Services
from jackpot.domain.auth import PEOPLES_ROLES, ApiKey, Role, a_tables_key
from jackpot.errors import ForbiddenError
from jackpot.services.payouts import Actor

F = TypeVar("F", bound=Callable[..., Any])


def services() -> Services:
    """The app's use cases (built by jackpot.bootstrap)."""
    return cast(Services, current_app.extensions["jackpot"])


def bearer_secret(header: str | None) -> str | None:
    """The secret of an `Authorization: Bearer <key>` header, or None."""
    scheme, _, secret = (header or "").partition(" ")
    return secret.strip() if scheme.lower() == "bearer" and secret.strip() else None


def bearer() -> str | None:
    return bearer_secret(request.headers.get("Authorization"))


def check_role(key: ApiKey, roles: tuple[Role, ...]) -> None:
    """403 when the key's role is not one of `roles`."""
    if key.role not in roles:
        allowed = ", ".join(r.value for r in roles)
        raise ForbiddenError(f"this needs the role {allowed}; the key is {key.role.value}")


def check_person(key: ApiKey) -> None:
    """403 for an operator's or auditor's key issued to nobody (made before the register of
    people): `jackpot people migrate` gives it to its person (D232)."""
    if key.role in PEOPLES_ROLES and not key.person:
        raise ForbiddenError(
            "this key is issued to no registered person: the controller's administrator "
            "gives it to its person (jackpot people migrate) or issues a new one"
        )


def require(*roles: Role, rechecked_by_store: bool = False) -> Callable[[F], F]:
    """401 without a valid key; 403 when its role is not one of `roles`. With
    `rechecked_by_store` the store refuses a revoked key itself, so no lookup is repeated."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key = services().credentials.authenticate(bearer(), rechecked_by_store)
            logs.tag_request(key=key.key_id)
            check_role(key, roles)
            check_person(key)
            g.api_key = key
            return view(*args, **kwargs)

        return cast(F, wrapper)

    return decorate


def key_if_sent(*roles: Role) -> ApiKey | None:
    """The request's key when it sends a bearer key (401 when it is unknown or revoked, 403
    when its role is not one of `roles`); None when it sends none: an open endpoint whose
    answer a key widens (/metrics)."""
    secret = bearer()
    if secret is None:
        return None
    key = services().credentials.authenticate(secret)
    logs.tag_request(key=key.key_id)
    check_role(key, roles)
    check_person(key)
    return key


def current_key() -> ApiKey:
    return cast(ApiKey, g.api_key)


def current_actor() -> Actor:
    """The key acting and the person it is issued to (a device's key: the key itself)."""
    key = current_key()
    if not key.person:  # a device's key: never a person, whatever its free-text label says
        if a_tables_key(key.who) and key.label:  # shown by its label, marked a device (D288)
            return Actor(key.who, f"{key.label} (table key)")
        return Actor(key.who, key.who)
    person = services().people.get(key.person)
    if person is None:  # the register lost them: nobody acts in their name
        raise ForbiddenError(f"the person {key.person} this key is issued to is not registered")
    return Actor(key.who, person.shown, person.id, person.name)
