"""Reading one JACKPOT_* variable of a kind: a value that cannot be used is a SettingsError
naming the variable."""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


class SettingsError(ValueError):
    """A JACKPOT_* variable holds a value the controller cannot use; the message names it."""


@dataclass(frozen=True, slots=True)
class Reader:
    """Reads one variable at a time; a value it cannot use is a SettingsError naming it."""

    env: Mapping[str, str]

    def text(self, name: str) -> str | None:
        """The value, or None when unset or blank (blank means "the default")."""
        raw = self.env.get(name, "").strip()
        return raw or None

    def retired(self, name: str, why: str) -> None:
        """Refuse a variable this version no longer reads, rather than ignore it."""
        if self.text(name) is not None:
            raise SettingsError(f"{name} is no longer read ({why}); unset it")

    def integer(self, name: str, default: int, low: int, high: int | None = None) -> int:
        raw = self.text(name)
        if raw is None:
            return default
        try:
            value = int(raw)
        except ValueError:
            raise SettingsError(f"{name}={raw!r} is not a whole number") from None
        if value < low:
            raise SettingsError(f"{name}={raw!r} must be at least {low}")
        if high is not None and value > high:
            raise SettingsError(f"{name}={raw!r} must be at most {high}")
        return value

    def seconds(self, name: str, default: float, zero: bool) -> float:
        raw = self.text(name)
        if raw is None:
            return default
        try:
            value = float(raw)
        except ValueError:
            raise SettingsError(f"{name}={raw!r} is not a number of seconds") from None
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            bound = "0 or more" if zero else "more than 0"
            raise SettingsError(f"{name}={raw!r} must be a finite number of seconds, {bound}")
        return value

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        raw = self.text(name)
        if raw is None:
            return default
        if raw.lower() not in choices:
            raise SettingsError(f"{name}={raw!r} must be one of {', '.join(choices)}")
        return raw.lower()

    def time_of_day(self, name: str, default: str) -> str:
        raw = self.text(name)
        if raw is None:
            return default
        try:
            return time.fromisoformat(raw).strftime("%H:%M")
        except ValueError:
            raise SettingsError(f"{name}={raw!r} is not a time of day such as 06:00") from None

    def zone(self, name: str, default: str) -> str:
        raw = self.text(name)
        if raw is None:
            return default
        try:
            ZoneInfo(raw)
        except (ValueError, ZoneInfoNotFoundError):
            raise SettingsError(f"{name}={raw!r} is not an IANA time zone") from None
        return raw

    def networks(self, name: str, default: tuple[str, ...]) -> tuple[str, ...]:
        """a.b.c.d[/n] or an IPv6 address[/n], comma-separated; `none` for none."""
        raw = self.text(name)
        if raw is None:
            return default
        if raw.lower() == "none":
            return ()
        found = []
        for part in raw.split(","):
            try:
                found.append(str(ipaddress.ip_network(part.strip(), strict=False)))
            except ValueError:
                raise SettingsError(
                    f"{name}={raw!r} holds {part.strip()!r}, not an address or network such as "
                    "10.0.0.5 or 10.0.0.0/24 (or `none` for no proxy)"
                ) from None
        return tuple(found)

    def sentinels(self, name: str) -> str | None:
        """host:port[,host:port...]: each part an address a client can reach."""
        raw = self.text(name)
        if raw is None:
            return None
        for part in raw.split(","):
            host, _, port = part.strip().rpartition(":")
            if not host or not port.isdigit() or not 0 < int(port) < 65536:
                raise SettingsError(f"{name}={raw!r} must be host:port[,host:port...]")
        return ",".join(p.strip() for p in raw.split(","))

    def namespace(self, name: str, default: str) -> str:
        raw = self.text(name)
        if raw is None:
            return default
        # it goes between the braces of every key's {hash tag}
        # ... followed by ':<group>' in a link group's: a ':' of its own would be ambiguous
        if any(c in raw for c in "{}:") or not raw.isprintable() or " " in raw:
            raise SettingsError(f"{name}={raw!r} may not contain braces, colons or blanks")
        return raw
