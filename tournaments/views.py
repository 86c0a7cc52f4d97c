"""Server-rendered pages: the league, the score sheets and the table-side deal entry."""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.charts import line_chart
from scoring.models import Rating, SeasonStanding
from scoring.queries import matches_with_standings, readable_match
from scoring.ratings import by_rating, rating_chart, with_ratings
from scoring.sheets import match_sheet, season_chart
from tournaments import access, actions
from tournaments.access import visible
from tournaments.forms import DealEntryForm
from tournaments.models import ClubNight, Deal, DealVersion, Match, Player, Season

CARD_PAD = [s + r for s in "SHDC" for r in ("A", "10", "J", "Q", "K")] + ["JK"]
"""The cards a Comp-13 entry needs: the twenty face cards and the joker."""


def healthz(request: HttpRequest) -> HttpResponse:
    """For a load balancer: the process answers (no database, no session)."""
    return HttpResponse("ok", content_type="text/plain")


def home(request: HttpRequest) -> HttpResponse:
    """The seasons, the club nights and the latest matches with standings."""
    user = request.user
    seasons = visible(Season.objects.select_related("club"), user).order_by("club__name", "name")
    nights = visible(ClubNight.objects.select_related("season"), user).order_by("-date")[:10]
    matches = visible(matches_with_standings(), user).order_by("-created_at", "-pk")[:12]
    return render(
        request, "tournaments/home.html", {"seasons": seasons, "nights": nights, "matches": matches}
    )


def season_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A leaderboard and a cumulative-points plot per game."""
    season = get_object_or_404(visible(Season.objects.select_related("club"), request.user), pk=pk)
    sort = "rating" if request.GET.get("sort") == "rating" else "points"
    rows = SeasonStanding.objects.filter(season=season).select_related("player")
    rows = by_rating(rows) if sort == "rating" else with_ratings(rows).order_by("game", "rank")
    boards: dict[str, list[SeasonStanding]] = defaultdict(list)
    for row in rows:
        boards[row.game].append(row)
    games = [
        {
            "game": game,
            "rows": boards.get(game, []),
            "chart": line_chart(season_chart(season, game=game), title=f"{season.name} – {game}"),
        }
        for game in season.games
    ]
    nights = season.club_nights.order_by("date")
    return render(
        request,
        "tournaments/season.html",
        {"season": season, "games": games, "nights": nights, "sort": sort},
    )


def club_night_detail(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(
        visible(ClubNight.objects.select_related("season__club"), request.user), pk=pk
    )
    matches = matches_with_standings().filter(table__club_night=night).order_by("table__name", "pk")
    return render(request, "tournaments/club_night.html", {"night": night, "matches": matches})


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The match's score sheet: deals as rows, players as columns, running totals."""
    match = readable_match(request.user, pk)
    sheet = match_sheet(match)
    corrections = (
        DealVersion.objects.filter(deal__match=match)
        .select_related("deal", "changed_by")
        .order_by("-changed_at", "-pk")
    )
    return render(
        request,
        "tournaments/match.html",
        {
            "match": match,
            "sheet": sheet,
            "corrections": corrections,
            "may_score": access.scores_table(request.user, match.table),
            "may_confirm": access.can_confirm(request.user, match),
        },
    )


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's matches and points over time, per season and game."""
    user = request.user
    player = get_object_or_404(visible(Player.objects.select_related("club"), user), pk=pk)
    matches = (
        visible(matches_with_standings(), user)
        .filter(seats__player=player)
        .order_by("-table__club_night__date", "-pk")
    )
    charts = []
    for season in visible(Season.objects.filter(club=player.club), user).order_by("-starts_on"):
        for game in season.games:
            chart = season_chart(season, game=game, player=player)
            if chart.series:
                charts.append({"season": season, "game": game,
                               "svg": line_chart(chart, title=f"{player.display_name} – {game}")})  # fmt: skip
    ratings = []
    for rating in Rating.objects.filter(player=player).order_by("game"):
        chart = rating_chart(player, rating.game)
        ratings.append({"rating": rating, "svg": line_chart(chart, title=f"{player.display_name} – {rating.game}")})  # fmt: skip
    return render(
        request,
        "tournaments/player.html",
        {"player": player, "matches": matches, "charts": charts, "ratings": ratings},
    )


@login_required
@require_http_methods(["GET", "POST"])
def deal_entry(request: HttpRequest, pk: int) -> HttpResponse:
    """Table-side entry of the match's next deal, checked by the engine."""
    match = get_object_or_404(
        visible(
            Match.objects.select_related("table__club_night__season").prefetch_related(
                "seats__player"
            ),
            request.user,
        ),
        pk=pk,
    )
    if not access.scores_table(request.user, match.table):
        raise PermissionDenied(
            _("Only this table's scorer or a league administrator enters its deals.")
        )
    next_number = match.deals.count() + 1
    if request.method == "POST":
        form = DealEntryForm(request.POST, request.FILES, match=match)
        if form.is_valid():
            record = form.record()
            if form.is_valid():
                try:
                    deal = actions.enter_deal(
                        match, record, user=request.user, number=form.cleaned_data.get("number")
                    )
                except actions.Rejection as rejection:
                    form.attach_engine_errors(rejection.errors)
                else:
                    scores = ", ".join(
                        f"{s.player.display_name} {s.score:+d}"
                        for s in deal.scores.select_related("player")
                    )
                    messages.success(
                        request,
                        _("Deal %(n)s saved: %(scores)s") % {"n": deal.number, "scores": scores},
                    )
                    return redirect("match", pk=match.pk)
    else:
        form = DealEntryForm(match=match, initial={"number": next_number})
    sheet = match_sheet(match)
    return render(
        request,
        "tournaments/deal_entry.html",
        {
            "match": match,
            "form": form,
            "sheet": sheet,
            "next_number": next_number,
            "card_pad": CARD_PAD,
        },
    )


@login_required
@require_http_methods(["POST"])
def confirm_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The match page's confirm button for a pending deal."""
    deal = get_object_or_404(visible(Deal.objects.select_related("match"), request.user), pk=pk)
    if not access.can_confirm(request.user, deal.match):
        raise PermissionDenied(
            _("Only a scorer, an administrator or a seated player confirms deals.")
        )
    try:
        actions.confirm_deal(deal, request.user)
    except actions.Rejection as rejection:
        messages.error(request, str(rejection))
    else:
        messages.success(request, _("Deal %(n)s confirmed.") % {"n": deal.number})
    return redirect("match", pk=deal.match_id)
