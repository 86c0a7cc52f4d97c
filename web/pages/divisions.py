"""A season's divisions, set by its league administrator, and its closing: the moves
proposed by the season's rule, changed by hand, confirmed (``tournaments.divisions`` and
``scoring.divisions`` do the work; the API calls the same)."""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring import divisions as ranked
from tournaments import divisions
from tournaments.messages import localize
from tournaments.models import Move, MovesBy, Player
from tournaments.names import reading_order
from tournaments.records import Rejection
from tournaments.textfile import whole_number
from web.pages.getters import administered_season


@login_required
@require_http_methods(["GET", "POST"])
def season_divisions(request: HttpRequest, pk: int) -> HttpResponse:
    """The divisions' names, each player's division and the closing rule, in one form."""
    season = administered_season(request, pk)
    players = reading_order(Player.objects.filter(club_id=season.club_id))
    placed = {p: d.name for p, d in divisions.placed(season).items()}
    stored = list(season.divisions.order_by("order").values_list("name", flat=True))
    names = " ".join(stored)
    problems: list[str] = []
    rule = {"moves_by": season.moves_by, "moves": season.moves}
    if request.method == "POST":
        names = request.POST.get("names", "")[:500]
        placed = {
            p.pk: request.POST.get(f"player-{p.pk}", "")[:40]
            for p in players
            if request.POST.get(f"player-{p.pk}")
        }
        moves = whole_number(request.POST.get("moves"))
        rule = {"moves_by": request.POST.get("moves_by", ""), "moves": moves}
        try:
            # The selects name the divisions as they were when the page was drawn.
            kept = divisions.carried(placed, stored, divisions.division_names(names))
            divisions.set_divisions(
                season, names, kept, moves_by=rule["moves_by"], moves=rule["moves"]
            )
        except Rejection as refused:
            problems = [localize(e) for e in refused.errors]
        else:
            messages.success(
                request, _("The divisions of %(season)s are saved.") % {"season": season.name}
            )
            return redirect("season_divisions", pk=season.pk)
    return render(
        request,
        "pages/setup/divisions.html",
        {
            "season": season,
            "names": names,
            "division_names": names.replace(",", " ").split()[: divisions.MOST_DIVISIONS],
            "players": [(p, placed.get(p.pk, "")) for p in players],
            "rule": rule,
            "moves_by": MovesBy.choices,
            "problems": problems,
        },
        status=400 if problems else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_close(request: HttpRequest, pk: int) -> HttpResponse:
    """The moves the season's rule proposes, each changeable, and the next season's name;
    confirmed once (a second confirmation shows the moves made the first time)."""
    season = administered_season(request, pk)
    problems: list[str] = []
    lines = ranked.lines(season) if season.closed_at is None else []
    next_name = ""
    if request.method == "POST":
        next_name = request.POST.get("next_season", "")[:300]
        choices = {
            str(line.player.pk): request.POST.get(f"move-{line.player.pk}", line.going)[:40]
            for line in lines
        }
        try:
            closed = ranked.close(season, next_name, choices)
        except Rejection as refused:
            problems = [localize(e) for e in refused.errors]
            lines = [replace(line, going=choices[str(line.player.pk)]) for line in lines]
        else:
            if not closed.again:
                messages.success(
                    request,
                    _("%(season)s is closed: its players are placed in %(next)s.")
                    % {"season": season.name, "next": closed.next_season.name},
                )
            return redirect("season_close", pk=season.pk)
    division_names = list(season.divisions.order_by("order").values_list("name", flat=True))
    return render(
        request,
        "pages/setup/close.html",
        {
            "season": season,
            "lines": lines,
            "moves": ranked.made(season) if season.closed_at else [],
            "kinds": dict(Move.Kind.choices),
            "division_names": division_names,
            "next_name": next_name,
            "problems": problems,
        },
        status=400 if problems else 200,
    )
