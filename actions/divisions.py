"""Setting a season's divisions: the one action the divisions page, the API, a restore
and the tests call.

:func:`set_divisions` replaces the divisions and the placements in one transaction under
the season's row lock: the same request sent twice leaves the same divisions.  A closed
season's divisions are what its moves were made from, so they no longer change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_noop

from tournaments import errors
from tournaments.divisions import CLOSED, MOST_DIVISIONS, MOST_MOVES, NAME_LENGTH
from tournaments.errors import Rejection, error, refusal
from tournaments.models import Division, MovesBy, Placement, Player, Season
from tournaments.names import look_alike
from tournaments.textfile import whole_number


def division_names(names: Any) -> list[str]:
    """The divisions' names as given (a list, or one text of names split by spaces or
    commas), checked: at most ten, each one to twenty characters, none twice (nor two
    that look alike: ``A`` and ``A`` with a zero-width space, ``names.look_alike``)."""
    if isinstance(names, str):
        names = names.replace(",", " ").replace("、", " ").split()
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise refusal("invalid", "names", gettext_noop("list the divisions' names, top first"))
    names = [n.strip() for n in names if n.strip()]
    if len(names) > MOST_DIVISIONS:
        raise errors.too_many(
            "names", gettext_noop("a season has at most %(n)s divisions"), n=MOST_DIVISIONS
        )
    for i, name in enumerate(names):
        if len(name) > NAME_LENGTH:
            raise errors.too_long(
                f"names[{i}]",
                gettext_noop("a division's name is at most %(n)s characters"),
                n=NAME_LENGTH,
            )
        if not look_alike(name):
            raise refusal(
                "invalid",
                f"names[{i}]",
                gettext_noop("name each division with letters or digits"),
            )
    seen = [look_alike(n) for n in names]
    for i, name in enumerate(names):
        if seen.index(seen[i]) != i:
            raise refusal(
                "duplicate",
                f"names[{i}]",
                gettext_noop("division %(name)s is named twice"),
                name=name,
            )
    return names


def moves_rule(moves_by: Any, moves: Any) -> tuple[str, int]:
    """The closing rule as given, checked: a count of players or a per cent, 0 to 100."""
    if moves_by not in MovesBy.values:
        raise refusal(
            "invalid_choice", "moves_by", gettext_noop("moves are counted in players or per cent")
        )
    if isinstance(moves, bool) or not isinstance(moves, int) or not 0 <= moves <= MOST_MOVES:
        raise refusal("out_of_range", "moves", gettext_noop("moves are 0 to %(n)s"), n=MOST_MOVES)
    return moves_by, moves


def set_divisions(
    season: Season,
    names: Any,
    places: Mapping[Any, Any],
    *,
    moves_by: Any = MovesBy.COUNT,
    moves: Any = 2,
) -> list[Division]:
    """Make the season's divisions ``names`` (top first; none: the season has no
    divisions) with ``places`` (player id → a division's name; ``""``: none) and the
    closing rule, all or nothing."""
    names = division_names(names)
    moves_by, moves = moves_rule(moves_by, moves)
    if not isinstance(places, Mapping):
        raise refusal("invalid", "places", gettext_noop("say each player's division"))
    by_name = {look_alike(n): n for n in names}
    wanted: dict[int, str] = {}
    for key, value in places.items():
        player = whole_number(str(key)) if isinstance(key, int | str) else None
        if player is None:
            raise refusal(
                "not_found",
                "places",
                gettext_noop("no player %(id)s in this club"),
                id=str(key)[:20],
            )
        if value in ("", None):
            continue
        if not isinstance(value, str) or look_alike(value) not in by_name:
            raise refusal(
                "invalid_choice",
                f"places.{player}",
                gettext_noop("no division %(name)s in this season"),
                name=str(value)[:NAME_LENGTH],
            )
        wanted[player] = by_name[look_alike(value)]
    known = set(
        Player.objects.filter(club_id=season.club_id, pk__in=list(wanted)).values_list(
            "pk", flat=True
        )
    )
    if unknown := sorted(set(wanted) - known):
        raise refusal(
            "not_found", "places", gettext_noop("no player %(id)s in this club"), id=unknown[0]
        )
    with transaction.atomic():
        locked = Season.objects.select_for_update(no_key=True).get(pk=season.pk)
        if locked.closed_at is not None:
            raise Rejection((error("closed", "", CLOSED),), conflict=True)
        Placement.objects.filter(season=season).delete()
        Division.objects.filter(season=season).exclude(name__in=names).delete()
        kept = {d.name: d for d in Division.objects.filter(season=season)}
        # Orders move out of the way first: (season, order) is unique.
        Division.objects.filter(season=season).update(order=F("order") + 1000)
        made = []
        for order, name in enumerate(names):
            division = kept.get(name) or Division(season=season, name=name, order=order)
            division.order = order
            division.save()
            made.append(division)
        at = {d.name: d for d in made}
        Placement.objects.bulk_create(
            Placement(season=season, division=at[name], player_id=player)
            for player, name in sorted(wanted.items())
        )
        Season.objects.filter(pk=season.pk).update(moves_by=moves_by, moves=moves)
        season.moves_by, season.moves = moves_by, moves
    return made


def carried(
    places: Mapping[int, str], before: Sequence[str], after: Sequence[str]
) -> dict[int, str]:
    """``places`` made with the divisions ``before`` (a form's selects), for the divisions
    ``after``: as many divisions renamed keep their players in order (A, B → Gold,
    Silver); a division gone takes its players out of every division."""
    renamed = dict(zip(before, after, strict=True)) if len(before) == len(after) else {}
    out = {player: renamed.get(name, name) for player, name in places.items()}
    return {player: name for player, name in out.items() if name in after}
