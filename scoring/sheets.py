"""Score sheets and season series: the numbers behind the pages and the exports.

A match's score sheet is rebuilt from its stored deal records with the engine's
``check_match`` (one source for scores, totals, winner and tie-breaks), and
worded by the game's web module (its notes, tie-break and outcome line); the
pages, the exports and the tests all read it from here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import engine
from scoring.models import SeasonPoint
from tournaments.games import league_game
from tournaments.models import ClubNight, Match, Player, Season
from tournaments.records import match_record


@dataclass(frozen=True)
class SheetRow:
    number: int
    scores: list[int]
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
    names = {p.handle: p.display_name for p in players}
    running = dict.fromkeys(handles, 0)
    for deal, row, waiting in zip(stored, checked.deals, pending, strict=True):
        if not waiting:
            for h in handles:
                running[h] += row.scores.get(h, 0)
        rows.append(
            SheetRow(
                number=deal.number,
                scores=[row.scores.get(h, 0) for h in handles],
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
            result.details, result.finished, {h: p.display_name for h, p in by_handle.items()}
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


def player_charts(player: Player, seasons: list[Season]) -> dict[tuple[int, str], SeasonChart]:
    """Per (season id, game), the player's cumulative points after each club night they
    played: one query for all the seasons and games (``SeasonPoint``)."""
    rows = (
        SeasonPoint.objects.filter(player=player, season__in=seasons)
        .select_related("club_night")
        .order_by("season", "game", "ordinal")
    )
    points: dict[tuple[int, str], list[tuple[int, int | float]]] = defaultdict(lambda: [(0, 0)])
    nights: dict[tuple[int, str], list[tuple[int, ClubNight]]] = defaultdict(list)
    for point in rows:
        points[(point.season_id, point.game)].append((point.ordinal, point.total))
        nights[(point.season_id, point.game)].append((point.ordinal, point.club_night))
    return {
        key: SeasonChart(series=[Series(player, line)], deals=line[-1][0], nights=nights[key])
        for key, line in points.items()
    }
