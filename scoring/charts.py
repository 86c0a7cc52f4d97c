"""Server-side SVG line charts: no script and no outside asset, printable as is."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.sheets import SeasonChart

PALETTE = ["#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#6a4c93", "#00798c", "#8d6a9f",
           "#c96e12", "#3d5a80", "#9c2c77", "#52796f", "#b56576"]  # fmt: skip
WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 48, 120, 16, 32


def line_chart(chart: SeasonChart, *, title: str = "") -> SafeString:
    """Cumulative points (y) after each deal of the season (x), one line per player."""
    if not chart.series:
        return mark_safe("")
    values = [v for s in chart.series for _, v in s.points] + [0]
    low, high = min(values), max(values)
    if low == high:
        high = low + 1
    span_x = max(chart.deals, 2) - 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (i - 1) * plot_w / span_x

    def y(v: float) -> float:
        return TOP + (high - v) * plot_h / (high - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'class="chart" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{LEFT}" y1="{y(0):.1f}" x2="{WIDTH - RIGHT}" y2="{y(0):.1f}" stroke="#999" stroke-dasharray="4 3"/>',
        f'<text x="{LEFT - 6}" y="{y(high) + 4:.1f}" text-anchor="end" font-size="11">{high}</text>',
        f'<text x="{LEFT - 6}" y="{y(low) + 4:.1f}" text-anchor="end" font-size="11">{low}</text>',
        f'<text x="{LEFT - 6}" y="{y(0) + 4:.1f}" text-anchor="end" font-size="11">0</text>',
    ]
    for start, day in chart.nights:
        parts.append(
            f'<text x="{x(start):.1f}" y="{HEIGHT - 10}" font-size="11" text-anchor="middle">{day:%m-%d}</text>'
        )
    for n, series in enumerate(chart.series):
        colour = PALETTE[n % len(PALETTE)]
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in series.points)
        name = escape(series.player.display_name)
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}">'
            f"<title>{name}: {series.points[-1][1]}</title></polyline>"
        )
        last_x, last_y = series.points[-1]
        parts.append(f'<circle cx="{x(last_x):.1f}" cy="{y(last_y):.1f}" r="3" fill="{colour}"/>')
        parts.append(
            f'<text x="{WIDTH - RIGHT + 8}" y="{TOP + 14 * n + 10}" font-size="12" fill="{colour}">'
            f"{name} {series.points[-1][1]}</text>"
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))
