"""A season's divisions, set by its league administrator, and its closing: the moves
proposed by the season's rule, changed by hand, confirmed (``tournaments.divisions`` and
``scoring.divisions`` do the work; the API calls the same)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

import actions.divisions
import actions.seasons
from scoring import division_rules
from scoring import divisions as ranked
from tournaments import divisions
from tournaments.errors import Rejection
from tournaments.games import LEAGUE_GAMES
from tournaments.messages import localize
from tournaments.models import Move, MovesBy, Player, Season
from tournaments.names import reading_order
from tournaments.textfile import whole_number
from web.pages.getters import administered_season


@login_required
@require_http_methods(["GET", "POST"])
def season_divisions(request: HttpRequest, pk: int) -> HttpResponse:
    """The divisions' names, each player's division and the closing rule, in one form; a
    rule (``scoring.division_rules``) fills the players' divisions for review, storing
    nothing, and Save stores the form (the same form saved twice: the same divisions)."""
    season = administered_season(request, pk)
    players = reading_order(Player.objects.filter(club_id=season.club_id))
    placed = {p: d.name for p, d in divisions.placed(season).items()}
    stored = list(season.divisions.order_by("order").values_list("name", flat=True))
    names = " ".join(stored)
    drawn = names
    problems: list[str] = []
    filled: list[str] = []
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
        # The selects name the divisions as they were when the page was drawn.
        before = request.POST.get("drawn", drawn)[:500].split()
        try:
            if "rule" in request.POST:
                wanted = actions.divisions.division_names(names)
                by_rule = _by_rule(request, season, wanted, [p.pk for p in players], placed)
                placed, drawn = by_rule.places, " ".join(wanted)
                filled = _said(by_rule, wanted, players)
            else:
                kept = actions.divisions.carried(
                    placed, before, actions.divisions.division_names(names)
                )
                actions.divisions.set_divisions(
                    season, names, kept, moves_by=rule["moves_by"], moves=rule["moves"]
                )
        except Rejection as refused:
            problems = [localize(e) for e in refused.errors]
            drawn = " ".join(before)
        else:
            if not filled:
                messages.success(
                    request, _("The divisions of %(season)s are saved.") % {"season": season.name}
                )
                return redirect("season_divisions", pk=season.pk)
    shown = names.replace(",", " ").replace("、", " ").split()[: divisions.MOST_DIVISIONS]
    game = division_rules.rated_game(season)
    return render(
        request,
        "pages/setup/divisions.html",
        {
            "season": season,
            "names": names,
            "drawn": drawn,
            "division_names": shown,
            "players": [(p, placed.get(p.pk, "")) for p in players],
            "rule": rule,
            "moves_by": MovesBy.choices,
            "problems": problems,
            "filled": filled,
            "rating_game": LEAGUE_GAMES[game].label if game in LEAGUE_GAMES else "",
            "season_before": division_rules.season_before(season),
        },
        status=400 if problems else 200,
    )


def _by_rule(
    request: HttpRequest,
    season: Season,
    names: list[str],
    everyone: list[int],
    placed: dict[int, str],
) -> division_rules.Filled:
    """The rule tapped, over the players in a division on the form (everyone, when nobody
    is in one yet)."""
    chosen, _sep, target = request.POST.get("rule", "")[:60].partition(":")
    players = [p for p in everyone if placed.get(p)] or everyone
    if chosen == "everyone":
        players = everyone
    return division_rules.fill(season, chosen, names, players, target)


def _said(filled: division_rules.Filled, names: list[str], players: list[Player]) -> list[str]:
    """What a rule did, in the reader's language: the rule, each division's count, who had
    nothing to rank them by."""
    by = {
        "everyone": _("Everyone in one division"),
        "last_season": _("By the final %(game)s standings of %(season)s"),
        "standings": _("By the %(game)s standings of %(season)s"),
        "rating": _("By rating in %(game)s"),
        "alternate": _("Alternately (A B B A…) by the %(game)s standings of %(season)s"),
    }[filled.rule]
    game = LEAGUE_GAMES[filled.game].label if filled.game in LEAGUE_GAMES else filled.game
    season = filled.by_season.name if filled.by_season else ""
    counts = Counter(filled.places.values())
    lines = [
        _("%(rule)s: %(counts)s. Check each player below, change any, then Save.")
        % {
            "rule": by % {"season": season, "game": game},
            "counts": " · ".join(
                _("%(division)s %(n)s") % {"division": d, "n": counts[d]} for d in names
            ),
        }
    ]
    name = {p.pk: p.shown_name for p in players}
    if filled.by_rating:
        lines.append(
            _("No standing yet, placed by their rating: %(names)s.")
            % {"names": ", ".join(name[p] for p in filled.by_rating)}
        )
    if filled.unranked:
        where = filled.places[filled.unranked[0]]
        text = (
            _("No standing or rating, dealt on in name order: %(names)s.")
            if filled.rule == "alternate"
            else _("No standing or rating, so placed in %(division)s: %(names)s.")
        )
        lines.append(
            text % {"division": where, "names": ", ".join(name[p] for p in filled.unranked)}
        )
    return lines


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
            closed = actions.seasons.close_season(season, next_name, choices)
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
