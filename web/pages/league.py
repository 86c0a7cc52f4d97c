"""Server-rendered pages of the league: seasons, club nights, score sheets, players."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from actions import confirmation, nights
from dbtools import probes
from reach.models import PushKind
from scoring import finals, leaderboard
from scoring import night as night_standings
from scoring.charts import line_chart
from scoring.players import season_numbers
from scoring.queries import matches_with_standings, readable_match
from scoring.ratings import rating_charts, ratings_of, scope_for
from scoring.sheets import NO_CHART, match_sheet, player_charts
from tournaments import access, history, progress, ranking, table_links
from tournaments import divisions as division_rules
from tournaments.access import visible
from tournaments.games import LEAGUE_GAMES, label
from tournaments.models import (
    ClubNight,
    DealVersion,
    Division,
    Match,
    Move,
    Placement,
    Player,
    Season,
    waiting_deals,
)
from web.pages import roles
from web.pages.calendars import subscribe_links
from web.previews import link_preview


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness: the process answers (no database, no session).  A load balancer asks
    ``/readyz``, which also asks the database."""
    return HttpResponse("ok", content_type="text/plain")


@never_cache
@require_safe
def readyz(request: HttpRequest) -> HttpResponse:
    """Readiness, for a load balancer: 200 when the database answers (one ``SELECT 1``),
    503 when it does not, so that the balancer sends the traffic to other web processes
    until it does again (docs/operations.md)."""
    if probes.database_answers():
        return HttpResponse("ok", content_type="text/plain")
    return HttpResponse("database unavailable", status=503, content_type="text/plain")


HOME_SEASONS = 20
"""Seasons listed on the home page, the latest first (a federation has hundreds)."""


@gzip_page  # no secret but the masked CSRF token (docs/security.md, BREACH)
@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The seasons, the club nights and the latest matches with standings."""
    user = request.user
    seasons = list(
        visible(Season.objects.select_related("club"), user).order_by(
            F("starts_on").desc(nulls_last=True), "club__name", "name", "pk"
        )[: HOME_SEASONS + 1]
    )
    nights = visible(ClubNight.objects.select_related("season"), user).order_by("-date", "-pk")[:10]
    # The latest nights' matches, whenever they were entered (an import of last season's
    # sheets is not "latest"), and none of a night still to come: PostgreSQL walks the
    # nights' date index back from today and stops at the twelfth (the pages bench).
    played = matches_with_standings().filter(table__club_night__date__lte=timezone.localdate())
    matches = visible(played.select_related("table__round"), user).order_by(
        "-table__club_night__date", "-created_at", "-pk"
    )[:12]
    context = {
        "seasons": seasons[:HOME_SEASONS],
        "more_seasons": len(seasons) > HOME_SEASONS,
        "home_seasons": HOME_SEASONS,
        "nights": nights,
        "matches": matches,
        **roles.for_user(user),
    }
    return render(request, "pages/home.html", context)


@gzip_page
@require_safe
def season_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The season's leaderboards, a page of each at a time (``?game=&page=``), by points or
    by rating (``?sort=rating``), searched by name (``?q=``), with the reader's own line
    and a plot per game of the leaders and the reader (``scoring.leaderboard``)."""
    season = get_object_or_404(visible(Season.objects.select_related("club"), request.user), pk=pk)
    by_rating = request.GET.get("sort") == "rating"
    search = request.GET.get("q", "").strip()[:100]
    game = request.GET.get("game", "")
    page = _number(request.GET.get("page"))
    reader = None
    if request.user.is_authenticated:
        reader = Player.objects.filter(user=request.user, club=season.club_id).first()
    divisions = list(season.divisions.order_by("order"))
    division = _division(request, season, divisions, reader)
    found = leaderboard.boards(
        season,
        scope_for(request.user, season.club_id),
        by_rating=by_rating,
        game=game,
        page=page,
        search=search,
        reader=reader,
        division=division,
    )
    chosen = (division.name if division else "all") if divisions else ""
    keep = {"sort": "rating" if by_rating else "", "q": search, "division": chosen}

    def href(board: leaderboard.Board, page: int) -> str:
        query = urlencode(
            {k: v for k, v in {**keep, "game": board.game, "page": page}.items() if v}
        )
        return f"?{query}#game-{board.game}"

    games = [
        {
            "board": board,
            "game": board.game,
            "previous": href(board, board.page - 1) if board.page > 1 else "",
            "next": href(board, board.page + 1) if board.page < board.pages else "",
            "mine": [
                (row, href(board, leaderboard.page_of(leaderboard.place(row)))) for row in board.me
            ],
            "chart": line_chart(board.chart, title=f"{season.name} – {label(board.game)}")
            if board.chart
            else "",
        }
        for board in found
    ]
    nights = list(season.club_nights.order_by("date", "pk"))
    today = timezone.localdate()  # the latest night held: not one to come, nor one called off
    latest = next((n for n in reversed(nights) if n.date <= today and not n.cancelled_at), None)
    rule = ranking.Rule.of(season)
    return render(
        request,
        "pages/season.html",
        {
            "season": season,
            "games": games,
            "nights": nights,
            "latest": latest,
            "sort": "rating" if by_rating else "points",
            "search": search,
            "reader": reader,
            "leaders": leaderboard.LEADERS,
            "ranking": rule,
            "final": finals.season_final(season, division),
            "next_season": division_rules.next_season_shown(season, request.user),
            "divisions": divisions,
            "division": division,
            "division_query": f"&division={quote(chosen)}" if chosen else "",
            "columns": 7 if rule.method == ranking.Method.TOTAL else 8,
            "link_preview": link_preview(request, season),
        },
    )


def _division(
    request: HttpRequest, season: Season, divisions: list[Division], reader: Player | None
) -> Division | None:
    """The division whose boards the page shows (``?division=``; ``all``: the whole
    season): by default the reader's own, else the top one."""
    if not divisions:
        return None
    wanted = request.GET.get("division", "")
    if wanted == "all":
        return None
    named = next((d for d in divisions if d.name == wanted), None)
    if named is None and reader is not None:
        own = set(
            Placement.objects.filter(season=season, player=reader).values_list(
                "division_id", flat=True
            )
        )
        named = next((d for d in divisions if d.pk in own), None)
    return named or divisions[0]


def _number(text: str | None) -> int:
    """A page number from the query string (1 for anything else)."""
    return int(text) if text and text.isdigit() and len(text) < 7 else 1


@require_safe
def club_night_detail(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(
        visible(ClubNight.objects.select_related("season__club"), request.user), pk=pk
    )
    matches = (
        matches_with_standings()
        .filter(table__club_night=night)
        .select_related("table__round")
        .order_by("table__round__number", "table__name", "pk")
    )
    method, boards = night_standings.boards(night)
    may_administer = access.can_administer(request.user, night)
    return render(
        request,
        "pages/club_night.html",
        {
            "night": night,
            "matches": matches,
            "boards": [b for b in boards if b.lines],
            "method": ClubNight.Standings(method).label,
            # The raw points beside the total only where the total is table ranks' points
            # (by raw points the two columns would say the same).
            "raw_beside": method == ClubNight.Standings.RANKS,
            "in_rounds": night.rounds.exists(),
            "waiting": night_standings.waiting(night),
            "may_administer": may_administer,
            "may_call_off": may_administer and not nights.has_deals(night),
            "told_kind": PushKind.DRAWN.label,  # the players' setting a call-off tells
            "link_preview": link_preview(request, night),
        },
    )


@require_safe
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The match's score sheet: deals as rows, players as columns, running totals."""
    match = readable_match(request.user, pk)
    sheet = match_sheet(match)
    stored = list(match.deals.order_by("number").only("pk", "number", "deleted_at", "match_id"))
    return render(
        request,
        "pages/match.html",
        {
            "match": match,
            "progress": progress.said(match),
            "sheet": sheet,
            "history": _timeline(match),
            "club": access.club_id(match),
            "may_score": access.scores_table(request.user, match.table),
            "confirmable": _confirmable(request, match),
            "may_administer": access.can_administer(request.user, match),
            "deals": [d for d in stored if d.deleted_at is None],
            "deleted": [d for d in stored if d.deleted_at is not None],
            "link_preview": link_preview(request, match),
        },
    )


def _confirmable(request: HttpRequest, match: Match) -> set[int]:
    """The pending deals the reader may confirm (``actions.confirmation``)."""
    if not request.user.is_authenticated:
        return set()
    who = confirmation.Confirmer(user=request.user, holder=table_links.holder(request.session))
    pending = match.deals.filter(waiting_deals())
    return confirmation.confirmable(match, pending, who)


def _readable_history(match: Match) -> list[dict[str, Any]]:
    """The match's corrections as people read them: what each changed,
    field by field, and its effect on the leaderboard, players by their names."""
    names = {p.handle: p.shown_name for p in match.seated_players()}
    game = LEAGUE_GAMES.get(match.game)
    versions = list(
        DealVersion.objects.filter(deal__match=match)
        .select_related("deal", "changed_by", "confirmed_by")
        .order_by("deal_id", "changed_at", "pk")
    )
    out = []
    for i, version in enumerate(versions):
        later = versions[i + 1] if i + 1 < len(versions) else None
        after = (
            later.record_before
            if later and later.deal_id == version.deal_id
            else version.deal.record
        )
        changed, more = history.changes(version.record_before, after, names, game)
        effect = [
            {**line, "player": names.get(line["player"], line["player"])} for line in version.effect
        ]
        out.append({"version": version, "changes": changed, "more": more, "effect": effect})
    return out


def _timeline(match: Match) -> list[dict[str, Any]]:
    """The match's history as one timeline, newest first: corrections (each with what it
    changed) and the match's events (ended, reopened) together, in the order they were made."""
    events = [{"event": e, "at": e.changed_at} for e in match.events.select_related("changed_by")]
    corrections = [{**c, "at": c["version"].changed_at} for c in _readable_history(match)]
    return sorted([*events, *corrections], key=lambda item: item["at"], reverse=True)


LATEST_MATCHES = 20
"""Matches listed on a player's page (the last created first: an index of the seats)."""


@gzip_page
@require_safe
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's latest matches and points over time, per season and game: the same
    queries however many seasons, games and deals (each kind of row is one query)."""
    user = request.user
    players = Player.objects.select_related("club").annotate(
        public=access.seen_by_anyone(), member=access.in_the_club(user)
    )
    player = get_object_or_404(visible(players, user), pk=pk)
    matches = (
        visible(Match.objects.select_related("table__club_night", "table__round"), user)
        .filter(seats__player=player)
        .order_by("-pk")[:LATEST_MATCHES]
    )
    seasons = list(visible(Season.objects.filter(club=player.club), user).order_by("-starts_on"))
    points = player_charts(player, seasons)
    charts = [
        {
            "season": season,
            "game": game,
            "svg": line_chart(chart, title=f"{player.shown_name} – {label(game)}"),
        }
        for season in seasons
        for game in season.games
        if (chart := points.get((season.pk, game)))
    ]
    scope = scope_for(user, player.club_id)
    by_game = rating_charts(player, scope)
    ratings = [
        {
            "rating": rating,
            "svg": line_chart(
                by_game.get(rating.game, NO_CHART),
                title=f"{player.shown_name} – {label(rating.game)}",
            ),
        }
        for rating in ratings_of(player, scope)
    ]
    return render(
        request,
        "pages/player.html",
        {
            "player": player,
            "matches": matches,
            "charts": charts,
            "ratings": ratings,
            "numbers": season_numbers(player, seasons),
            "divisions": _divisions_of(player, seasons),
            "link_preview": link_preview(request, player),
            # A calendar app asks without the reader's cookies: the player's own feed for a
            # player anyone may read; a member's own secret address otherwise.
            "calendar": (
                subscribe_links(request, reverse("player_feed", args=[player.pk]))
                if player.public  # type: ignore[attr-defined]  # annotated above
                else None
            ),
        },
    )


def _divisions_of(player: Player, seasons: list[Season]) -> list[dict[str, Any]]:
    """The player's division in each season that has one, and the move made when it
    closed (two queries however many seasons); the next season's division only when that
    season is one of ``seasons``, those the reader may read."""
    placed = {
        p.season_id: p.division.name
        for p in Placement.objects.filter(player=player, season__in=seasons).select_related(
            "division"
        )
    }
    moves = {m.season_id: m for m in Move.objects.filter(player=player, season__in=seasons)}
    readable = {s.pk for s in seasons}
    out = []
    for s in seasons:
        move = moves.get(s.pk)
        if s.pk not in placed and move is None:
            continue
        going = move.next_division if move and move.next_season_id in readable else ""
        division = placed.get(s.pk) or (move.division if move else "")
        out.append({"season": s, "division": division, "move": move, "next_division": going})
    return out
