"""Score sheets and season series: the numbers behind the pages and the exports.

A match's score sheet is rebuilt from its stored deal records with the engine's
``check_match`` (one source for scores, totals, winner and tie-breaks), and
worded by the game's web module (its notes, tie-break and outcome line); the
pages, the exports and the tests all read it from here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.db.models import Case, F, Q, Sum, When

import engine
from scoring.models import MatchStanding
from tournaments.games import LEAGUE_GAMES, league_game
from tournaments.models import ClubNight, Match, Player, Season
from tournaments.records import match_record


@dataclass(frozen=True)
class SheetRow:
    number: int
    scores: list[int | None]
    """Each seated player's score; ``None`` for a player not dealt in (out of the match:
    blank on the sheet and in its exports, not a "+0" they never played)."""
    totals: list[int]
    winners: list[str]
    note: str
    """A few words on the deal: the declaration, the outcome, the winner."""
    deal_id: int = 0
    pending: bool = False
    """Waiting for confirmation: shown, not yet in the totals."""
    at_table: bool = False
    """Entered with the table's link."""


@dataclass(frozen=True)
class MatchSheet:
    match: Match
    players: list[Player]
    rows: list[SheetRow]
    totals: list[int]
    deals_won: list[int]
    ranks: list[int]
    finished: bool
    winner: Player | None
    winners: list[Player]
    tie_break: str
    """How this game breaks ties, said for the sheet."""
    outcome: str = ""
    """What the match's rules made of it beyond points (eliminations, chips, the title)."""
    sides: list[list[str]] = field(default_factory=list)

    @property
    def waiting(self) -> list[SheetRow]:
        """The rows that wait for a second person's confirmation (not in the totals)."""
        return [row for row in self.rows if row.pending]


def match_sheet(match: Match) -> MatchSheet:
    game = league_game(match.game)
    players = match.seated_players()
    handles = [p.handle for p in players]
    stored = list(match.deals.filter(deleted_at__isnull=True).order_by("number"))
    confirm = match.table.club_night.season.require_confirmation
    pending = [confirm and d.confirmed_at is None for d in stored]
    checked = engine.check_match(match_record(match, [d.record for d in stored]))
    # Totals, ranks and the winner count the confirmed deals only (all of them, most often).
    result = (
        engine.check_match(
            match_record(match, [d.record for d, p in zip(stored, pending, strict=True) if not p])
        )
        if any(pending)
        else checked
    )
    rows: list[SheetRow] = []
    names = {p.handle: p.shown_name for p in players}
    running = dict.fromkeys(handles, 0)
    for deal, row, waiting in zip(stored, checked.deals, pending, strict=True):
        if not waiting:
            for h in handles:
                running[h] += row.scores.get(h, 0)
        rows.append(
            SheetRow(
                number=deal.number,
                scores=[row.scores.get(h) for h in handles],
                totals=[running[h] for h in handles],
                winners=list(row.winners),
                note=game.note(row.details, names),
                deal_id=deal.pk,
                pending=waiting,
                at_table=deal.entered_at_table,
            )
        )
    by_handle = {p.handle: p for p in players}
    standing = {s.player: s for s in result.standings}
    finished, winners = match.outcome(result)
    return MatchSheet(
        match=match,
        players=players,
        rows=rows,
        totals=[running[h] for h in handles],
        deals_won=[standing[h].deals_won for h in handles],
        ranks=[standing[h].rank for h in handles],
        finished=finished,
        winner=by_handle.get(winners[0]) if len(winners) == 1 else None,
        winners=[by_handle[h] for h in winners if h in by_handle],
        tie_break=str(game.tie_break),
        outcome=game.outcome(
            result.details, result.finished, {h: p.shown_name for h, p in by_handle.items()}
        ),
        sides=game.rules.sides(handles),
    )


@dataclass(frozen=True)
class Series:
    """One player's line: cumulative points after each club night of a season, or the
    rating after each club night against the deals played."""

    player: Player
    points: list[tuple[int, int | float]]
    """(x: the night's place in the season, or the deals played, from (0, 0) before the
    first; y: points or rating)."""


@dataclass(frozen=True)
class SeasonChart:
    series: list[Series]
    deals: int
    """The largest x."""
    nights: list[tuple[int, ClubNight]]
    """Where each club night is on the x axis (its date drawn, its label on hover)."""


NO_CHART = SeasonChart(series=[], deals=0, nights=[])

NIGHT_NAMED = ["date", "name", "final", "venue"]
"""What a chart reads of a club night: its date, and what ``night_label`` names it by."""


def night_points(
    seasons: Iterable[int], drawn: Mapping[str, Iterable[int]]
) -> dict[tuple[int, str, int], list[tuple[int, int, ClubNight]]]:
    """What a season's plot draws, read from its match lines with points: per season,
    game and player drawn in that game (``drawn``: game → players), the player's
    cumulative points after each club night of the game they played, as (the night's
    place, points, the night).  A night's place counts every night of the season's game
    that has points, from 1, by date, then by id (two nights on one date are two).

    Two queries: the seasons' nights of each game, each with the drawn players' points in
    it (one pass over the seasons' lines in the index ``match_line_by_night``, grouped by
    numbers alone: a line of a player not drawn in its game adds only to its night's
    row), and the seasons' nights' dates and names (``night_label``).  What is read
    grows with the nights and the drawn players, not with the players of the season."""
    seasons = list(seasons)
    wanted = Q()
    for game, players in drawn.items():
        wanted |= Q(game=game, player__in=list(players))
    if not wanted:
        return {}
    found = list(
        MatchStanding.objects.filter(season__in=seasons, scored__gt=0)
        .order_by()
        .annotate(who=Case(When(wanted, then=F("player_id")), default=None))
        .values("season_id", "game", "club_night_id", "who")
        .annotate(points=Sum("points"))
        .values_list("season_id", "game", "club_night_id", "who", "points")
    )
    nights = ClubNight.objects.filter(season__in=seasons).only(*NIGHT_NAMED).in_bulk()
    of_game: dict[tuple[int, str], set[int]] = defaultdict(set)
    for season, game, night, _who, _points in found:
        of_game[(season, game)].add(night)
    place = {
        (season, game, night): i
        for (season, game), ids in of_game.items()
        for i, night in enumerate(sorted(ids, key=lambda n: (nights[n].date, n)), start=1)
    }
    out: dict[tuple[int, str, int], list[tuple[int, int, ClubNight]]] = defaultdict(list)
    for season, game, night, who, points in sorted(
        (row for row in found if row[3] is not None), key=lambda r: place[r[:3]]
    ):
        line = out[(season, game, who)]
        line.append(
            (place[(season, game, night)], (line[-1][1] if line else 0) + points, nights[night])
        )
    return dict(out)


def player_charts(player: Player, seasons: list[Season]) -> dict[tuple[int, str], SeasonChart]:
    """Per (season id, game), the player's cumulative points after each club night they
    played (:func:`night_points`)."""
    return {
        (season, game): SeasonChart(
            series=[Series(player, [(0, 0), *((x, y) for x, y, _night in line)])],
            deals=line[-1][0],
            nights=[(x, night) for x, _y, night in line],
        )
        for (season, game, _player), line in night_points(
            [s.pk for s in seasons], dict.fromkeys(LEAGUE_GAMES, [player.pk])
        ).items()
    }
