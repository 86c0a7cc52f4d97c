"""Server-side SVG line charts: no script and no outside asset, printable as is.

Made for a 375-pixel phone first: the drawing is 360 units wide, so at phone
width one unit is about one pixel and every label (12 units) stays at least 11
pixels tall; on a laptop it grows with the page.  The legend sits under the
plot, a name and a total per line, each line drawn with its own colour and dash
so that players with equal totals stay told apart; the x axis names the date of
each club night where there is room for it, once a date (each night's whole label,
with its name and venue, on hover).
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.sheets import SeasonChart
from tournaments.names import night_label

PALETTE = ["#1b6ca8", "#d1495b", "#2e933c", "#c98a00", "#6a4c93", "#00798c", "#8d6a9f",
           "#c96e12", "#3d5a80", "#9c2c77", "#52796f", "#b56576"]  # fmt: skip
DASHES = ["", "7 3", "2 3", "9 3 2 3"]
WIDTH, PLOT_HEIGHT = 360, 200
LEFT, RIGHT, TOP, AXIS = 40, 10, 12, 26
FONT, ROW = 13, 19
DATE_GAP = 44
"""Units from one date label's start to the next's on the x axis (closer ones are left
out), the last one drawn leftwards of its tick so that it stays on the page."""
DATE_WIDTH = 36
"""Units a date label ("11-10") takes at its size."""


def line_chart(chart: SeasonChart, *, title: str = "") -> SafeString:
    """One line per player through its points (x from 0, the start, to ``chart.deals``)."""
    if not chart.series:
        return mark_safe("")
    values = [v for s in chart.series for _, v in s.points] + [0]
    low, high = min(values), max(values)
    if low == high:
        high = low + 1
    span_x = max(chart.deals, 1)
    plot_w = WIDTH - LEFT - RIGHT
    columns = 2
    legend_rows = (len(chart.series) + columns - 1) // columns
    height = TOP + PLOT_HEIGHT + AXIS + legend_rows * ROW + 6

    def x(i: int) -> float:
        return LEFT + i * plot_w / span_x

    def y(v: float) -> float:
        return TOP + (high - v) * PLOT_HEIGHT / (high - low)

    def label(x_: float, y_: float, text: str, anchor: str = "end", colour: str = "#333") -> str:
        return (
            f'<text x="{x_:.1f}" y="{y_:.1f}" text-anchor="{anchor}" font-size="{FONT}" '
            f'fill="{colour}">{text}</text>'
        )

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'class="chart" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{LEFT}" y1="{y(0):.1f}" x2="{WIDTH - RIGHT}" y2="{y(0):.1f}" stroke="#999" stroke-dasharray="4 3"/>',
        f'<line x1="{LEFT}" y1="{TOP + PLOT_HEIGHT}" x2="{WIDTH - RIGHT}" y2="{TOP + PLOT_HEIGHT}" stroke="#ccc"/>',
    ]
    for value in sorted({high, low, 0}):
        parts.append(label(LEFT - 5, y(value) + 4, str(value)))
    right: float = -DATE_GAP  # where the last date label ends
    dated = None  # the date the last label wrote
    for start, night in chart.nights:
        at = x(start)
        edge = "end" if at > WIDTH - RIGHT - DATE_WIDTH / 2 else "middle"  # stays on the page
        left = at - (DATE_WIDTH if edge == "end" else DATE_WIDTH / 2)
        tick = (
            f'<line x1="{at:.1f}" y1="{TOP + PLOT_HEIGHT}" x2="{at:.1f}" '
            f'y2="{TOP + PLOT_HEIGHT + 4}" stroke="#999"/>'
        )
        if night.date == dated:
            # A second night of the date written just before: its tick, told apart by its
            # whole label on hover, never the same date twice.
            parts.append(f"<g><title>{escape(night_label(night))}</title>{tick}</g>")
        elif left - right >= DATE_GAP - DATE_WIDTH:
            # The date drawn (room for 5 characters), the night's whole label on hover and
            # for screen readers.
            day = label(at, TOP + PLOT_HEIGHT + 17, f"{night.date:%m-%d}", anchor=edge)
            parts.append(f"<g><title>{escape(night_label(night))}</title>{day}</g>{tick}")
            right, dated = left + DATE_WIDTH, night.date
    legend_top = TOP + PLOT_HEIGHT + AXIS
    for n, series in enumerate(chart.series):
        colour, dash = PALETTE[n % len(PALETTE)], DASHES[(n // len(PALETTE) + n) % len(DASHES)]
        style = f' stroke-dasharray="{dash}"' if dash else ""
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in series.points)
        name = escape(series.player.shown_name)
        total = series.points[-1][1]
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2"{style} points="{path}">'
            f"<title>{name}: {total}</title></polyline>"
        )
        last_x, last_y = series.points[-1]
        parts.append(f'<circle cx="{x(last_x):.1f}" cy="{y(last_y):.1f}" r="3" fill="{colour}"/>')
        col, row = n % columns, n // columns
        lx, ly = LEFT + col * (plot_w / columns), legend_top + row * ROW + 12
        parts.append(
            f'<line x1="{lx:.1f}" y1="{ly - 4:.1f}" x2="{lx + 18:.1f}" y2="{ly - 4:.1f}" '
            f'stroke="{colour}" stroke-width="3"{style}/>'
        )
        parts.append(label(lx + 23, ly, f"{name} {total}", anchor="start", colour="#222"))
    parts.append("</svg>")
    return mark_safe("".join(parts))
