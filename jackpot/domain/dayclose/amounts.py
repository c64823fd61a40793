"""How a statement writes amounts: exact money as whole cents and sub-cent units, and
percentages computed exactly (no floats)."""

from __future__ import annotations

from jackpot.domain.meter import UNITS_PER_CENT


def money(name: str, units: int) -> dict[str, int]:
    """An exact amount in units as whole cents and the sub-cent remainder (0..9,999 units)."""
    cents, rest = divmod(units, UNITS_PER_CENT)
    return {f"{name}_cents": cents, f"{name}_subcent_units": rest}


def percent(part: int, whole: int) -> str:
    """part / whole as a percentage with two decimals, rounded half away from zero, exactly."""
    if whole == 0:
        return ""
    sign = "-" if (part < 0) != (whole < 0) and part != 0 else ""
    hundredths, rest = divmod(abs(part) * 10_000, abs(whole))
    if rest * 2 >= abs(whole):
        hundredths += 1
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"
