"""What a season announced, made into events (``reach.sources`` reads the rest, and
names every kind): its standings changed (for the club's webhooks alone), and the
season closed (each player's move, the final's champions)."""

from __future__ import annotations

import hashlib

from django.urls import reverse

from reach import words
from reach.events import Event, Said
from reach.models import Endpoint
from scoring import finals
from scoring.models import SeasonStanding
from tournaments.models import Deal, DealVersion, Move, Season


def standings_changed(ids: dict[str, int]) -> list[Event]:
    season = Season.objects.filter(pk=ids["season"]).first()
    if season is None:
        return []
    endpoints = Endpoint.objects.filter(club_id=season.club_id, active=True)
    if not any(
        "standings.changed" in (e or []) for e in endpoints.values_list("events", flat=True)
    ):
        return []  # nobody listens: the standings are not read for nothing
    rows = SeasonStanding.objects.filter(season=season).order_by("game", "rank", "player_id")
    every = list(rows.values_list("game", "rank", "player_id", "total", "score"))
    leaders = [
        {"game": x.game, "rank": x.rank, "player": x.player.display_name, "total": x.total}
        for x in rows.filter(rank__lte=3).select_related("player")
    ]
    # What the standings say, and how many changes the season has seen: standings that
    # come back to what was once sent are sent again; a refresh that changed nothing is not.
    of_season = {"match__table__club_night__season": season}
    changes = (
        Deal.objects.filter(**of_season).count()
        + DealVersion.objects.filter(**{f"deal__{k}": v for k, v in of_season.items()}).count()
    )
    seen = hashlib.sha256(repr((changes, every)).encode()).hexdigest()[:32]
    data = {
        "season": season.pk,
        "season_name": season.name,
        "url": reverse("season", args=[season.pk]),
        "leaders": leaders,
    }
    key = f"standings.changed:{season.pk}:{seen}"
    return [Event(key, "standings.changed", season.club_id, season.pk, None, data)]


def season_closed(ids: dict[str, int]) -> list[Event]:
    season = Season.objects.filter(pk=ids["season"], closed_at__isnull=False).first()
    if season is None:
        return []
    page = reverse("season", args=[season.pk])
    told = [
        Said(m.player_id, "season", page, words.moved(season.name, m.kind, m.next_division))
        for m in Move.objects.filter(season=season).exclude(kind=Move.Kind.LEFT)
    ]
    final = finals.season_final(season)
    champions = final.champions if final else []
    told += [Said(p.pk, "season", page, words.champion(season.name)) for p in champions]
    data = {
        "season": season.pk,
        "season_name": season.name,
        "url": page,
        "next_season": season.next_season_id,
        "champions": [p.display_name for p in champions],
        "moves": [
            {"player": m.player.display_name, "kind": m.kind, "next_division": m.next_division}
            for m in Move.objects.filter(season=season).select_related("player")
        ],
    }
    key = f"season.closed:{season.pk}"
    return [Event(key, "season.closed", season.club_id, season.pk, None, data, tuple(told))]
