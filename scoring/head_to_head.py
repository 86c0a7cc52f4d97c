"""Head to head (issue 41, 3): how a player fared against each player met at a table.

Read from the matches' checked lines (``MatchStanding``), finished matches only, in the
seasons the reader may read.  For two players at one table:

- **ahead** / **behind**: the player finished the match ranked better / worse than the
  other (the game's own ranking of the match: points, then its tie-breaks); **level**:
  the same rank (a shared place, or partners who win and lose together);
- **points**: the player's points minus the other's, summed over those matches.

Different games' points never add up: every record is of one game (a pair who met at
Napoleon and at Packing has a line of each), and what is said across games counts
matches alone (:func:`together`).

One query, whatever the number of matches: every line of the player's finished matches
with the player's own rank and points beside it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Subquery

from scoring.models import MatchStanding
from tournaments import access
from tournaments.games import LEAGUE_GAMES
from tournaments.models import Player, Season
from tournaments.textfile import whole_number

GAME_ORDER = list(LEAGUE_GAMES)
"""The pages' order of games."""


@dataclass
class Record:
    """The player against ``opponent`` (in one season's game, or everywhere)."""

    opponent: Player
    season: Season | None = None
    game: str = ""
    matches: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0
    points: int = 0

    def add(self, mine: int, theirs: int, my_total: int, their_total: int) -> None:
        self.matches += 1
        self.ahead += mine < theirs
        self.behind += mine > theirs
        self.level += mine == theirs
        self.points += my_total - their_total


def _lines(player: Player, seasons: Iterable[Season], opponent: Player | None = None) -> list:
    mine = MatchStanding.objects.filter(match=OuterRef("match"), player=player)
    matches = MatchStanding.objects.filter(
        player=player, finished=True, season__in=list(seasons)
    ).values("match")
    others = MatchStanding.objects.filter(match__in=matches).exclude(player=player)
    if opponent is not None:
        others = others.filter(player=opponent)
    return list(
        others.annotate(
            my_rank=Subquery(mine.values("rank")[:1]),
            my_total=Subquery(mine.values("total")[:1]),
        ).values_list("player_id", "season_id", "game", "rank", "total", "my_rank", "my_total")
    )


def _game_order(game: str) -> int:
    return GAME_ORDER.index(game) if game in GAME_ORDER else len(GAME_ORDER)


def opponents(player: Player, seasons: Iterable[Season]) -> list[Record]:
    """Everyone the player met at a table, one record per opponent and game (``season``
    None): the most often met first, each opponent's games in the pages' order."""
    records: dict[tuple[int, str], Record] = {}
    met: dict[int, int] = defaultdict(int)
    rows = _lines(player, seasons)
    people = Player.objects.in_bulk({row[0] for row in rows})
    for other, _season, game, rank, total, my_rank, my_total in rows:
        record = records.setdefault((other, game), Record(people[other], game=game))
        record.add(my_rank, rank, my_total, total)
        met[other] += 1
    return sorted(
        records.values(),
        key=lambda r: (
            -met[r.opponent.pk],
            r.opponent.shown_name,
            r.opponent.pk,
            _game_order(r.game),
        ),
    )


def against(player: Player, opponent: Player, seasons: Iterable[Season]) -> list[Record]:
    """The two players' record in each season and game (the latest season first), then in
    all seasons, one record per game (``season`` None), in the pages' order of games."""
    by_season = {s.pk: s for s in seasons}
    records: dict[tuple[int, str], Record] = {}
    overall: dict[str, Record] = {}
    for _other, season, game, rank, total, my_rank, my_total in _lines(
        player, by_season.values(), opponent
    ):
        key = (season, game)
        record = records.setdefault(key, Record(opponent, by_season[season], game))
        record.add(my_rank, rank, my_total, total)
        overall.setdefault(game, Record(opponent, game=game)).add(my_rank, rank, my_total, total)
    listed = sorted(
        records.values(),
        key=lambda r: (-r.season.pk if r.season else 0, _game_order(r.game), r.game),
    )
    in_all = sorted(overall.values(), key=lambda r: (_game_order(r.game), r.game))
    return [*listed, *in_all]


def together(records: Iterable[Record]) -> Record | None:
    """The matches of ``records``' in-all lines (``season`` None) counted together, for the
    sentence above the table: matches, ahead, behind and level add up across games;
    points never do (``points`` stays 0: not shown)."""
    in_all = [r for r in records if r.season is None]
    if not in_all:
        return None
    total = Record(in_all[0].opponent)
    for r in in_all:
        total.matches += r.matches
        total.ahead += r.ahead
        total.behind += r.behind
        total.level += r.level
    return total


def for_reader(player: Player, user: Any, other: str | None) -> tuple[Player | None, list[Record]]:
    """What the page and the API show ``user``: with no ``other``, everyone the player met
    (:func:`opponents`); with ``other`` (a player id, as a query string gives it), that
    player and the two's records (:func:`against`).  In the seasons ``user`` may read;
    ``LookupError`` when ``other`` names no other player of the club ``user`` may see."""
    seasons = list(access.visible(Season.objects.filter(club=player.club_id), user))
    if other is None:
        return None, opponents(player, seasons)
    number = whole_number(other)
    club = access.visible(Player.objects.filter(club=player.club_id), user)
    opponent = club.filter(pk=number).exclude(pk=player.pk).first() if number else None
    if opponent is None:
        raise LookupError(other)
    return opponent, against(player, opponent, seasons)
