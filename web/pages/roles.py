"""What the home page shows each role first: a scorer the tables to score, a member
their matches and standing and their club's next nights, a league administrator
tonight's tables and what waits."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Prefetch, Q
from django.utils import timezone

from scoring.models import SeasonStanding
from scoring.players import on_their_boards
from tournaments import access, table_links
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    Match,
    Membership,
    Player,
    Season,
    Seat,
    Table,
    deal_count,
    waiting_deals,
)

TONIGHT = 100
"""At most this many of tonight's matches on an administrator's home page."""
MY_TABLES = 10
"""The open tables a scorer keeps listed on their home page, tonight's first."""
NEXT_NIGHTS = 3
"""The nights after tonight named on an administrator's home page, and on a player's."""


def for_user(user: Any) -> dict[str, Any]:
    if not user.is_authenticated:
        return {}
    today = timezone.localdate()
    tables = access.scored_tables(Table.objects.all(), user)
    open_matches = (
        Match.objects.filter(table__in=tables, status=Match.Status.OPEN)
        .select_related("table__club_night__season__club", "table__round")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        .annotate(played=deal_count())
        .order_by("-table__club_night__date", "-table__club_night_id", "table__name")
    )
    mine = list(Player.objects.filter(user=user))
    scored = [(m, m.played + 1) for m in open_matches.filter(table__scorer=user)[: MY_TABLES + 1]]
    listed = scored[:MY_TABLES]  # one more read than listed: "more are open" said uncounted
    yesterday = today - dt.timedelta(days=1)  # a night past midnight is still tonight
    # The clubs the user is a league administrator of (a site operator sees their own
    # clubs here, not every club of a federation).
    clubs = Club.objects.filter(memberships__user=user, memberships__role=Membership.Role.ADMIN)
    context: dict[str, Any] = {
        # Tonight's tables (and those of nights to come) first; one left open on an earlier
        # night is listed apart, under them, for a table that never finished.
        "my_tables": [(m, n) for m, n in listed if m.table.club_night.date >= yesterday],
        "my_earlier_tables": [(m, n) for m, n in listed if m.table.club_night.date < yesterday],
        "more_tables": len(scored) > MY_TABLES,
        # The latest ten, from the index of a player's seats, shown by their nights' dates
        # (a season imported after the nights it keeps made its matches out of order).
        "my_matches": sorted(
            Match.objects.filter(seats__player__in=mine)
            .select_related("table__club_night", "table__round")
            .order_by("-pk")[:10],
            key=lambda m: (m.table.club_night.date, m.pk),
            reverse=True,
        ),
        # Each said on the board the player reads: their division's, in a season of them.
        "my_standings": on_their_boards(
            SeasonStanding.objects.filter(player__in=mine)
            .select_related("season", "player")
            .order_by("-season__starts_on", "game")
        ),
        # A club night of today or yesterday where the user played: their own night first.
        "my_nights": _my_nights(mine, today),
        # Their clubs' nights to come, each with its "my night" (to be told of the draw).
        "my_next_nights": list(
            ClubNight.objects.filter(season__club__in=[p.club_id for p in mine], date__gt=today)
            .select_related("season")
            .order_by("date", "pk")[:NEXT_NIGHTS]
        )
        if mine
        else [],
        "administered": list(clubs),
        "scores_for": list(
            Club.objects.filter(memberships__user=user, memberships__role=Membership.Role.SCORER)
        ),
    }
    if context["administered"]:
        in_clubs = Q(table__club_night__season__club__in=clubs)
        # Tonight is yesterday and today (a night that goes on past midnight), not every
        # night planned; the next few nights are named, their tables are on their pages.
        nights = ClubNight.objects.filter(season__club__in=clubs)
        tonight = nights.filter(date__range=(today - dt.timedelta(days=1), today))
        context["tonight"] = (
            Match.objects.filter(table__club_night__in=list(tonight.values_list("pk", flat=True)))
            .select_related("table__club_night", "table__scorer", "table__round")
            .annotate(played=deal_count(), **table_links.phone_scorer("table"))
            .order_by("table__club_night__date", "table__club_night_id", "table__name")[:TONIGHT]
        )
        context["next_nights"] = nights.filter(date__gt=today).order_by("date", "pk")[:NEXT_NIGHTS]
        # From the seasons that ask for a second person (a few), not from every deal of
        # the clubs: a deal of another season is never waiting.
        asking = Season.objects.filter(club__in=clubs, require_confirmation=True)
        context["pending"] = Deal.objects.filter(
            waiting_deals(),
            match__table__club_night__season__in=list(asking.values_list("pk", flat=True)),
        ).select_related("match__table__club_night", "match__table__round")[:20]
        context["unfinished"] = Match.objects.filter(in_clubs, status=Match.Status.OPEN).count()
    return context


def _my_nights(mine: list[Player], today: dt.date) -> list[tuple[ClubNight, Player]]:
    """Tonight's nights (today's and yesterday's) where one of the user's players is
    seated, each with that player (a player is one club's)."""
    players = {p.club_id: p for p in mine}
    nights = (
        ClubNight.objects.filter(
            date__range=(today - dt.timedelta(days=1), today),
            tables__matches__seats__player__in=mine,
        )
        .select_related("season")
        .distinct()
        .order_by("-date", "-pk")[:2]
    )
    return [(night, players[night.season.club_id]) for night in nights]
