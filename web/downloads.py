"""Downloads: a match's score sheet and a season's standings in every format of
``scoring.exports.EXPORTERS``, a night's standings and seating, and a blank paper sheet
per game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

import engine
from scoring import exports, paper, season_files
from scoring import night as night_standings
from scoring.documents import Cell, Document, exported_line
from scoring.exports import EXPORTERS
from scoring.queries import readable_match
from scoring.ratings import scope_for
from scoring.sheets import match_sheet
from scoring.tasks import season_file
from tournaments import draw_measures, seatings
from tournaments.access import visible
from tournaments.games import LEAGUE_GAMES, label
from tournaments.models import ClubNight, Player, Season
from tournaments.names import night_label

FORMATS = "|".join(EXPORTERS)
"""The formats as a URL pattern alternative (``csv|xlsx|pdf``)."""
RETRY_SECONDS = 3
"""How soon the page of a file being made asks again."""


def download(document: Document, fmt: str, name: str) -> HttpResponseBase:
    """The document as a file, streamed where its format is (``Exporter.streamed``)."""
    exporter = EXPORTERS[fmt]
    blocks = exporter.write(document)
    response: HttpResponseBase = (
        StreamingHttpResponse(blocks, content_type=exporter.content_type)
        if exporter.streamed
        else HttpResponse(b"".join(blocks), content_type=exporter.content_type)
    )
    response["Content-Disposition"] = f'attachment; filename="{name}.{exporter.extension}"'
    return response


@require_safe
def match_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponseBase:
    match = readable_match(request.user, pk)
    sheet = match_sheet(match)
    header, rows = exports.sheet_table(sheet)
    document = Document(str(label(match.game)), exports.sheet_title(sheet), header, rows)
    return download(document, fmt, f"match-{match.pk}-{match.game}")


@require_safe
def season_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponseBase:
    """The season's leaderboards, with ratings in the reader's scope (``scoring.season_tables``)."""
    return _season_file(request, pk, "standings", fmt)


@require_safe
def season_statistics(request: HttpRequest, pk: int, fmt: str) -> HttpResponseBase:
    """Every player's statistics in each game of a season (``scoring.season_tables``)."""
    return _season_file(request, pk, "statistics", fmt)


def _season_file(request: HttpRequest, pk: int, kind: str, fmt: str) -> HttpResponseBase:
    """A season's download.  The reader's right to read the season is checked first, on
    every request; then a format laid out whole (PDF, XLSX) is served as kept for this
    version of the season's data, or made (``scoring.season_files``); a CSV is streamed."""
    season = get_object_or_404(visible(Season.objects.select_related("club"), request.user), pk=pk)
    scope = scope_for(request.user, season.club_id)
    name = f"season-{season.pk}-{kind}"
    if not EXPORTERS[fmt].kept:
        return download(season_files.KINDS[kind].document(season, scope), fmt, name)
    data = season_file(season, kind, fmt, scope)
    if data is None:  # a worker is making it: this page asks again until it is kept
        label = season_files.KINDS[kind].label
        answer = render(
            request,
            "pages/preparing.html",
            {
                "season": season,
                "label": f"{label} ({EXPORTERS[fmt].label})",
                "retry": RETRY_SECONDS,
            },
            status=202,
        )
        answer["Retry-After"] = str(RETRY_SECONDS)
        return answer
    exporter = EXPORTERS[fmt]
    response = HttpResponse(data, content_type=exporter.content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}.{exporter.extension}"'
    return response


@require_safe
def blank_sheet(request: HttpRequest, game: str) -> HttpResponseBase:
    """A printable score sheet to fill in by hand, for tables that keep paper."""
    if game not in engine.GAMES or game not in LEAGUE_GAMES:
        raise Http404(f"unknown game {game!r}")
    document = paper.blank_paper(game)
    return download(document, "pdf", f"blank-{game}")


@require_safe
def night_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponseBase:
    """A club night's standings across its tables (``scoring.night``)."""
    night = get_object_or_404(
        visible(ClubNight.objects.select_related("season__club"), request.user), pk=pk
    )
    method, boards = night_standings.boards(night)
    header = [_("Rank"), _("Player"), _("Total"), _("Points"), _("Matches"), _("Sat out")]
    several = len(boards) > 1  # one game's points never add to another's: a board per game
    rows: list[list[Cell]] = [
        [
            *([b.label] if several else []),
            *(x.rank, x.shown_name, x.total, None if b.mixed else x.points),
            *(x.matches, x.sat_out),
        ]
        for b in boards
        for x in b.lines
    ]
    if several:
        header = [_("Game"), *header]
    title = [
        f"{night.season.club.name} – {night.season.name}",
        f"{night_label(night)} · "
        + str(ClubNight.Standings(method).label)
        + " · "
        + exported_line(),
    ]
    document = Document(_("Standings"), title, header, rows)
    return download(document, fmt, f"night-{night.date:%Y-%m-%d}-{night.pk}-standings")


@require_safe
def night_seating(request: HttpRequest, pk: int, fmt: str) -> HttpResponseBase:
    """Who sat where, round by round, with the draw's own measures of each round in the
    title lines: the file ``manage.py check_draw`` (``ops/draw_check.py``) reads, whose
    columns ``docs/draw-check.md`` defines by position."""
    night = get_object_or_404(
        visible(ClubNight.objects.select_related("season__club"), request.user), pk=pk
    )
    rounds = seatings.of_night(night)
    ids = {p for r in rounds for group in (*r.tables, r.sat_out) for p in group}
    names = {
        p.pk: p.shown_name
        for p in Player.objects.filter(pk__in=ids).only("display_name", "name_ja")
    }
    title = [
        f"{night.season.club.name} – {night.season.name}",
        f"{night_label(night)} · " + _("Seating") + " · " + exported_line(),
        *seating_measures(rounds),
    ]
    document = Document(_("Seating"), title, seating_header(), seating_rows(rounds, names))
    return download(document, fmt, f"night-{night.date:%Y-%m-%d}-{night.pk}-seating")


def seating_header() -> list[str]:
    """The seating export's headings (in the reader's language: a reader of the file
    goes by the columns' positions, never by these words)."""
    return [_("Round"), _("Table"), _("Seat"), _("Player ID"), _("Player"), _("Note")]


def seating_rows(rounds: Sequence[seatings.Seated], names: Mapping[int, str]) -> list[list[Cell]]:
    """One row a seat (round, table 1, 2, … in the round's order, seat 1 = the first
    dealer, player id, name, empty), then one a player who sat out (table and seat empty)."""
    rows: list[list[Cell]] = []
    for r in rounds:
        for table, players in enumerate(r.tables, 1):
            for seat, player in enumerate(players, 1):
                rows.append([r.number, table, seat, player, names.get(player, ""), ""])
        for player in r.sat_out:
            rows.append([r.number, None, None, player, names.get(player, ""), _("Sat out")])
    return rows


def seating_measures(rounds: Sequence[seatings.Seated]) -> list[str]:
    """Each round's measures as the draw reports them (``tournaments.draw_measures``), in words."""
    lines = []
    for r, m in zip(rounds, draw_measures.by_round([r.tables for r in rounds]), strict=True):
        label = _("Round %(n)s") % {"n": r.number} if r.number else _("Tables")
        words = _(
            "most times a pair met: %(most_met)s · excess meetings: %(excess)s · "
            "consecutive repeats: %(consecutive)s · players off seat balance: %(seat_off)s · "
            "off balance in seat 1: %(first_seat_off)s"
        )
        lines.append(f"{label}: " + words % m.as_json())
    return lines
