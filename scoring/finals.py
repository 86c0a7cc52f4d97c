"""A season's final (issues 40 and 56): the club night marked ``final`` seats, at the final
table of a round drawn as a final, the leaders of the season's leaderboard of the round's
game; the winner of that table's match, once it is finished, is the season's champion.

**Seeding** follows the season's ranking (``tournaments.ranking``: the ``SeasonStanding``
lines' qualified flag, rank and score), never the players' names:

1. the qualified players, by rank;
2. then the players below the qualifying minimum, by the same ranking (their line's rank:
   the leaderboard lists them after every qualified one, in its own order);
3. then the players with no line of the game at all, in the order they joined the club.

Ties keep the leaderboard's order (rank, then the player's id).  In a season with
divisions the round is drawn division by division (``actions.rounds.propose``), so
each division's final table seats that division's leaders: the season's order restricted
to a division is the division's leaderboard (``scoring.divisions``).

**The proposal** (:func:`seeding`) names each final table (one per division, or one when
the divisions are drawn together) and each seat's rank and figure on the board that
seeded it: the division's leaderboard (ranks from 1 in the division), else the season's.

**Once seated** (:func:`final_matches`) each division's first table is its final table, as
the proposal named it; the rounds page, a player's night and the season page mark it.

**A final nobody has qualified for asks first** (:func:`vet`): when nobody seated at a
final table has a qualified line, the final would be decided among players below the
minimum (or with no line at all), so the page asks for an explicit confirmation and the
API refuses unless ``confirm_unqualified`` is given; a refusal stores nothing.

Nothing is stored besides the night's mark: the seeding is read from the leaderboard when
the round is drawn, and the champion from the final match's checked lines
(``MatchStanding``), so that a correction of the final's deals names the new champion as
a rebuild would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from scoring import night as night_standings
from scoring.models import MatchStanding, SeasonStanding
from tournaments import divisions, ranking
from tournaments.errors import Rejection, error
from tournaments.models import ClubNight, Division, Match, Player, Round, Season

UNQUALIFIED = gettext_noop(
    "nobody at the final table has reached the qualifying minimum yet: it would be seated "
    "by the ranking of players who have not qualified; confirm to draw it anyway"
)
UNQUALIFIED_IN = gettext_noop(
    "division %(division)s: nobody at its final table has reached the qualifying minimum "
    "yet: it would be seated by the ranking of players who have not qualified; confirm to "
    "draw it anyway"
)


def _lines(night: ClubNight, game: str) -> list[SeasonStanding]:
    """The season's lines of ``game`` in the leaderboard's order, qualified first."""
    return list(
        SeasonStanding.objects.filter(season=night.season_id, game=game).order_by(
            "-qualified", "rank", "player_id"
        )
    )


def draw_order(night: ClubNight, game: str) -> list[int]:
    """Who comes first in a draw of ``night`` (Swiss pairs, a final table's seats): on the
    season's final night the season's leaderboard of ``game`` (see the module docstring;
    the players with no line are not listed: a draw puts them last, by id); on any other
    night the night's standings alone."""
    if not night.final:
        return [line.player for line in night_standings.standings(night)[1]]
    return [line.player_id for line in _lines(night, game)]


def ordinal(rank: int) -> str:
    """A rank as a leaderboard says it: 1st, 2nd, 3rd, 11th, 22nd (2位 in Japanese)."""
    if rank % 100 in (11, 12, 13) or rank % 10 not in (1, 2, 3):
        words = pgettext("a rank", "%(n)sth")
    elif rank % 10 == 1:
        words = pgettext("a rank", "%(n)sst")
    elif rank % 10 == 2:
        words = pgettext("a rank", "%(n)snd")
    else:
        words = pgettext("a rank", "%(n)srd")
    return words % {"n": rank}


@dataclass(frozen=True)
class Seed:
    """A player's place on the board that seeded a final."""

    rank: int | None
    """On the division's leaderboard (drawn by division), else the season's; ``None``: the
    player has no line of the game this season."""
    score: Decimal | None
    """The figure ranked (``SeasonStanding.score``: points, best N, per match...)."""
    qualified: bool = False

    @property
    def figure(self) -> int | float | None:
        return None if self.score is None else ranking.plain(self.score)

    @property
    def label(self) -> str:
        """``2nd · 340``, ``2位 · 340``; no line: ``not on the leaderboard``."""
        if self.rank is None:
            return _("not on the leaderboard")
        return f"{ordinal(self.rank)} · {self.figure}"

    def as_json(self, player: int) -> dict[str, object]:
        return {
            "player": player,
            "rank": self.rank,
            "score": self.figure,
            "qualified": self.qualified,
        }


@dataclass(frozen=True)
class FinalTable:
    index: int
    """The table's place in the round's seating, from 0."""
    division: Division | None
    """The division whose final it is; ``None``: the season's (no divisions, or drawn
    together), or the players placed in no division."""
    unqualified: bool
    """Nobody seated at it has qualified (on the final night): :func:`vet` asks first."""


@dataclass(frozen=True)
class Seeding:
    """What a proposed (or drawn) round says of its final tables and seeds."""

    finals: list[FinalTable] = field(default_factory=list)
    seeds: dict[int, Seed] = field(default_factory=dict)
    """Every player of the round on the season's final night (empty otherwise)."""
    by_division: bool = False
    """The round is drawn division by division: the ranks are in each division."""
    heading: str = ""
    """The figure's name (``Total points``, ``Best 2 club nights``)."""

    def final_at(self, index: int) -> FinalTable | None:
        return next((f for f in self.finals if f.index == index), None)

    @property
    def unqualified(self) -> list[FinalTable]:
        return [f for f in self.finals if f.unqualified]


def seeding(
    night: ClubNight,
    game: str,
    method: str,
    tables: Sequence[Sequence[int]],
    sat_out: Sequence[int] = (),
    *,
    mixed: bool = False,
) -> Seeding:
    """The final tables of a round of ``tables`` (player ids, as
    ``actions.rounds.propose`` draws them: division by division, top first, unless
    ``mixed``) and, on the season's final night, each player's seed."""
    division_of = {} if mixed else divisions.placed(night.season)
    by_division = bool(division_of)
    seeds: dict[int, Seed] = {}
    if night.final and method == Round.Method.FINAL:
        lines = _lines(night, game)
        # A division's rank: its lines' ranks counted again from 1 (ties kept).
        group_ranks: dict[int | None, list[int]] = {}
        for line in lines:
            if by_division and line.player_id in division_of:
                group_ranks.setdefault(division_of[line.player_id].pk, []).append(line.rank)
        for line in lines:
            rank = line.rank
            division = division_of.get(line.player_id) if by_division else None
            if division is not None:
                rank = 1 + sum(r < line.rank for r in group_ranks[division.pk])
            seeds[line.player_id] = Seed(rank, line.score, line.qualified)
        everyone = [p for t in tables for p in t] + list(sat_out)
        seeds = {p: seeds.get(p, Seed(None, None)) for p in everyone}
    finals: list[FinalTable] = []
    if method == Round.Method.FINAL:
        seen: set[int | None] = set()
        for i, table in enumerate(tables):
            if not table:
                continue
            division = division_of.get(table[0]) if by_division else None
            key = division.pk if division is not None else None
            if key in seen:
                continue
            seen.add(key)
            nobody = night.final and not any(seeds[p].qualified for p in table)
            finals.append(FinalTable(i, division, nobody))
    heading = ranking.Rule.of(night.season).heading if seeds else ""
    return Seeding(finals, seeds, by_division, heading)


def vet(found: Seeding, confirmed: bool) -> None:
    """Refuse a final whose final table seats nobody qualified unless ``confirmed``
    (nothing is stored: the caller raises before seating)."""
    if confirmed or not found.unqualified:
        return
    problems = tuple(
        error("unqualified_final", "confirm_unqualified", UNQUALIFIED_IN, division=f.division.name)
        if f.division is not None
        else error("unqualified_final", "confirm_unqualified", UNQUALIFIED)
        for f in found.unqualified
    )
    raise Rejection(problems)


def table_label(division: Division | None, by_division: bool) -> str:
    """A final table's name: ``Final table of division A`` (``ディビジョン A の決勝卓``),
    ``Final table`` when the divisions are drawn together or there are none."""
    if division is not None:
        return _("Final table of division %(name)s") % {"name": division.name}
    if by_division:
        return _("Final table of the players without a division")
    return _("Final table")


@dataclass(frozen=True)
class FinalMatch:
    """A seated final table's match."""

    match: Match
    division: Division | None
    """As :attr:`FinalTable.division`."""
    by_division: bool

    @property
    def label(self) -> str:
        return table_label(self.division, self.by_division)


def final_matches(round_: Round) -> list[FinalMatch]:
    """The final match of each division in a round drawn as a final, as :func:`seeding`
    names them: each division's first table in the order seated (top division first, the
    players without one last).  A round whose tables mix divisions was drawn together:
    its first table is the one final.  The first is *the* final match, whose winner is
    the season's champion.  Empty for a round not drawn as a final."""
    if round_.method != Round.Method.FINAL:
        return []
    matches = list(
        Match.objects.filter(table__round=round_)
        .select_related("table")
        .prefetch_related("seats__player")
        .order_by("table_id", "pk")  # the order seated (``actions.rounds.seat``)
    )
    division_of = divisions.placed(round_.club_night.season)
    groups = [{division_of.get(p.pk) for p in m.seated_players()} for m in matches]
    by_division = bool(division_of) and all(len(g) == 1 for g in groups)
    out: list[FinalMatch] = []
    seen: set[int | None] = set()
    for match, group in zip(matches, groups, strict=True):
        division = next(iter(group)) if by_division else None
        key = division.pk if division is not None else None
        if key not in seen:
            seen.add(key)
            out.append(FinalMatch(match, division, by_division))
    return out


@dataclass(frozen=True)
class Final:
    """A season's final as its page shows it."""

    night: ClubNight
    match: Match | None
    """The final table's match (the top division's), once a final round is drawn."""
    champions: list[Player]
    """Its winners once it is finished (more than one when the game's rules share a win)."""
    table: Match | None = None
    """The final match of the division the page shows (``match`` when it shows none, or
    when the final was drawn with the divisions together)."""


def season_final(season: Season, division: Division | None = None) -> Final | None:
    """The season's final night, its final table's match and champion, and ``division``'s
    final match (``None``: the season has no final night)."""
    night = ClubNight.objects.filter(season=season, final=True).first()
    if night is None:
        return None
    first = night.rounds.filter(method=Round.Method.FINAL).order_by("number").first()
    found = final_matches(first) if first is not None else []
    match = found[0].match if found else None
    table = match
    if division is not None and found and found[0].by_division:
        table = next((f.match for f in found if f.division == division), None)
    champions: list[Player] = []
    if match is not None:
        won = MatchStanding.objects.filter(match=match, finished=True, rank=1)
        champions = [
            line.player for line in won.select_related("player").order_by("player__display_name")
        ]
    return Final(night, match, champions, table)
