"""What the room display (``/nights/N/live/``, the API's ``live/``) shows of a club
night: the current round with each table's progress, the night's standings
(``scoring.night``), the latest deals, and each player's own lines for their phone
("my night"); with the ETag that says when any of it changed (``scoring.live_cache``
keeps the answer)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import Any

from django.db.models import Count, Max, Q, Sum
from django.utils.translation import get_language

from scoring import draw_figures
from scoring.night import Board, board_json, boards, waiting
from tournaments import progress
from tournaments.games import label
from tournaments.models import ClubNight, Deal, Match, Round, counting_deals
from tournaments.names import table_label, table_place


def etag(night: ClubNight, admin: bool) -> str:
    """What the display shows changes only when one of these does: the night's matches
    (every deal, correction, confirmation moves a version; standings written move the
    checked version; the deals that wait), its rounds, the reader's language and role."""
    matches = Match.objects.filter(table__club_night=night).aggregate(
        n=Count("id"),
        v=Sum("version"),
        c=Sum("checked_version"),
        f=Count("id", filter=Q(status=Match.Status.FINISHED)),
        # Unconfirmed deals (in any season): a confirmation changes what the display says.
        w=Count(
            "deals", filter=Q(deals__confirmed_at__isnull=True, deals__deleted_at__isnull=True)
        ),
    )
    rounds = night.rounds.aggregate(n=Count("id"), e=Max("ended_early_at"))
    seed = f"{night.pk}:{matches}:{rounds}:{get_language()}:{int(admin)}"
    return '"' + hashlib.sha256(seed.encode()).hexdigest()[:32] + '"'


def live(night: ClubNight, admin: bool) -> dict[str, Any]:
    """The room display's data: the current round with each table's progress, the
    night's standings, the latest deals; ``admin`` marks the tables that are behind."""
    current = night.rounds.order_by("-number").first()
    sitting = list(current.sat_out.all()) if current else []
    tables = night.tables.filter(round=current) if current else night.tables.all()
    matches = list(
        Match.objects.filter(table__in=tables)
        .select_related("table")
        .prefetch_related("seats__player")
        .annotate(entered=Count("deals", filter=Q(deals__deleted_at__isnull=True)))
        .order_by("table__name", "pk")
    )
    most = max((m.entered for m in matches), default=0)
    shown = [
        {
            "table": m.table_id,
            "name": table_label(m.table.name),
            "match": m.pk,
            "game": label(m.game),
            "players": [p.shown_name for p in m.seated_players()],
            "ids": [p.pk for p in m.seated_players()],
            "entered": m.entered,
            "length": m.target,
            # The game's own goal: "3 of 12 deals", "points to 500: leader 120", "1 of 3 players out".
            "progress": progress.said(m),
            "finished": m.status == Match.Status.FINISHED,
            **(
                {"behind": m.status == Match.Status.OPEN and most - m.entered >= 2} if admin else {}
            ),
        }
        for m in matches
    ]
    latest = (
        Deal.objects.filter(counting_deals(), match__table__club_night=night)
        .select_related("match__table__round")
        .prefetch_related("scores__player")
        .order_by("-entered_at", "-pk")[:6]
    )
    method, board_list = boards(night)
    return {
        "waiting": waiting(night),
        "night": {
            "id": night.pk,
            "date": night.date.isoformat(),
            "venue": night.venue,
            "club": night.season.club.name,
            "season": night.season.name,
        },
        "round": (
            {
                "number": current.number,
                "game": current.game,
                "game_label": label(current.game),
                "method": current.method,
                "method_label": str(Round.Method(current.method).label),
                "deals": current.deals,
                "sat_out": [p.shown_name for p in sitting],
                "sat_out_ids": [p.pk for p in sitting],
                # The draw's figures, the night up to this round (changed only when a
                # round is seated: the ETag's rounds and matches).
                "fairness": draw_figures.live_json(night),
            }
            if current
            else None
        ),
        "tables": shown,
        "standings": {
            "method": method,
            # A board nobody has played on yet has no rows ("no deal yet" on the
            # screen), not everyone "1st with 0".
            "boards": [board_json(board, LIVE_ROWS if board.begun else 0) for board in board_list],
        },
        # Every player's own lines (one a board), for each player's view of the night
        # (``my_night``).
        "players": _own_lines(board_list),
        "latest": [
            {
                "table": _table_of(d, current),
                "number": d.number,
                "scores": [[s.player.shown_name, s.score] for s in d.scores.all()],
            }
            for d in latest
        ],
    }


def _table_of(deal: Deal, current: Round | None) -> str:
    """Where a deal of the latest was played: its table, and its round where that is an
    earlier one than the round now on the screen (every round has its "Table 1")."""
    table = deal.match.table
    if table.round is not None and current is not None and table.round.number == current.number:
        return table_label(table.name)
    return table_place(table)


LIVE_ROWS = 30
"""The most lines of a board the room display shows (a night of up to 30 players whole;
beyond, the display says "top 30 of 42" and each player finds their place on their
phone)."""


def _own_lines(shown: list[Board]) -> dict[str, list[dict[str, Any]]]:
    """Each player's place on each board that has begun (``Board.begun``): the player's
    night says "no deal yet" for the others.  A player who has not played on a begun
    board (or whose deals all wait for confirmation) keeps their line, ``unplaced``: the
    page says that nothing of theirs counts yet, beside what waits, not a rank."""
    own: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for board in shown:
        if not board.begun:
            continue
        for line in board.lines:
            own[str(line.player)].append(
                {
                    "game_label": board.label if len(shown) > 1 else "",
                    "rank": line.rank,
                    "total": line.total,
                    "of": len(board.lines),
                    # Not played yet (or only deals that wait): no place, as on the board.
                    "unplaced": not line.begun,
                }
            )
    return dict(own)
