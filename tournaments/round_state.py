"""Where a night in rounds stands: its current round, that round's open matches and the
deals that wait for a confirmation, who plays next by default.  Read by the actions
that draw and seat rounds (``actions.rounds``) and by the pages that show them."""

from __future__ import annotations

from collections.abc import Collection

import engine
from tournaments.models import ClubNight, Deal, Match, Player, Round, Seat, waiting_deals


def open_ended(game: str) -> bool:
    """A game with no end of its own: a round gives its matches a number of deals."""
    rules = engine.GAMES[game]
    return bool(rules.accepts_target and rules.default_target is None)


def current(night: ClubNight) -> Round | None:
    return night.rounds.order_by("-number").first()


def unfinished(round_: Round) -> list[Match]:
    return list(
        Match.objects.filter(table__round=round_, status=Match.Status.OPEN).select_related("table")
    )


def waiting(round_: Round) -> list[Deal]:
    """The round's deals that wait for a second person's confirmation (a season that asks
    for it): until they are confirmed the round is not finished, and the next round is not
    drawn (its Swiss order and final table come from confirmed standings only)."""
    return list(
        Deal.objects.filter(waiting_deals(), match__table__round=round_)
        .select_related("match__table")
        .prefetch_related("scores__player")
        .order_by("match__table__name", "number")
    )


def still_playing(night: ClubNight, players: Collection[int]) -> list[tuple[Match, list[Player]]]:
    """The night's open matches outside its rounds (tables drawn before the night went
    over to rounds, or started by hand) where some of ``players`` sit, each with those
    players in seat order (one query): a round seats them anyway, as a club may mean it,
    and the round's proposal and the API's drawn round say so (a round's own open matches
    refuse the next round: :func:`unfinished`)."""
    seats = (
        Seat.objects.filter(
            match__table__club_night=night,
            match__table__round=None,
            match__status=Match.Status.OPEN,
            player_id__in=players,
        )
        .select_related("player", "match__table")
        .order_by("match__table__name", "match_id", "position")
    )
    found: dict[int, tuple[Match, list[Player]]] = {}
    for seat in seats:
        found.setdefault(seat.match_id, (seat.match, []))[1].append(seat.player)
    return list(found.values())


def present_by_default(night: ClubNight) -> list[int]:
    """Everyone of the round before, seated or sitting out; before round 1, the night's
    attendance (``seating.take_attendance``)."""
    last = current(night)
    if last is None:
        return sorted(night.present.values_list("pk", flat=True))
    seated = Seat.objects.filter(match__table__round=last).values_list("player_id", flat=True)
    return sorted({*seated, *last.sat_out.values_list("pk", flat=True)})
