"""A club night's standings across its tables (issue 25); what the room display shows of
them is ``scoring.live``.

**Raw points**: a player's deal scores of the night summed (their match lines' points).
**Table ranks**: each match gives its players points by their place at the table
(``ClubNight.rank_points``; by default 4, 2, 1, 0, and 0 beyond), so that tables of
different sizes and games compare, as mahjong and card tournaments do; players tied at a
table (the game's own tie-breaks decide first) share the points of the places they
hold.  The night's order: the total, then the raw points, then the name; equal totals
and points share a rank (on a board of several games' table ranks, equal totals alone:
:func:`boards`).

Decision — **a sit-out** scores 0 raw points (these games are zero-sum at a table: 0 is
an average table), and under table ranks the average of the points of the places at a
table of the round's game at its best size (the expected share of a player who had
played), so that sitting out neither helps nor hurts on average.

**Per game** (:func:`boards`): different games' points never add up, so under raw
points a night of several games has one board per game (each of that game's matches and
the sit-outs of its rounds); table ranks compare places at tables across games (that is
their purpose) and keep one board, showing no raw points beside it.

The season's leaderboards go on counting the deals as ever; these standings are the
night's own.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, replace
from typing import Any

import engine
from scoring.models import MatchStanding
from tournaments.games import label
from tournaments.models import (
    ClubNight,
    Deal,
    Match,
    Player,
    Seat,
    waiting_deals,
)
from tournaments.names import reading_key, shown

DEFAULT_RANK_POINTS = (4, 2, 1, 0)


@dataclass(frozen=True)
class NightLine:
    player: int
    display_name: str
    rank: int
    total: float
    points: int
    """Raw points (the deal scores summed), whatever the method."""
    matches: int
    sat_out: int
    deals: int = 0
    """The deals the player has played tonight (of the board's game)."""
    name_ja: str = ""
    reading: str = ""

    @property
    def shown_name(self) -> str:
        """The name people read in the active language (:func:`tournaments.names.shown`)."""
        return shown(self.display_name, self.name_ja)

    @property
    def begun(self) -> bool:
        """The player has played a deal tonight or sat out a round: before that they are
        on the board with 0, at no place yet (a place beside the night's leaders would
        say they had played as well as them)."""
        return self.deals > 0 or self.sat_out > 0


def _number(value: float) -> float:
    """A total as people write it: 12, not 12.0; 3.67 for a shared place."""
    kept = round(value, 2)
    return int(kept) if kept == int(kept) else kept


def rank_points(night: ClubNight) -> list[float]:
    given = [p for p in (night.rank_points or []) if isinstance(p, int | float)]
    return [float(p) for p in (given or DEFAULT_RANK_POINTS)]


def _place_points(points: list[float], rank: int, tied: int) -> float:
    """The points of ``tied`` players sharing ``rank`` (1 is first): the places' average."""
    places = [points[i] if i < len(points) else 0.0 for i in range(rank - 1, rank - 1 + tied)]
    return sum(places) / len(places)


def standings(night: ClubNight, game: str | None = None) -> tuple[str, list[NightLine]]:
    """The night's method and its lines, first first; with ``game``, of that game's
    matches and rounds alone (one of :func:`boards`).  Without it every game's points add
    up: what table ranks are for (and the order a draw needs), never shown as points."""
    method = night.standings
    points = rank_points(night)
    of_game = {} if game is None else {"match__game": game}
    lines = MatchStanding.objects.filter(match__table__club_night=night, **of_game).values_list(
        "match_id", "player_id", "points", "rank", "deals"
    )
    by_match: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    played: dict[int, int] = defaultdict(int)
    for match_id, player_id, raw, rank, deals in lines:
        by_match[match_id].append((player_id, raw, rank))
        played[player_id] += deals
    total: dict[int, float] = defaultdict(float)
    raw_total: dict[int, int] = defaultdict(int)
    matches: dict[int, int] = defaultdict(int)
    for rows in by_match.values():
        ranks = [r for _p, _raw, r in rows]
        for player, raw, rank in rows:
            raw_total[player] += raw
            matches[player] += 1
            if method == ClubNight.Standings.RANKS:
                total[player] += _place_points(points, rank, ranks.count(rank))
            else:
                total[player] += raw
    for player in Seat.objects.filter(match__table__club_night=night, **of_game).values_list(
        "player_id", flat=True
    ):  # seated before their first deal counts: they are on the board with 0
        total[player] += 0
        raw_total[player] += 0
        matches.setdefault(player, 0)
    sat: dict[int, int] = defaultdict(int)
    rounds = night.rounds.all() if game is None else night.rounds.filter(game=game)
    for round_ in rounds.prefetch_related("sat_out"):
        share = 0.0
        if method == ClubNight.Standings.RANKS:
            best = engine.GAMES[round_.game].best_players
            share = sum(_place_points(points, i, 1) for i in range(1, best + 1)) / best
        for absent in round_.sat_out.all():
            sat[absent.pk] += 1
            total[absent.pk] += share
    named = list(
        Player.objects.filter(pk__in=[*matches, *sat]).values_list(
            "pk", "display_name", "name_ja", "reading"
        )
    )
    names = {pk: name for pk, name, *_rest in named}
    also = {pk: rest for pk, _name, *rest in named}  # the Japanese name and the reading
    # Level players by their names: the same order whatever the reader's language, as a
    # draw seeds by it (``scoring.finals.draw_order``); boards show them as lists do.
    ordered = sorted(names, key=lambda p: (-round(total[p], 6), -raw_total[p], names[p]))
    out: list[NightLine] = []
    for i, player in enumerate(ordered):
        rank = i + 1
        if out and (round(out[-1].total, 6), out[-1].points) == (
            round(total[player], 6),
            raw_total[player],
        ):
            rank = out[-1].rank
        out.append(
            NightLine(
                player,
                names[player],
                rank,
                _number(total[player]),
                raw_total[player],
                matches[player],
                sat[player],
                played[player],
                *also[player],
            )
        )
    return method, out


@dataclass(frozen=True)
class Board:
    """One table of the night's standings."""

    game: str
    """The game of every line's points; ``""``: every game (table ranks) or none yet."""
    lines: list[NightLine]
    mixed: bool = False
    """The lines hold several games (table ranks): their raw points are not shown, since
    different games' points never add up."""

    @property
    def label(self) -> str:
        return label(self.game) if self.game else ""

    @property
    def begun(self) -> bool:
        """Whether anyone on the board has played (a deal, or a round sat out): before
        that everyone is "first with 0", which says nothing, and the pages say "no deal
        yet" instead."""
        return any(line.deals or line.sat_out for line in self.lines)


def games(night: ClubNight) -> list[str]:
    """The games played or drawn on the night, in the order they first came."""
    drawn = night.rounds.order_by("number").values_list("game", flat=True)
    played = (
        Match.objects.filter(table__club_night=night).order_by("pk").values_list("game", flat=True)
    )
    return list(dict.fromkeys([*drawn, *played]))


def boards(night: ClubNight) -> tuple[str, list[Board]]:
    """The night's method and its standings as shown: one board per game under raw points
    (different games' points never add up), one board of every game under table ranks
    (places at tables compare across games: that is their purpose)."""
    method = night.standings
    played = games(night)
    if len(played) <= 1:
        return method, [Board(played[0] if played else "", _shown(standings(night)[1]))]
    if method == ClubNight.Standings.RANKS:
        return method, [Board("", _shown(_level_on_total(standings(night)[1])), mixed=True)]
    return method, [Board(game, _shown(standings(night, game)[1])) for game in played]


def _level_on_total(lines: list[NightLine]) -> list[NightLine]:
    """A board of several games' table ranks: equal totals share their rank.  The raw
    points that part them in :func:`standings` (the order a draw seeds by) add up
    different games' points, which the board neither shows nor means."""
    out: list[NightLine] = []
    for i, line in enumerate(lines):
        rank = out[-1].rank if out and out[-1].total == line.total else i + 1
        out.append(replace(line, rank=rank))
    return out


def _shown(lines: list[NightLine]) -> list[NightLine]:
    """A board's lines as people read them: players level on points in the order of every
    list of names (``tournaments.names.reading_order``: 五十音 on a Japanese page)."""
    return sorted(lines, key=lambda line: (line.rank, reading_key(line.shown_name, line.reading)))


def standings_json(night: ClubNight) -> dict[str, Any]:
    """The night's standings for the API: ``boards``, one per game under raw points (see
    :func:`boards`); ``rows`` is the first board's (a night of one game has one)."""
    method, shown = boards(night)
    return {
        "method": method,
        "rows": [asdict(line) for line in shown[0].lines],
        "boards": [board_json(board) for board in shown],
    }


def board_json(board: Board, most: int | None = None) -> dict[str, Any]:
    return {
        "game": board.game,
        "game_label": board.label,
        "mixed": board.mixed,
        "rows": [
            {**asdict(line), "shown": line.shown_name, "begun": line.begun}
            for line in board.lines[:most]
        ],
        "of": len(board.lines),  # more than the rows where ``most`` cut them short
    }


def waiting(night: ClubNight) -> int:
    """How many of the night's deals wait for a second person's confirmation (they are not
    in the standings yet): said on the room display and the night's page."""
    return Deal.objects.filter(waiting_deals(), match__table__club_night=night).count()
