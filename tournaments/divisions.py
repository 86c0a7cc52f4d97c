"""A season's divisions (issue 40): the rules that share players out, and who sees whom.

A season may have divisions, named by its administrator in order from the top (A, B, C…),
and each of its players placed in at most one.  Each division has its own leaderboards
(the season's ranking, counted among its players: ``scoring.divisions``), and a round of
a club night seats each division at tables of its own unless the administrator draws
them together (``actions.rounds``).  How many players move between neighbouring
divisions when the season closes is the season's ``moves_by`` and ``moves``.

Setting them is an action (``actions.divisions.set_divisions``).

:func:`split` and :func:`snake` share players out among divisions in an order a rule
gives (``scoring.division_rules``: the divisions page fills its selects with them, and
stores nothing until Save); :func:`at_tables` names each table's divisions.

**Who sees whom.**  Placing a player in a public season's division does not make the
player public: a reader who is not of the club sees, of a season's divisions, its
closing proposal and its moves, only the players ``tournaments.access`` shows them
(those seated in a public season's match), never another one's id (:func:`shown`), and
the next season only if they may read it (:func:`next_season_shown`).  So a player of a
private season alone, placed in a public season's division by hand or by a closing,
stays out of every public list until they play in a public season.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext_noop

from tournaments import access
from tournaments.models import Division, Placement, Player, Season

MOST_DIVISIONS = 10
NAME_LENGTH = 20
MOST_MOVES = 100
CLOSED = gettext_noop("the season is closed: its divisions no longer change")


def shares(count: int, divisions: int) -> list[int]:
    """``count`` players over ``divisions``, as evenly as possible, top first: the top
    divisions take the extra ones (7 over 2: 4 and 3)."""
    base, extra = divmod(count, divisions)
    return [base + (1 if i < extra else 0) for i in range(divisions)]


def split(order: Sequence[int], unknown: Sequence[int], names: Sequence[str]) -> dict[int, str]:
    """Player id → division: ``order`` (best first) down the divisions ``names`` (top
    first) in shares as even as possible, counted over every player, the top ones taking
    the extra; the ``unknown`` players (nothing to rank them by) in the bottom division,
    the others then shared among the divisions above when they fill it."""
    if not names:
        return {}
    quotas = shares(len(order) + len(unknown), len(names))
    if len(names) > 1 and len(unknown) > quotas[-1]:
        quotas = [*shares(len(order), len(names) - 1), 0]
    out: dict[int, str] = {}
    rest = list(order)
    for name, quota in zip(names[:-1], quotas, strict=False):
        out |= {p: name for p in rest[:quota]}
        rest = rest[quota:]
    return out | {p: names[-1] for p in [*rest, *unknown]}


def snake(order: Sequence[int], names: Sequence[str]) -> dict[int, str]:
    """Player id → division, ``order`` dealt in a snake (A B B A A B…): divisions of
    even strength, sized as evenly as possible, the top ones taking the extra."""
    if not names:
        return {}
    room = shares(len(order), len(names))
    lap = [*range(len(names)), *reversed(range(len(names)))]
    out: dict[int, str] = {}
    turn = 0
    for player in order:
        while not room[lap[turn % len(lap)]]:  # a full division's turn passes on
            turn += 1
        room[lap[turn % len(lap)]] -= 1
        out[player] = names[lap[turn % len(lap)]]
        turn += 1
    return out


def placed(season: Season) -> dict[int, Division]:
    """Player id → the player's division in ``season``."""
    lines = Placement.objects.filter(season=season).select_related("division")
    return {p.player_id: p.division for p in lines}


def groups(season: Season, players: Sequence[int]) -> list[tuple[Division | None, list[int]]]:
    """``players`` by division, top first, in their given order; those placed in none last
    (``None``).  A season without divisions is one group."""
    division_of = placed(season)
    if not division_of:
        return [(None, list(players))]
    divisions = sorted(set(division_of.values()), key=lambda d: d.order)
    out: list[tuple[Division | None, list[int]]] = [
        (d, [p for p in players if division_of.get(p) == d]) for d in divisions
    ]
    out.append((None, [p for p in players if p not in division_of]))
    return [(d, ps) for d, ps in out if ps]


def at_tables(season: Season, tables: Sequence[Sequence[int]]) -> list[list[Division | None]]:
    """The divisions of each table's players, top first (``None``: a player in none, last);
    for a season without divisions, nothing at every table."""
    division_of = placed(season)
    if not division_of:
        return [[] for _ in tables]
    out = []
    for table in tables:
        found = {division_of.get(p) for p in table}
        out.append(sorted(found, key=lambda d: (d is None, d.order if d else 0)))
    return out


def shown(season: Season, players: Iterable[int], user: Any) -> set[int]:
    """Of ``players`` (ids in ``season``'s divisions, proposal or moves), those ``user``
    may see: every player of the club for its members, for others only the players
    ``tournaments.access`` shows them."""
    ids = set(players)
    if not ids:
        return ids
    rows = Player.objects.filter(club_id=season.club_id, pk__in=ids)
    return set(access.visible(rows, user).values_list("pk", flat=True))


def next_season_shown(season: Season, user: Any) -> Season | None:
    """The season ``season`` closed into, when ``user`` may read it; else ``None`` (a
    season the reader may not read is not named, not even by its id)."""
    if season.next_season_id is None:
        return None
    return access.visible(Season.objects.filter(pk=season.next_season_id), user).first()
