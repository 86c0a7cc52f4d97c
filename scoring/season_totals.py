"""Totalling a season: the standings' second half (``scoring.standings`` checks matches).

A season's leaderboards (one per game) are made from its checked match lines
(``MatchStanding``) alone, ranked by the season's ranking (``tournaments.ranking``: its
score, whether a player qualified, then each game's own tie-breaks): on PostgreSQL one
statement of every line, writing only what differs; elsewhere (the demo's SQLite) the
same rows in Python (:func:`_season_in_python`).  A rebuild skips a season whose lines
and ranking are those it was last totalled from (``scoring.fingerprints``).  The
season's plot is not stored: its pages read it from the same match lines
(``scoring.sheets.night_points``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

import engine
from dbtools import backend
from dbtools.bulk import insert_rows, plain_plans
from scoring import fingerprints
from scoring.models import COUNT_COLUMNS, MatchStanding, SeasonStanding
from tournaments import ranking
from tournaments.games import LeagueGame
from tournaments.models import Season

STANDING = (
    "season game player total deals deals_won matches matches_won rank updated_at "
    "score qualified nights finished_matches rank_sum top_half last_place "
    + " ".join(COUNT_COLUMNS)
).split()
"""A season line's columns, in the order of ``_season_in_python``'s tuples."""


RANK_SUMS = ["finished_matches", "rank_sum", "top_half", "last_place"]
"""A season line's sums over the player's finished matches, for the rank statistics."""

SCORES: dict[str, str] = {
    ranking.Method.TOTAL: "t.total",
    ranking.Method.PER_MATCH: f"ROUND(t.total::numeric / t.matches, {ranking.PLACES})",
    ranking.Method.PER_DEAL: f"ROUND(t.total::numeric / t.deals, {ranking.PLACES})",
    ranking.Method.BEST_NIGHTS: "(SELECT SUM(p) FROM unnest(bn.best) p)",
    ranking.Method.BEST_MATCHES: "(SELECT SUM(p) FROM unnest(bm.best) p)",
}
"""Each ranking method's figure in SQL, the twin of its ``ranking.WAYS[…].figure``: an
expression of a player's totals (``t.total``, ``t.deals``, ``t.matches``, ``t.nights``) and
best N points (``bn.best``, ``bm.best``), read by :func:`_totals_statement`."""


def count_columns(league: LeagueGame) -> list[tuple[str, str]]:
    """The game's own counts (its ``counts``), each with the match line's column that
    holds it."""
    return list(zip(league.counts, COUNT_COLUMNS, strict=False))


def rebuild_season_standings(season_id: int) -> bool:
    """Rewrite a season's leaderboards (one per game) from its checked match lines;
    ``False`` when there is no such season."""
    return bool(rebuild_seasons([season_id]))


def rebuild_seasons(
    season_ids: list[int], *, fingerprinted: bool = False, every: bool = False
) -> int:
    """Bring these seasons' leaderboards up to date with their checked match lines,
    under a lock on each season; returns how many seasons there were.

    On PostgreSQL a fixed handful of set-based statements whatever the number of seasons
    and deals, which write only what differs (a line whose numbers are the same is not
    touched).  ``fingerprinted`` (a rebuild): a season whose match lines
    are the ones it was last totalled from (:mod:`scoring.fingerprints`) is skipped,
    unless ``every``, and the fingerprints are kept.  After a deal (not fingerprinted)
    the season's lines have changed anyway: no fingerprint is taken on that hot path,
    and the one kept no longer matches (line ids are never reused)."""
    with transaction.atomic():
        plain_plans()
        seasons = list(
            Season.objects.select_for_update(no_key=True).filter(pk__in=season_ids).order_by("pk")
        )
        ids = [s.pk for s in seasons]
        if not ids:
            return 0
        # Taken before the totals: lines added meanwhile make a difference next time.
        now = fingerprints.of_seasons(ids) if fingerprinted else {}
        if fingerprinted and not every:
            before = fingerprints.kept(fingerprints.SEASON, ids)
            ids = [i for i in ids if i not in now or before.get(i) != now[i]]
        if ids:
            _totals(seasons, ids)
        fingerprints.keep(fingerprints.SEASON, {i: now[i] for i in ids if i in now})
        return len(seasons)


def _totals_in_sql(seasons: list[Season], ids: list[int]) -> None:
    """PostgreSQL: the seasons' lines in one set-based statement."""
    with connection.cursor() as cursor:
        # The seasons that count their best nights or matches (any method in ``BEST``, by
        # its ``nights``), named: the planner then reads their lines' number from the
        # lines' statistics.
        counted = [x for x in seasons if x.pk in ids and x.ranking in ranking.BEST]
        best = {
            "best_nights": [x.pk for x in counted if ranking.WAYS[x.ranking].nights],
            "best_matches": [x.pk for x in counted if not ranking.WAYS[x.ranking].nights],
        }
        cursor.execute(_totals_statement(), {"seasons": ids, **best})


def _totals_here(seasons: list[Season], ids: list[int]) -> None:
    """Any database: the seasons' lines made again, season by season."""
    SeasonStanding.objects.filter(season__in=ids).delete()
    for season in seasons:
        if season.pk in ids:
            _season_in_python(season)


_totals = backend.twin(postgresql=_totals_in_sql, portable=_totals_here)


def _totals_statement() -> str:
    """One INSERT … SELECT of every leaderboard line, by each season's ranking
    (``tournaments.ranking``: its score, whether the player qualified, then each game's
    ``ranked_by``)."""
    longest = max(len(g.ranked_by()) for g in engine.GAMES.values())
    order = ["qualified DESC", "score DESC"]
    for i in range(longest):
        cases = " ".join(
            f"WHEN '{name}' THEN {game.ranked_by()[i]}"
            for name, game in sorted(engine.GAMES.items())
            if len(game.ranked_by()) > i
        )
        order.append(f"CASE game {cases} END DESC NULLS LAST")
    compared = ["total", "deals", "deals_won", "matches", "matches_won", "rank"]
    compared += ["score", "qualified", "nights", *RANK_SUMS, *COUNT_COLUMNS]
    key = ["season_id", "game", "player_id"]
    written = _differences_statement("scoring_seasonstanding", key, compared, "updated_at")
    return f"""
        WITH nightly AS (
            SELECT season_id, game, player_id, SUM(points) AS points
              FROM scoring_matchstanding
             WHERE season_id = ANY(%(best_nights)s) AND scored > 0
             GROUP BY season_id, game, player_id, club_night_id
        ), best_nights AS (
            SELECT n.season_id, n.game, n.player_id,
                   (array_agg(n.points ORDER BY n.points DESC))[:MIN(s.best_of)] AS best
              FROM nightly n JOIN tournaments_season s ON s.id = n.season_id
             GROUP BY n.season_id, n.game, n.player_id
        ), best_matches AS (
            SELECT ms.season_id, ms.game, ms.player_id,
                   (array_agg(ms.points ORDER BY ms.points DESC))[:MIN(s.best_of)] AS best
              FROM scoring_matchstanding ms JOIN tournaments_season s ON s.id = ms.season_id
             WHERE ms.season_id = ANY(%(best_matches)s) AND ms.scored > 0
             GROUP BY ms.season_id, ms.game, ms.player_id
        ), totals AS (
            SELECT ms.season_id, ms.game, ms.player_id, SUM(ms.points) AS total,
                   SUM(ms.scored) AS deals, SUM(ms.deals_won) AS deals_won, COUNT(*) AS matches,
                   COUNT(*) FILTER (WHERE ms.finished AND ms.rank = 1) AS matches_won,
                   COUNT(DISTINCT ms.club_night_id) AS nights,
                   {", ".join(f"SUM(ms.{c}) AS {c}" for c in COUNT_COLUMNS)},
                   COUNT(*) FILTER (WHERE ms.finished) AS finished_matches,
                   COALESCE(SUM(ms.rank) FILTER (WHERE ms.finished), 0) AS rank_sum,
                   COUNT(*) FILTER (WHERE ms.top_half) AS top_half,
                   COUNT(*) FILTER (WHERE ms.last_place) AS last_place
              FROM scoring_matchstanding ms
             WHERE ms.season_id = ANY(%(seasons)s) AND ms.scored > 0
             GROUP BY ms.season_id, ms.game, ms.player_id
        ), scored AS (
            SELECT t.*,
                   CASE s.ranking {" ".join(f"WHEN '{m}' THEN {x}" for m, x in SCORES.items())}
                   END AS score,
                   CASE s.qualify_by
                       WHEN 'matches' THEN t.matches WHEN 'deals' THEN t.deals ELSE t.nights
                   END >= s.qualify_minimum AS qualified
              FROM totals t
              JOIN tournaments_season s ON s.id = t.season_id
              LEFT JOIN best_nights bn USING (season_id, game, player_id)
              LEFT JOIN best_matches bm USING (season_id, game, player_id)
        ), fresh AS (
            SELECT season_id, game, player_id, total, deals, deals_won, matches, matches_won,
                   RANK() OVER (PARTITION BY season_id, game ORDER BY {", ".join(order)}) AS rank,
                   now() AS updated_at, score, qualified, nights,
                   {", ".join(RANK_SUMS + COUNT_COLUMNS)}
              FROM scored
        )
        {written}
    """


def _differences_statement(
    table: str, key: list[str], compared: list[str], touched: str = ""
) -> str:
    """Make the seasons' rows of ``table`` the ``fresh`` ones, writing only what differs: a
    row no longer fresh deleted, one whose ``compared`` columns differ updated (and its
    ``touched`` time), one missing inserted.  Fresh and stored rows are matched by one
    hash join (not a probe of the unique index per row, nor a second join for the rows
    gone): a season whose numbers did not change costs two reads and writes nothing.
    The seasons are the statement's parameter ``seasons``."""
    changed = [*compared, *([touched] if touched else [])]
    columns = [*key, *changed]
    same_key = " AND ".join(f"f.{c} = o.{c}" for c in key)
    fresh = ", ".join(f"f.{c}" for c in columns)
    return f"""
        , old AS (
            SELECT id, {", ".join(key + compared)} FROM {table} WHERE season_id = ANY(%(seasons)s)
        ), diff AS (
            SELECT o.id AS old_id, f.{key[0]} IS NULL AS gone, {fresh}
              FROM fresh f FULL JOIN old o ON {same_key}
             WHERE o.id IS NULL OR f.{key[0]} IS NULL
                OR ({", ".join(f"o.{c}" for c in compared)})
                   IS DISTINCT FROM ({", ".join(f"f.{c}" for c in compared)})
        ), deleted AS (
            DELETE FROM {table} t USING diff d
             WHERE t.id = d.old_id AND d.gone AND t.season_id = ANY(%(seasons)s)
        ), updated AS (
            UPDATE {table} t SET {", ".join(f"{c} = d.{c}" for c in changed)}
              FROM diff d
             WHERE t.id = d.old_id AND NOT d.gone AND t.season_id = ANY(%(seasons)s)
        )
        INSERT INTO {table} ({", ".join(columns)})
        SELECT {", ".join(columns)} FROM diff WHERE old_id IS NULL
    """


def _season_in_python(season: Season) -> None:
    """The same rows as the statements above, for databases without them (the demo's)."""
    rule = ranking.Rule.of(season)
    lines = MatchStanding.objects.filter(season=season, scored__gt=0)
    totals = lines.values("game", "player_id").annotate(
        total=Sum("points"),
        deals=Sum("scored"),
        deals_won=Sum("deals_won"),
        matches=Count("id"),
        matches_won=Count("id", filter=Q(finished=True, rank=1)),
        finished_matches=Count("id", filter=Q(finished=True)),
        rank_sum=Coalesce(Sum("rank", filter=Q(finished=True)), 0),
        top_half=Count("id", filter=Q(top_half=True)),
        last_place=Count("id", filter=Q(last_place=True)),
        **{column: Sum(column) for column in COUNT_COLUMNS},
    )
    # Keyed by the night, in the nights' order: by date, then by id (issue 56).
    per_night = sorted(
        lines.values("game", "player_id", "club_night__date", "club_night_id")
        .annotate(points=Sum("points"))
        .values_list("game", "club_night__date", "club_night_id", "player_id", "points")
    )
    night_points: dict[tuple[str, int], list[int]] = defaultdict(list)
    for game, _date, _night, player_id, points in per_night:
        night_points[(game, player_id)].append(points)
    match_points: dict[tuple[str, int], list[int]] = defaultdict(list)
    for game, player_id, points in lines.values_list("game", "player_id", "points"):
        match_points[(game, player_id)].append(points)
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in totals:
        key = (row["game"], row["player_id"])
        row["played"] = ranking.Played(
            row["total"], row["deals"], row["matches"], night_points[key], match_points[key]
        )
        by_game[row["game"]].append(row)
    rows: list[tuple[Any, ...]] = []
    now = timezone.now()
    for game_name, board in by_game.items():
        ranks = rule.ranks(
            game_name, {line["player_id"]: (line["played"], line["deals_won"]) for line in board}
        )
        rows += [
            (
                season.pk,
                game_name,
                line["player_id"],
                line["total"],
                line["deals"],
                line["deals_won"],
                line["matches"],
                line["matches_won"],
                ranks[line["player_id"]],
                now,
                rule.score(line["played"]),
                rule.qualified(line["played"]),
                line["played"].nights,
                *(line[name] for name in RANK_SUMS + COUNT_COLUMNS),
            )
            for line in board
        ]
    insert_rows(SeasonStanding, STANDING, rows)
