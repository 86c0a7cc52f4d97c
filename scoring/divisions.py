"""A season's divisions ranked, and closing a season into the next (issue 40).

**Ranks in a division.** A division's leaderboard is the season's, counted among the
division's players: its order is the season's ranking (``tournaments.ranking``, with its
qualifying minimum and each game's tie-breaks), its ranks are counted again from 1 inside
the division.  Nothing is stored for it: it is read from the season's lines, so it is
always what a rebuild of the deals would give.

**The proposal.** :func:`lines` proposes each player's move by the season's rule:
between each pair of neighbouring divisions, the top ``moves`` qualified players of the
lower go up and the bottom ``moves`` of the upper go down (or that per cent of each
division, rounded half up), as a card club's ladder does:

- a player below the qualifying minimum is never promoted, and ranks at the bottom of
  the division (listed apart), so is the first to go down; a placed player who did not
  play at all is below them;
- a player moves once: one promoted out of a middle division is not also relegated;
- a player who played the game without a division is placed in the bottom one ("placed");
- players tied on a rank (after every tie-break of the game) whom the proposal parts, one
  moving and one staying, are not parted by any rule: the proposal keeps the season's
  order (the player's number in the club) and each of them says whom they tie with
  (``tied_with``), for the administrator to choose on the close page.

Closing the season with them is an action (``actions.seasons.close_season``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from engine.match import competition_ranks
from scoring.models import SeasonStanding
from tournaments.models import Division, Move, MovesBy, Placement, Player, Season


@dataclass(frozen=True)
class Line:
    """A player of the closing season as the close page lists them."""

    player: Player
    division: Division | None
    rank: int | None
    """In the division, on the leaderboard of the season's first game (none: not played)."""
    qualified: bool
    going: str
    """The division proposed (or chosen) in the next season; ``""``: none."""
    kind: str
    tied_with: tuple[Player, ...] = ()
    """Players of the division on the same rank whom the proposal moves otherwise."""

    @property
    def tied_names(self) -> str:
        return ", ".join(player.shown_name for player in self.tied_with)


def _moving(size: int, season: Season) -> int:
    if season.moves_by == MovesBy.PERCENT:
        share = Decimal(size * season.moves) / 100
        return int(share.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return season.moves


def lines(season: Season) -> list[Line]:
    """Every placed player of the season, division by division in the order of their
    leaderboard, then those who played its first game without a division; each with the
    move the season's rule proposes."""
    divisions = list(season.divisions.order_by("order"))
    if not divisions:
        return []
    placements = Placement.objects.filter(season=season).select_related("player")
    division_of = {p.player_id: p.division_id for p in placements}
    players = {p.player_id: p.player for p in placements}
    standing = list(
        SeasonStanding.objects.filter(season=season, game=season.games[0])
        .select_related("player")
        .order_by("rank", "player_id")
    )
    by_division: dict[int | None, list[SeasonStanding]] = {}
    for line in standing:
        by_division.setdefault(division_of.get(line.player_id), []).append(line)
        players.setdefault(line.player_id, line.player)
    ordered: list[list[Line]] = []
    for division in divisions:
        ranked = by_division.get(division.pk, [])
        ranks = competition_ranks({s.player_id: (s.rank,) for s in ranked})
        seen = {s.player_id for s in ranked}
        idle = sorted(
            (p for p, d in division_of.items() if d == division.pk and p not in seen),
            key=lambda p: (players[p].display_name, p),
        )
        ordered.append(
            [
                Line(players[s.player_id], division, ranks[s.player_id], s.qualified, "", "")
                for s in ranked
            ]
            + [Line(players[p], division, None, False, "", "") for p in idle]
        )
    going = {
        line.player.pk: division.name
        for division, group in zip(divisions, ordered, strict=True)
        for line in group
    }
    kind = {pk: Move.Kind.STAY.value for pk in going}
    for upper, lower, above, below in zip(
        ordered, ordered[1:], divisions, divisions[1:], strict=False
    ):
        rising = [x for x in lower if x.qualified and x.rank is not None][
            : _moving(len(lower), season)
        ]
        for up in rising:
            going[up.player.pk], kind[up.player.pk] = above.name, Move.Kind.UP.value
        staying = [x for x in upper if kind[x.player.pk] == Move.Kind.STAY]
        count = _moving(len(upper), season)
        for down in staying[max(0, len(staying) - count) :] if count else []:
            going[down.player.pk], kind[down.player.pk] = below.name, Move.Kind.DOWN.value
    newcomers = [
        Line(players[s.player_id], None, None, s.qualified, divisions[-1].name, Move.Kind.NEW.value)
        for s in by_division.get(None, [])
    ]
    return [
        replace(
            line,
            going=going[line.player.pk],
            kind=kind[line.player.pk],
            tied_with=_parted(line, group, kind),
        )
        for group in ordered
        for line in group
    ] + newcomers


def _parted(line: Line, group: list[Line], kind: dict[int, str]) -> tuple[Player, ...]:
    """The players of ``line``'s division on its rank whom the proposal moves otherwise."""
    if line.rank is None:
        return ()
    return tuple(
        other.player
        for other in group
        if other.rank == line.rank and kind[other.player.pk] != kind[line.player.pk]
    )


def made(season: Season) -> list[Move]:
    """The moves made when the season closed, in the order the close page lists them."""
    return list(
        Move.objects.filter(season=season)
        .select_related("player")
        .order_by("division", "rank", "player__display_name", "pk")
    )
