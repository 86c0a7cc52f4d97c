"""What a set of derived rows was made from (issue 26), so that a rebuild of data that did
not change reads a few aggregates and writes nothing.

- **A season's leaderboards** are made from its checked match lines
  (``MatchStanding``) and its ranking settings: every check of a match replaces its lines
  with new rows (new ids), a deleted match or player takes its lines away, so the number
  of the season's lines, the largest of their ids and its ranking are its fingerprint.
- **A club's ratings** are made from its matches' deals in the order of their nights,
  and from its seasons' settings (public, confirmation, games): every change of a
  match's deals moves its ``version``, so the matches' ids, versions and nights, the
  seasons' settings and the rating model are the fingerprint.

Fingerprints are taken on PostgreSQL (one aggregate each); elsewhere (the demo's SQLite)
none is taken and everything is made again, as before.  ``rebuild_standings --recheck``
ignores them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.db.models import F

from dbtools import backend
from scoring.models import Fingerprint
from tournaments.models import Match, Season

SEASON = "season"
RATINGS = "ratings"

_SEASONS = """
    SELECT s.id, concat_ws(':', s.ranking, s.best_of, s.qualify_by, s.qualify_minimum,
                           l.lines, l.last)
      FROM tournaments_season s
     CROSS JOIN LATERAL (
           SELECT count(*) AS lines, max(ms.id) AS last
             FROM scoring_matchstanding ms
            WHERE ms.season_id = s.id) l
     WHERE s.id = ANY(%s)
"""
"""A season's ranking settings, the number of its match lines and the largest of their
ids, read from the lines' index (``match_line_by_season``: season, id) alone.  Lines are
only ever added (with ids from a sequence: larger than every id before) and deleted,
never changed in place: a line added raises the largest id, a line deleted alone lowers
the number, so any change to the season's lines changes the pair."""

_RATINGS = """
    SELECT c.id, md5(concat_ws('|', %s, f.seasons, m.matches, m.mixed))
      FROM tournaments_club c
     CROSS JOIN LATERAL (
           SELECT string_agg(concat_ws(':', s.id, s.public, s.require_confirmation,
                                       s.games::text), ',' ORDER BY s.id) AS seasons
             FROM tournaments_season s
            WHERE s.club_id = c.id) f
     CROSS JOIN LATERAL (
           SELECT count(*) AS matches,
                  sum(hashtextextended(concat_ws(':', m.id, m.version, n.id, n.date, s.id), 0)
                      ::numeric) AS mixed
             FROM tournaments_season s
             JOIN tournaments_clubnight n ON n.season_id = s.id
             JOIN tournaments_table t ON t.club_night_id = n.id
             JOIN tournaments_match m ON m.table_id = t.id
            WHERE s.club_id = c.id) m
     WHERE c.id = ANY(%s)
"""
"""A club's rating model, its seasons' settings, and its matches taken club by club
(``LATERAL``: through the indexes from its seasons down, where one join of every club's
matches read the whole table of matches) as their number and the sum of a 64-bit hash of
each match's id, version (raised by every change to its deals), night, night's date and
season: a sum, in no order, where a text of every match sorted by id and hashed took
twice as long (docs/benchmarks.md).  A club with no match has the fingerprint of its
settings alone."""


taken = backend.twin(postgresql=lambda: True, portable=lambda: False)
"""Whether fingerprints are taken: on PostgreSQL (a LATERAL read per club); the embedded
demo rebuilds everything."""


def of_seasons(season_ids: list[int]) -> dict[int, str]:
    """Each season's fingerprint now (none where fingerprints are not taken)."""
    if not taken() or not season_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_SEASONS, [season_ids])
        return dict(cursor.fetchall())


def of_clubs_ratings(club_ids: list[int]) -> dict[int, str]:
    """Each club's ratings' fingerprint now (one query, whatever the number of clubs)."""
    if not taken() or not club_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_RATINGS, [settings.RATING_MODEL, club_ids])
        return dict(cursor.fetchall())


def clubs_to_rebuild(club_ids: list[int]) -> list[int]:
    """Of these clubs, those a rebuild (not ``--recheck``) has anything to do for: a match
    whose deals changed since its last check, a season whose lines are not the ones it was
    last totalled from, ratings not made from the club's matches as they are.  A few
    set-based queries for the whole federation, so that a rebuild of unchanged data sends
    no work to the workers.  Where fingerprints are not taken, every club."""
    if not taken():
        return club_ids
    unchecked = Match.objects.exclude(checked_version=F("version")).filter(
        table__club_night__season__club_id__in=club_ids
    )
    changed = set(unchecked.values_list("table__club_night__season__club_id", flat=True))
    seasons = dict(Season.objects.filter(club_id__in=club_ids).values_list("pk", "club_id"))
    # Rows with no fingerprint kept (after an upgrade, a restore) are to be made whatever
    # their fingerprint now: it is taken only where there is one to compare with.
    # Nor is it taken for a club already known to have work.
    kept_seasons = kept(SEASON, list(seasons))
    changed |= {club for season, club in seasons.items() if season not in kept_seasons}
    compared = [s for s in kept_seasons if seasons[s] not in changed]
    changed |= {seasons[s] for s, v in of_seasons(compared).items() if kept_seasons[s] != v}
    kept_ratings = kept(RATINGS, club_ids)
    changed |= {c for c in club_ids if c not in kept_ratings}
    compared = [c for c in kept_ratings if c not in changed]
    changed |= {c for c, v in of_clubs_ratings(compared).items() if kept_ratings[c] != v}
    return [c for c in club_ids if c in changed]


def kept(kind: str, ids: list[int]) -> dict[int, str]:
    """The fingerprints kept when these rows were last made."""
    return dict(Fingerprint.objects.filter(kind=kind, of__in=ids).values_list("of", "value"))


def keep(kind: str, values: dict[int, str]) -> None:
    """Note what these rows are now made from (in the transaction that made them)."""
    if values:
        Fingerprint.objects.bulk_create(
            [Fingerprint(kind=kind, of=of, value=value) for of, value in values.items()],
            update_conflicts=True,
            unique_fields=["kind", "of"],
            update_fields=["value"],
        )


def forget(kind: str, ids: list[int]) -> None:
    """These rows were made from something else (a partial replay): make them again."""
    Fingerprint.objects.filter(kind=kind, of__in=ids).delete()
