"""Link previews' images (issue 58, 3): a 1200×630 PNG of a season's standings or of a
club night (its standings, or before any deal its tables), which LINE, Discord, Slack
and the like show under a link to a public page (``web.previews`` puts it in the page's
Open Graph tags; ``web.pages.previews`` serves it).

- **What it shows** is a :class:`Card` of plain words, made in the active language
  (:func:`season_card`, :func:`night_card`): the club, the season or the night, the top
  lines of up to two boards (rank, name, the ranked figure) or the first tables, and a
  footer (how many players, nights or tables).  Names are the players' Japanese names in
  Japanese where they have one.
- **Its version** (:meth:`Card.version`) is a hash of the card itself and of
  :data:`LAYOUT`: the same words, the same picture, so the picture is drawn once per
  version and kept (``web.pages.previews``), however often a crawler asks.
- **Drawn** with Pillow in the font the PDFs embed (IPA P Gothic, ``scoring/fonts``:
  Latin and Japanese alike, no tofu), a name too long for its line cut with "…".
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from django.db.models import Count
from django.utils import formats
from django.utils.translation import get_language, gettext, ngettext

from scoring import live_cache
from scoring.models import SeasonStanding
from tournaments import ranking
from tournaments.games import label
from tournaments.models import ClubNight, Season
from tournaments.names import night_label

WIDTH, HEIGHT = 1200, 630
"""The size every link preview asks for (Open Graph, X/Twitter's large summary card)."""
FONT_FILE = Path(__file__).resolve().parent / "fonts" / "ipagp.ttf"
LAYOUT = "1"
"""Part of every version: a change to how cards are drawn is a new picture for all."""

LINES = 8
"""Lines of a board drawn (the top of the standings)."""
BOARDS = 2
"""Boards drawn side by side (a season of three games shows its first two)."""
TABLES = 6
"""Tables drawn before the night's first deal (three a row)."""

NAVY = (15, 61, 94)
NAVY_LIGHT = (185, 211, 230)
INK = (28, 37, 46)
MUTED = (96, 112, 128)
PAPER = (247, 249, 251)
STRIPE = (234, 241, 247)
WHITE = (255, 255, 255)
MEDALS = {1: (212, 160, 23), 2: (150, 163, 176), 3: (192, 121, 58)}


@dataclass(frozen=True)
class Line:
    rank: str
    name: str
    figure: str
    medal: int = 0
    """1, 2, 3: the line's rank is a medal's (ties share it); 0: none."""


@dataclass(frozen=True)
class Board:
    heading: str
    column: str
    """The figure's heading ("Points", "Points per match")."""
    lines: tuple[Line, ...] = ()
    empty: str = ""
    """Said when there is no line."""


@dataclass(frozen=True)
class Seating:
    """A table before its first deal: its name and who sits at it."""

    name: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Card:
    kicker: str
    """Above the title: the club (and the season, for a night)."""
    title: str
    boards: tuple[Board, ...] = ()
    tables: tuple[Seating, ...] = ()
    tables_heading: str = ""
    footer: str = ""
    language: str = field(default_factory=lambda: get_language() or "en")

    def version(self) -> str:
        """A hash of everything drawn: the same hash, the same picture."""
        data = json.dumps([LAYOUT, asdict(self)], ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(data.encode()).hexdigest()[:32]


# -- what a card says ---------------------------------------------------------------------------


def number(value: Any) -> str:
    """A figure with its thousands grouped: 1,234 (12.5; -40)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return formats.number_format(value, use_l10n=True, force_grouping=True)


def _medal(rank: int) -> int:
    return rank if rank in MEDALS else 0


def season_card(season: Season) -> Card:
    """The season's top lines of its first games (the ranked figure: total points, or
    the season's own ranking's), in the active language (a few queries, however many
    players)."""
    rule = ranking.Rule.of(season)
    column = gettext("Points") if rule.method == ranking.Method.TOTAL else rule.heading
    counts = dict(
        SeasonStanding.objects.filter(season=season)
        .order_by()
        .values_list("game")
        .annotate(n=Count("pk"))
    )
    games = [g for g in season.games if counts.get(g)] or list(season.games[:1])
    boards = []
    for game in games[:BOARDS]:
        rows = (
            SeasonStanding.objects.filter(season=season, game=game)
            .select_related("player")
            .order_by("rank", "player_id")[:LINES]
        )
        lines = tuple(
            Line(
                str(row.rank),
                row.player.shown_name,
                number(
                    row.total if rule.method == ranking.Method.TOTAL else ranking.plain(row.score)
                ),
                _medal(row.rank),
            )
            for row in rows
        )
        boards.append(Board(label(game), column, lines, gettext("No deal yet.")))
    players = (
        SeasonStanding.objects.filter(season=season).values("player").distinct().count()
        if len(counts) > 1
        else sum(counts.values())
    )
    nights = season.club_nights.count()
    footer = [
        ngettext("%(n)s player", "%(n)s players", players) % {"n": number(players)},
        ngettext("%(n)s club night", "%(n)s club nights", nights) % {"n": number(nights)},
    ]
    return Card(
        kicker=season.club.name,
        title=season.name,
        boards=tuple(boards),
        footer=" · ".join(footer),
    )


def night_card(night: ClubNight) -> Card:
    """The night's standings (up to two boards), or before its first deal the tables of
    its current round, from the room display's own data (``scoring.live_cache.cached_live``:
    kept, and computed again only when the night changes)."""
    _tag, body = live_cache.cached_live(night, False)
    data = json.loads(body)
    season = night.season
    title = night_label(night)
    kicker = f"{season.club.name} · {season.name}"
    current = data.get("round")
    if data.get("latest"):  # a deal counts: the standings
        boards = []
        shown = [b for b in data["standings"]["boards"] if b["rows"]]
        for board in shown[:BOARDS]:
            lines = tuple(
                Line(
                    str(row["rank"]),
                    row["shown"],
                    number(row["total"]),
                    _medal(row["rank"]),
                )
                for row in board["rows"][:LINES]
            )
            heading = board["game_label"] or gettext("The night's standings")
            boards.append(Board(heading, gettext("Total"), lines))
        players = len({row["player"] for b in shown for row in b["rows"]})
        footer = ngettext("%(n)s player", "%(n)s players", players) % {"n": number(players)}
        if current:
            footer = f"{gettext('Round %(n)s') % {'n': current['number']}} · {footer}"
        return Card(kicker, title, boards=tuple(boards), footer=footer)
    tables = data.get("tables", [])
    seated = tuple(
        Seating(
            row["name"],
            tuple(row["players"]),
        )
        for row in tables[:TABLES]
    )
    heading = gettext("Tables")
    if current:
        heading = f"{gettext('Round %(n)s') % {'n': current['number']}} · {current['game_label']}"
    n = len(tables)
    footer = ngettext("%(n)s table", "%(n)s tables", n) % {"n": number(n)}
    players = sum(len(row["players"]) for row in tables)
    if players:
        footer += " · " + ngettext("%(n)s player", "%(n)s players", players) % {
            "n": number(players)
        }
    return Card(kicker, title, tables=seated, tables_heading=heading, footer=footer)


# -- drawing ----------------------------------------------------------------------------------


@cache
def font(size: int, file: str = str(FONT_FILE)) -> Any:
    """The font at ``size`` pixels (loaded once per size and process)."""
    from PIL import ImageFont

    return ImageFont.truetype(file, size)


def fit(text: str, face: Any, width: float) -> str:
    """``text``, cut with "…" to ``width`` pixels when longer."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


MARGIN = 60
HEADER = 164
FOOTER = 52
ROW = 42


def render(card: Card, font_file: Path = FONT_FILE) -> bytes:
    """The card as a 1200×630 PNG (``font_file``: another font, for the tests' tofu)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)

    def face(size: int) -> Any:
        return font(size, str(font_file))

    def bold(xy: tuple[float, float], text: str, size: int, fill: Any, **kw: Any) -> None:
        draw.text(xy, text, font=face(size), fill=fill, stroke_width=1, stroke_fill=fill, **kw)

    # The header: the club (and season), the title.
    draw.rectangle((0, 0, WIDTH, HEADER), fill=NAVY)
    draw.rectangle((0, HEADER, WIDTH, HEADER + 6), fill=MEDALS[1])
    inner = WIDTH - 2 * MARGIN
    draw.text((MARGIN, 34), fit(card.kicker, face(28), inner), font=face(28), fill=NAVY_LIGHT)
    bold((MARGIN, 78), fit(card.title, face(54), inner), 54, WHITE)

    top = HEADER + 26
    if card.tables or card.tables_heading:
        _tables(draw, card, top, face, bold)
    else:
        _boards(draw, card, top, face, bold)

    # The footer: the site's name, and how many.
    draw.rectangle((0, HEIGHT - FOOTER, WIDTH, HEIGHT), fill=STRIPE)
    base = HEIGHT - FOOTER // 2
    bold((MARGIN, base), "Clubscore", 26, NAVY, anchor="lm")
    footer = fit(card.footer, face(24), inner - 220)
    draw.text((WIDTH - MARGIN, base), footer, font=face(24), fill=MUTED, anchor="rm")
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=6)
    return out.getvalue()


def _boards(draw: Any, card: Card, top: int, face: Any, bold: Any) -> None:
    boards = card.boards or (Board("", "", (), gettext("No deal yet.")),)
    gap = 48
    width = (WIDTH - 2 * MARGIN - gap * (len(boards) - 1)) // len(boards)
    for i, board in enumerate(boards):
        left = MARGIN + i * (width + gap)
        right = left + width
        bold((left, top), fit(board.heading, face(26), width * 0.6), 26, NAVY, anchor="lt")
        column = fit(board.column, face(22), width * 0.38)
        draw.text((right - 12, top + 4), column, font=face(22), fill=MUTED, anchor="rt")
        y = top + 42
        if not board.lines:
            draw.text((left, y + 20), board.empty, font=face(28), fill=MUTED)
            continue
        size = 30 if len(boards) == 1 else 27
        for n, line in enumerate(board.lines):
            if n % 2 == 0:
                draw.rounded_rectangle((left, y, right, y + ROW - 4), radius=8, fill=STRIPE)
            middle = y + (ROW - 4) / 2
            _rank(draw, line, left + 24, middle, face)
            figure_width = face(size).getlength(line.figure)
            bold((right - 14, middle), line.figure, size, INK, anchor="rm")
            room = width - 56 - figure_width - 36
            name = fit(line.name, face(size), room)
            draw.text((left + 56, middle), name, font=face(size), fill=INK, anchor="lm")
            y += ROW


def _rank(draw: Any, line: Line, x: float, y: float, face: Any) -> None:
    """The line's rank in a disc: gold, silver, bronze for the first three."""
    r = 17
    if line.medal:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=MEDALS[line.medal])
        colour = WHITE
    else:
        draw.ellipse((x - r, y - r, x + r, y + r), outline=NAVY_LIGHT, width=2, fill=WHITE)
        colour = NAVY
    size = {1: 22, 2: 22, 3: 16}.get(len(line.rank), 12)
    draw.text((x, y), line.rank, font=face(size), fill=colour, anchor="mm")


def _tables(draw: Any, card: Card, top: int, face: Any, bold: Any) -> None:
    inner = WIDTH - 2 * MARGIN
    bold((MARGIN, top), fit(card.tables_heading, face(26), inner), 26, NAVY, anchor="lt")
    if not card.tables:
        draw.text((MARGIN, top + 62), gettext("No match yet."), font=face(28), fill=MUTED)
        return
    gap, columns = 24, 3
    width = (inner - gap * (columns - 1)) // columns
    rows = 1 if len(card.tables) <= columns else 2
    room = HEIGHT - FOOTER - 20 - (top + 42)
    height = (room - gap * (rows - 1)) // rows
    for i, table in enumerate(card.tables):
        left = MARGIN + (i % columns) * (width + gap)
        y = top + 42 + (i // columns) * (height + gap)
        draw.rounded_rectangle((left, y, left + width, y + height), radius=12, fill=WHITE)
        draw.rounded_rectangle((left, y, left + 8, y + height), radius=4, fill=NAVY)
        bold((left + 24, y + 12), fit(table.name, face(26), width - 40), 26, NAVY)
        # One name a line in a tall card; two columns of three in a short one.
        per_column, size, step = (6, 26, 36) if rows == 1 else (3, 21, 29)
        split = 1 if rows == 1 else 2
        most = per_column * split
        shown = table.players if len(table.players) <= most else table.players[: most - 1]
        column = (width - 36) // split
        for n, name in enumerate(shown):
            x = left + 24 + (n // per_column) * column
            text = fit(name, face(size), column - 12)
            draw.text((x, y + 52 + (n % per_column) * step), text, font=face(size), fill=INK)
        if len(shown) < len(table.players):
            n = len(shown)
            x = left + 24 + (n // per_column) * column
            more = "+" + number(len(table.players) - n)
            draw.text((x, y + 52 + (n % per_column) * step), more, font=face(size), fill=MUTED)
