"""The floor on a terminal: one live view of the meters, the tables and the last wins (rich).

Everything is drawn from a Snapshot by the thread that runs the floor, a few times a
second; answers arriving on the adapters' threads only land in the WinFeed. Each line is
cut to the terminal's width (never wrapped) and the view to its height, so nothing scrolls.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from table_adapter.link.meters import Hit
from table_adapter.link.status import LinkState, LinkStatus
from table_adapter.screens.board import (
    LINK_NAMES,
    PAYOUT_NAMES,
    Heading,
    Snapshot,
    clock,
    links_summary,
    outcome_name,
    quarantine_text,
    snapshot,
)
from table_adapter.screens.display import dollars
from table_adapter.screens.wins import Win, WinFeed

if TYPE_CHECKING:
    from table_adapter.floor.simulator import Floor

REDRAW_SECONDS = 0.25
MAX_HITS = 3
MIN_WINS = 3  # win rows kept even on a big floor
LINK_STYLES = {LinkState.UP: "green", LinkState.DOWN: "bold red", LinkState.HELD: "bold red"}
ERROR_NOISE = re.compile(r"^\w+(Error|Exception|Timeout): |\[Errno \d+\] ")
PAYOUT_STYLES = {"pending": "bold yellow", "paid": "bold green", "disputed": "bold red"}


def render(s: Snapshot, height: int = 24, width: int = 80) -> RenderableType:
    """The view of `s` in fewer than `height` lines of `width` columns (the last wins take
    what is left)."""
    title = _title(s, width)
    top: list[RenderableType] = [title[0], *_meters(s), *_run_lines(s)]
    hits = s.hits[:MAX_HITS]
    # lines besides the table rows and the win rows: a blank and a heading per section
    fixed = len(top) + 2 + (2 + len(hits) if hits else 0) + 2
    room = height - 1 - fixed
    if room - (len(title) - 1) >= MIN_WINS + 2:  # the note's own lines, where they fit
        top[1:1] = title[1:]
        room -= len(title) - 1
    else:  # a terminal too small for them: the note beside the title, cut
        top[0] = _title(s, 10**6)[0]
    shown = _tables_shown(len(s.links), room)
    more = shown < len(s.links)
    parts: list[RenderableType] = [*top, Text(""), *_tables(s, shown)]
    if hits:
        parts += [Text(""), *_hits(s, hits)]
    parts += [Text(""), *_wins(s, max(1, room - shown - more))]
    return Group(*parts)


def _meters(s: Snapshot) -> list[Text]:
    """A line per pool: its meter (how long ago it was read, when stale), then the pools
    not read yet."""
    lines = []
    for p in s.pools:
        count = f"{p.hits:,} hit{'' if p.hits == 1 else 's'}"
        meter = _meter(p.pool, p.value, f"reset {dollars(p.reset)} · {count}")
        if s.meters_stale and s.meter_age is not None:
            meter.append(f"  read {s.meter_age:.0f}s ago", style="bold red")
        lines.append(meter)
    return lines + [_meter(pool, None, "not read yet") for pool in s.missing]


def _run_lines(s: Snapshot) -> list[RenderableType]:
    """The run's totals, its progress bar when it deals a set number of rounds, and the
    heading's label."""
    lines: list[RenderableType] = [_totals(s)]
    if s.total:
        lines.append(_progress(s.rounds, s.total))
    if s.heading.label:
        lines.append(_line(Text(f"  {s.heading.label}", style="bold red")))
    return lines


def _tables_shown(tables: int, room: int) -> int:
    """How many table rows fit in `room` lines beside the last wins."""
    if tables + MIN_WINS <= room:
        return tables
    return max(1, room - MIN_WINS - 1)  # a big floor: some tables, then one line for the rest


def _line(text: Text) -> Text:
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


Cell = str | Text


def _rows(rows: list[list[Cell]], right: frozenset[int] = frozenset()) -> list[Text]:
    """Rows of cells as aligned lines (two spaces between columns), each cut, never wrapped."""
    widths = [max(len(c) for c in col) for col in zip(*rows, strict=True)]
    lines = []
    for row in rows:
        line = Text("  ")
        for i, (cell, width) in enumerate(zip(row, widths, strict=True)):
            text = Text(cell) if isinstance(cell, str) else cell.copy()
            pad = " " * (width - len(text))
            line.append_text(Text(pad) + text if i in right else text + Text(pad))
            line.append("  ")
        line.rstrip()
        lines.append(_line(line))
    return lines


def _title(s: Snapshot, width: int) -> list[Text]:
    """The title and the elapsed time, then the note (where the sign and the console are):
    beside them when it fits, else on lines of its own, broken between its parts (` · `) so
    that an address is never cut."""
    h = s.heading
    minutes, seconds = divmod(int(s.elapsed), 60)
    title = Text(f" {h.title} ", style="bold reverse")
    title.append(f" {minutes}:{seconds:02d}")
    if not h.note:
        return [_line(title)]
    if len(title) + 2 + len(h.note) <= width:
        title.append(f"  {h.note}", style="dim")
        return [_line(title)]
    lines, line = [], ""
    for part in h.note.split(" · "):
        joined = f"{line} · {part}" if line else part
        if line and 2 + len(joined) > width:
            lines.append(line)
            joined = part
        line = joined
    lines.append(line)
    return [_line(title)] + [_line(Text(f"  {text}", style="dim")) for text in lines]


def _meter(pool: str, value: int | None, detail: str) -> Text:
    text = Text(f"  {pool}  ", style="bold")
    text.append(dollars(value) if value is not None else "-", style="bold yellow")
    text.append(f"   {detail}", style="dim")
    return _line(text)


def _totals(s: Snapshot) -> Text:
    return _line(
        Text(
            f"  {s.rounds:,} rounds · {s.rate:,.1f}/s · {s.side_bets:,} side bets · "
            f"handle {dollars(s.handle)} · paid {dollars(s.paid)}"
        )
    )


def _progress(done: int, total: int) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=1)
    grid.add_column(width=40)
    grid.add_column(no_wrap=True)
    bar = ProgressBar(total=total, completed=min(done, total), width=40)
    grid.add_row("", bar, f"{done:,}/{total:,} rounds")
    return grid


def _tables(s: Snapshot, shown: int) -> list[Text]:
    rows: list[list[Cell]] = [
        [Text(h, style="bold") for h in ("table", "link", "backlog", "side bets", "answered")]
    ]
    rows += [_table_row(link) for link in s.links[:shown]]
    rest = s.links[shown:]
    if rest:
        rows.append(_rest_row(rest))
    lines = _rows(rows, right=frozenset({2, 4}))
    for line, link in zip(lines[1:], s.links[:shown], strict=False):
        _append_why(line, link)
    quarantined = sum(link.quarantined for link in rest)
    if quarantined:
        lines[-1].append(f"  {quarantine_text(quarantined)}", style="bold red")
    return lines


def _table_row(link: LinkStatus) -> list[Cell]:
    """A table's row: its link (down how long), backlog, side bet and answers."""
    state = LINK_NAMES[link.state]
    if link.state is LinkState.DOWN and link.down_seconds is not None:
        state += f" {link.down_seconds:.0f}s"
    side = Text("open", "green") if link.side_bets_open else Text("CLOSED", "bold red")
    return [
        link.table,
        Text(state, LINK_STYLES.get(link.state, "bold red")),
        f"{link.pending:,}",
        side,
        f"{link.acked:,}",
    ]


def _rest_row(rest: tuple[LinkStatus, ...]) -> list[Cell]:
    """One row for the tables that do not fit, summed."""
    return [
        f"+{len(rest)} more",
        links_summary(rest),
        f"{sum(link.pending for link in rest):,}",
        f"{sum(link.side_bets_open for link in rest)} open",
        f"{sum(link.acked for link in rest):,}",
    ]


def _append_why(line: Text, link: LinkStatus) -> None:
    """After a table's row: its quarantined reports, else why its link is not up."""
    if link.quarantined:  # an operator's business first: a round the controller refused
        line.append(f"  {quarantine_text(link.quarantined)}", style="bold red")
    elif link.state is not LinkState.UP and link.last_error:  # why, after its row
        line.append(f"  {_short_error(link.last_error)}", style="dim")


def _hits(s: Snapshot, hits: list[Hit]) -> list[Text]:
    rows: list[list[Cell]] = []
    for h in hits:
        status = PAYOUT_NAMES.get(h.status, h.status)
        if h.status == "pending" and h.created:
            status += f" {max(0, s.now - h.created / 1000):.0f}s"
        rows.append(
            [
                clock(h.created / 1000) if h.created else "",
                f"{h.table} spot {h.spot}",
                outcome_name(h.outcome),
                Text(dollars(h.amount), "bold yellow"),
                Text(status, PAYOUT_STYLES.get(h.status, "")),
            ]
        )
    head = _line(Text("  jackpots (the controller's last hits)", "bold"))
    return [head, *_rows(rows, frozenset({3}))]


def _wins(s: Snapshot, shown: int) -> list[Text]:
    rows = [_win_row(w) for w in s.wins[:shown]]
    head = _line(Text("  last wins (suited tie and better, envy, meter)", "bold"))
    if not rows:
        return [head, _line(Text("  none yet", "dim"))]
    return [head, *_rows(rows, frozenset({3}))]


def _win_row(w: Win) -> list[Cell]:
    """A win's row: when, where, what, how much on what wager; a jackpot stands out."""
    style = "bold yellow" if w.bet.jackpot else ""
    tags = ["JACKPOT"] if w.bet.jackpot else []
    if w.bet.envy and w.bet.outcome != "none":
        tags.append("+ envy")
    return [
        clock(w.at),
        Text(f"{w.table} spot {w.bet.spot}", style),
        Text("envy" if w.bet.outcome == "none" else outcome_name(w.bet.outcome), style),
        Text(dollars(w.bet.won), style),
        f"on {_short(w.bet.wager)}",
        Text(" ".join(tags), style or "cyan"),
    ]


def _short_error(error: str) -> str:
    """`ConnectError: [Errno 111] Connection refused` as `Connection refused`."""
    return ERROR_NOISE.sub("", error)


def _short(cents: int) -> str:
    """A wager: `$25` when whole dollars, else `$2.50`."""
    return dollars(cents)[:-3] if cents % 100 == 0 else dollars(cents)


class LiveView:
    """Redraws the view in place on a terminal; log lines print above it."""

    def __init__(self, console: Console, feed: WinFeed, heading: Heading) -> None:
        self.console = console
        self.feed = feed
        self.heading = heading
        # what else writes to this terminal (logs, prints) goes above the view, not through it
        self._live = Live(
            console=console,
            auto_refresh=False,
            redirect_stdout=sys.stdout.isatty(),
            redirect_stderr=sys.stderr.isatty(),
            vertical_overflow="crop",
        )
        self._last = 0.0
        self._handlers: list[tuple[logging.StreamHandler[Any], Any]] = []

    def start(self) -> LiveView:
        """Take over the terminal's last lines."""
        streams = {id(sys.stdout): "stdout", id(sys.stderr): "stderr"}
        self._live.start()
        # a log line written straight to the terminal would tear the view: send it through
        # the stream rich put in place of stdout or stderr, which prints above the view
        for handler in logging.getLogger().handlers:
            if isinstance(handler, logging.StreamHandler) and id(handler.stream) in streams:
                self._handlers.append((handler, handler.stream))
                handler.setStream(getattr(sys, streams[id(handler.stream)]))
        return self

    def __call__(self, floor: Floor) -> None:
        now = time.monotonic()
        if now - self._last < REDRAW_SECONDS:
            return
        self._last = now
        self.draw(floor)

    def draw(self, floor: Floor) -> None:
        """Redraw from the floor as it is now."""
        self.show(snapshot(floor, self.feed, self.heading))

    def show(self, s: Snapshot) -> None:
        """Redraw `s`, fitted to the terminal's height."""
        self._live.update(
            render(s, self.console.size.height, self.console.size.width), refresh=True
        )

    def close(self, floor: Floor | None = None) -> None:
        """Draw the last state and leave it on the terminal."""
        if floor is not None:
            self.draw(floor)
        for handler, stream in self._handlers:
            handler.setStream(stream)
        self._live.stop()

    def say(self, text: str) -> None:
        """A line of the run's own (its summary), below the view left on the terminal."""
        self.console.file.write(f"{text}\n")
        self.console.file.flush()
