"""Hidden triggers of the levels no hand wins (issue 28): drawn, committed, revealed, checked.

A **must-hit-by** level advertises a ceiling ("Must hit by $5,000") and hides where below it
the meter will be won: its trigger, drawn at each reset uniformly over the whole cents above
the reset up to the ceiling. A **mystery** level hides a trigger drawn over a configured range
and advertises nothing of it. The contribution that makes the meter reach the trigger wins it.

So that nobody has to trust the controller that the trigger was fixed before play and not
chosen afterwards, each draw is **committed**: the controller publishes
SHA-256("jackpot-trigger-v1", pool, trigger, salt), never the trigger; at the hit it
reveals the trigger and the 128-bit salt. Anyone holding the published commitment checks the
reveal (`revealed`) and, from the journal's contributions, that the meter reached the trigger
exactly on the winning contribution and on no earlier one (`crossing`). The salt keeps a
commitment from being opened by trying every cent of the range, and makes every draw's
commitment its own; the journal entry that arms a draw records which draw it is.

Triggers are drawn in Python from the operating system's CSPRNG (`secrets`), never in Lua and
never from a seed anyone could guess; tests pass a generator of their own.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from random import Random

from jackpot.domain.meter import UNITS_PER_CENT
from jackpot.domain.triggersteps import Stretch

COMMITMENT_TAG = "jackpot-trigger-v1"
SALT_BYTES = 16


@dataclass(frozen=True, slots=True)
class Trigger:
    """One draw of a level's trigger: where the meter will be won (whole cents), the salt that
    hides it, and the commitment published while it is hidden."""

    pool: str
    cents: int
    salt: str  # hex
    commitment: str  # hex

    low: int = 0  # the whole cents it was drawn from, both ends included
    high: int = 0

    @property
    def units(self) -> int:
        return self.cents * UNITS_PER_CENT

    def offer(self) -> dict[str, int | str]:
        """The draw as the scripts take it (settle_round.lua, put_pool.lua): armed there only
        if it is wanted, and only if drawn from the range they expect."""
        return {
            "cents": self.cents,
            "salt": self.salt,
            "commitment": self.commitment,
            "low": self.low,
            "high": self.high,
        }


def draw_trigger(pool: str, span: tuple[int, int], rng: Random | None = None) -> Trigger:
    """A trigger drawn uniformly over `span` (whole cents, both ends included) with a fresh
    salt, and its commitment. `rng`: the tests' own generator; otherwise the system's CSPRNG."""
    low, high = span
    if high < low:
        raise ValueError("an empty range")
    source = rng if rng is not None else secrets.SystemRandom()  # os.urandom underneath
    cents = low + source.randrange(high - low + 1)
    salt = source.randbytes(SALT_BYTES).hex()
    return Trigger(pool, cents, salt, commitment(pool, cents, salt), low, high)


def commitment(pool: str, cents: int, salt: str) -> str:
    """SHA-256 over the tag, the pool, the trigger and the salt, each length-prefixed so no
    two different draws hash alike."""
    digest = hashlib.sha256()
    for part in (COMMITMENT_TAG, pool, str(cents), salt):
        data = part.encode()
        digest.update(f"{len(data)}:".encode() + data)
    return digest.hexdigest()


def revealed(published: str, pool: str, cents: int, salt: str) -> bool:
    """Whether a revealed trigger and salt open the commitment published for that draw."""
    return hmac.compare_digest(published, commitment(pool, cents, salt))


def crossing(
    before_units: int, steps: Iterable[tuple[int, bool]], trigger_units: int
) -> int | None:
    """The index of the bet that wins the level: the first that can win (qualifies) after
    whose contribution the meter, from `before_units`, has reached the trigger (None when
    none does; 0-based). `steps`: each bet's contribution, units, and whether it qualifies."""
    meter = before_units
    for i, (units, qualifies) in enumerate(steps):
        meter += units
        if qualifies and meter >= trigger_units:
            return i
    return None


@dataclass(frozen=True, slots=True)
class Step:
    """One bet's contribution to a level with a hidden trigger, as its journal names it."""

    units: int
    meter: int  # the meter after it, units
    could_win: bool  # it qualified, and the level was not won before it in its round


@dataclass(slots=True)
class TriggerAudit:
    """A pool journal's hidden triggers, checked as its entries are walked in order (jackpot
    verify): each draw's range lies above the meter it was armed at; each reveal opens the
    commitment armed (and published) before play; the winning bet is the first that could
    win after whose contribution the meter had reached the trigger, and its jackpot the
    meter there; no bet before it since the draw that could have won it reached it; each
    stretch of contributions adds up to the meter it records. A bet could win if it
    qualified, and not in the rest of the round whose hit armed the draw (a level is won
    once a round).

    A walk of the whole journal (`complete`) reports a reveal, or a bet's step, of a trigger
    it never saw armed. One that starts mid-journal (`jackpot verify --since`) checks a reveal
    that it did not see armed against the commitment its own entry names, and the crossing
    only from the next draw it sees."""

    pool: str
    complete: bool = True
    problems: list[tuple[int, str]] = field(default_factory=list)
    meter: int | None = None  # units, the last balance walked
    armed: tuple[str, str, int] | None = None  # (commitment, draw, seq armed at)
    span: tuple[int, int] = (0, 0)  # the whole cents the armed draw was drawn from
    # the level's terms as its newest configuration entry set them (None: none seen yet)
    rate_bp: int | None = None
    qualifying_wager: int = 0
    armed_round: tuple[str, str] | None = None  # the round whose hit armed it
    peak: int = -1  # the highest meter a bet that could have won reached, but the newest's
    last: Step | None = None  # the newest bet's contribution since the draw
    # each contribution's bets' steps, for their round's record to account for (D272)
    stretches: list[Stretch] = field(default_factory=list)

    def feed(self, seq: int, f: Mapping[str, str]) -> None:
        kind = f.get("type")
        if kind == "trigger_armed":
            self._arm(seq, f)
        elif kind == "contribution":
            self._contribution(seq, f)
        elif kind in ("created", "config"):  # a new rate applies from the next round
            self.rate_bp = int(f.get("rate_bp") or 0)
            self.qualifying_wager = int(f.get("qualifying_wager") or 0)
        elif f.get("trigger_cents") is not None:  # a hit, trigger_revealed, retiring
            self._reveal(seq, f, won=kind == "hit")
        value = f.get("value_units")
        if value is not None:
            self.meter = int(value)

    def _arm(self, seq: int, f: Mapping[str, str]) -> None:
        draw = f.get("draw")
        if self.armed is not None:
            self._problem(seq, f"draw {draw} armed while draw {self.armed[1]} was never revealed")
        low, high = int(f.get("low") or 0), int(f.get("high") or 0)
        self._check_drawn_above(seq, draw, (low, high), int(f.get("value_units") or 0))
        self.armed, self.span = (str(f.get("commitment")), str(draw), seq), (low, high)
        self.armed_round = _arming_round(f)
        self.peak, self.last = -1, None

    def _check_drawn_above(
        self, seq: int, draw: str | None, span: tuple[int, int], value: int
    ) -> None:
        """A draw's range lies wholly above the meter it was armed at, and is not empty."""
        low, high = span
        if low * UNITS_PER_CENT <= value or low > high:
            self._problem(
                seq,
                f"draw {draw} was drawn from {low} to {high} cents, not above the meter it "
                f"was armed at ({value} units)",
            )

    def _contribution(self, seq: int, f: Mapping[str, str]) -> None:
        raw = f.get("steps")
        if raw is None:
            self._check_steps_unnamed(seq, f)
            return
        read = _steps_and_marks(str(raw), str(f.get("qualifying") or ""))
        if read is None:
            self._problem(seq, "its bets' steps and qualifying marks are not one a bet")
            return
        steps, marks = read
        won_here = (str(f.get("table")), str(f.get("round"))) == self.armed_round
        self.stretches.append(self._stretch(seq, f, steps, marks, won_here))
        if self.armed is None and self.complete:
            self._problem(seq, "it names bets' steps toward a trigger never armed")
        self._wagers(seq, f, steps, marks, won_here)
        self._walk_meter(seq, f, steps, marks, won_here)

    def _check_steps_unnamed(self, seq: int, f: Mapping[str, str]) -> None:
        """A contribution naming no bets' steps: wrong while a draw is armed and bets fed it."""
        if self.armed is not None and int(f.get("wagered") or 0) > 0:
            self._problem(
                seq,
                "a contribution to a level with a hidden trigger does not name its bets' steps",
            )

    def _stretch(
        self, seq: int, f: Mapping[str, str], steps: list[int], marks: str, won_here: bool
    ) -> Stretch:
        """The contribution's bets' steps, kept for their round's record to account for, with
        the level's terms in force when it was made."""
        return Stretch(
            seq,
            (str(f.get("table")), str(f.get("round")), str(f.get("ts") or "")),
            tuple(steps),
            marks,
            won_here,
            self.rate_bp,
            self.qualifying_wager,
            int(f.get("overflow_units") or 0),
        )

    def _walk_meter(
        self, seq: int, f: Mapping[str, str], steps: list[int], marks: str, won_here: bool
    ) -> None:
        """The meter moved bet by bet since the draw: the peak a bet that could win reached,
        and the contribution's steps adding up to the meter it records."""
        if self.meter is None or self.armed is None:  # a walk begun mid-journal: not yet
            return
        meter = self._take_steps(self.meter, steps, marks, won_here)
        if meter != int(f.get("value_units") or 0):
            self._problem(seq, "its bets' steps do not add up to the meter it records")

    def _take_steps(self, meter: int, steps: list[int], marks: str, won_here: bool) -> int:
        """The meter after the bets' steps from `meter`; the newest bet's step is kept, and
        the one before it counts toward the peak if it could win."""
        for units, mark in zip(steps, marks, strict=True):
            if self.last is not None and self.last.could_win:
                self.peak = max(self.peak, self.last.meter)
            meter += units
            self.last = Step(units, meter, mark == "1" and not won_here)
        return meter

    def _wagers(
        self, seq: int, f: Mapping[str, str], steps: list[int], marks: str, won_here: bool
    ) -> None:
        """Only a bet that can win the level moves its meter (D228): a bet marked as below
        the qualifying wager, and every bet in the rest of the round that won it, put nothing
        on it. The others' steps are their wagers at the level's rate, each at least a
        qualifying wager's, exactly where the cap took nothing."""
        fed_unable = _fed_unable(steps, marks, won_here)
        if fed_unable is not None:
            self._problem(seq, fed_unable)
        elif self._off_rate(f, steps, marks, won_here):
            self._problem(seq, "its bets' steps are not their wagers at the level's rate")

    def _off_rate(self, f: Mapping[str, str], steps: list[int], marks: str, won_here: bool) -> bool:
        """Whether the steps of the bets that could win are not their wagers at the level's
        rate; not checked while the rate is unknown or the cap took part of them."""
        rate = self.rate_bp
        if not rate or int(f.get("overflow_units") or 0) != 0:
            return False
        fed = [u for u, m in zip(steps, marks, strict=True) if m == "1" and not won_here]
        return not _at_rate(fed, rate, self.qualifying_wager, int(f.get("wagered") or 0))

    def _reveal(self, seq: int, f: Mapping[str, str], won: bool) -> None:
        cents, salt = int(f["trigger_cents"]), str(f.get("salt"))
        named, draw = str(f.get("commitment")), str(f.get("draw"))
        if not revealed(named, self.pool, cents, salt):
            self._problem(
                seq,
                f"the trigger revealed ({cents} cents) and its salt do not open draw {draw}'s "
                "commitment",
            )
        if self.armed is None and self.complete:
            self._problem(seq, f"it reveals draw {draw}, which no entry armed")
        if self.armed is not None:
            self._reveal_armed(seq, f, won, cents, (named, draw), self.armed)
        self.armed, self.armed_round, self.peak, self.last = None, None, -1, None

    def _reveal_armed(
        self,
        seq: int,
        f: Mapping[str, str],
        won: bool,
        cents: int,
        named: tuple[str, str],
        armed: tuple[str, str, int],
    ) -> None:
        """A reveal of the draw this walk saw armed: within the range it was drawn from, the
        commitment and draw armed, no bet before it that could win left at the trigger, and
        a win by the bet that crossed it."""
        low, high = self.span
        if not low <= cents <= high:
            self._problem(
                seq,
                f"the trigger revealed ({cents} cents) is outside the range its draw was "
                f"armed from ({low} to {high})",
            )
        if named != armed[:2]:
            self._problem(seq, _swapped(*named, armed))
        last = self.last
        if not won and last is not None and last.could_win:
            self.peak = max(self.peak, last.meter)
        units = cents * UNITS_PER_CENT
        if self.peak >= units:
            self._problem(
                seq,
                f"a bet before it that could win brought the meter to the trigger "
                f"({cents} cents) and did not win it",
            )
        if won:
            self._won(seq, f, units)

    def _won(self, seq: int, f: Mapping[str, str], units: int) -> None:
        last = self.last
        if last is None or not last.could_win:
            self._problem(seq, "the level was won by no bet that could win it")
            return
        crossed = int(f.get("crossed_from_units") or -1)
        if crossed != last.meter - last.units or last.meter < units:
            self._problem(
                seq,
                f"the winning bet took the meter from {crossed} units to {last.meter}, not to "
                f"the trigger ({units} units)",
            )
        if int(f.get("amount") or 0) != last.meter // UNITS_PER_CENT:
            self._problem(seq, "the jackpot is not the meter where the trigger was reached")

    def _problem(self, seq: int, text: str) -> None:
        self.problems.append((seq, text))


def _steps_and_marks(raw: str, marks: str) -> tuple[list[int], str] | None:
    """A contribution's bets' steps (units) and qualifying marks, one of each a bet; None
    when they are not."""
    try:
        steps = [int(part) for part in raw.split(",")]
    except ValueError:
        steps = []
    if len(marks) != len(steps) or set(marks) - {"0", "1"}:
        return None
    return steps, marks


def _fed_unable(steps: list[int], marks: str, won_here: bool) -> str | None:
    """A bet that put units on the meter though it could not win the level, if any."""
    if any(m == "0" and u for u, m in zip(steps, marks, strict=True)):
        return "it marks a bet that fed the meter as unable to win"
    if won_here and any(steps):
        return "a bet after the level's win in its round fed the meter"
    return None


def _arming_round(f: Mapping[str, str]) -> tuple[str, str] | None:
    """The round whose hit armed the draw (None: armed by no round's hit)."""
    table, round_id = f.get("table"), f.get("round")
    return (str(table), str(round_id)) if table and round_id else None


def _at_rate(fed: list[int], rate: int, qualifying_wager: int, wagered: int) -> bool:
    """Whether the steps of the bets that fed the level are whole wagers at its rate, each at
    least the qualifying wager, together no more than the round's wagers (cents)."""
    return not (
        any(units % rate or units // rate < qualifying_wager for units in fed)
        or sum(fed) // rate > wagered
    )


def _swapped(named: str, draw: str, armed: tuple[str, str, int]) -> str:
    """What a reveal names that the entry arming its draw did not: the draw, the commitment,
    or both, each beside what was armed."""
    commitment, armed_draw, at = armed
    differs = []
    if named != commitment:
        differs.append(f"its commitment is {named}, the one armed {commitment}")
    if draw != armed_draw:
        differs.append(f"its draw is {draw}, the one armed {armed_draw}")
    return f"the trigger revealed is not the draw armed at seq {at}: " + "; ".join(differs)


def mean_trigger_cents(span: tuple[int, int]) -> Fraction:
    """The expected trigger of a uniform draw over `span` (whole cents), exactly."""
    low, high = span
    return Fraction(low + high, 2)
