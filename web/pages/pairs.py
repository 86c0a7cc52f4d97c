"""Who sat with whom (issue 57): the secretary's matrix of the night's players, each
pair's rounds at one table tonight, or this season (``?season=1``), from the rounds as
seated (``tournaments.seatings``).  The night's players: everyone seated or sitting out
in its rounds, and the attendance taken."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from scoring import draw_figures
from tournaments import draw_measures, seatings
from tournaments.models import ClubNight, Player
from tournaments.names import reading_order
from web.pages.getters import administered_night


def _players(night: ClubNight, tonight: list[seatings.Seated]) -> list[Player]:
    ids = {p for r in tonight for t in r.tables for p in t}
    ids |= {p for r in tonight for p in r.sat_out}
    ids |= set(night.present.values_list("pk", flat=True))
    return reading_order(Player.objects.filter(club_id=night.season.club_id, pk__in=ids))


def matrix(players: list[Player], rounds: list[seatings.Seated]) -> list[dict[str, Any]]:
    """One row a player: their number, the player, and each pair's rounds together
    (``None`` on the diagonal)."""
    met = draw_measures.meetings([r.tables for r in rounds])
    return [
        {
            "number": i,
            "player": p,
            "cells": [
                None if p.pk == q.pk else met.get(frozenset((p.pk, q.pk)), 0) for q in players
            ],
        }
        for i, p in enumerate(players, 1)
    ]


@login_required
@require_http_methods(["GET"])
def night_pairs(request: HttpRequest, pk: int) -> HttpResponse:
    night = administered_night(request, pk)
    season = request.GET.get("season") == "1"
    tonight = seatings.of_night(night)
    rounds = seatings.of_season(night.season) if season else tonight
    players = _players(night, tonight)
    return render(
        request,
        "pages/setup/pairs.html",
        {
            "night": night,
            "season": season,
            "players": players,
            "rows": matrix(players, rounds),
            "figures": draw_figures.figures(rounds, season=season),
            "rounds": len(rounds),
            "bad": draw_figures.MOST_MET_BAD,
        },
    )
