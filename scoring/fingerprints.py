"""What a set of derived rows was made from (issue 26), so that a rebuild of data that did
not change reads a few aggregates and writes nothing.

- **A season's leaderboards and plot points** are made from its checked match lines
  alone (``MatchStanding``): every check of a match replaces its lines with new rows
  (new ids), a deleted match or player takes its lines away, so the season's line ids
  are its fingerprint.
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

from scoring.models import Fingerprint

SEASON = "season"
RATINGS = "ratings"

_SEASONS = """
    SELECT s.id, md5(COALESCE(string_agg(ms.id::text, ',' ORDER BY ms.id), ''))
      FROM tournaments_season s
      LEFT JOIN scoring_matchstanding ms ON ms.season_id = s.id
     WHERE s.id = ANY(%s)
     GROUP BY s.id
"""

_RATINGS = """
    SELECT md5(%s || COALESCE(string_agg(
               concat_ws(':', m.id, m.version, n.date, s.id, s.public, s.require_confirmation,
                         s.games::text),
               ',' ORDER BY m.id), ''))
      FROM tournaments_match m
      JOIN tournaments_table t ON t.id = m.table_id
      JOIN tournaments_clubnight n ON n.id = t.club_night_id
      JOIN tournaments_season s ON s.id = n.season_id
     WHERE s.club_id = %s
"""


def taken() -> bool:
    return connection.vendor == "postgresql"


def of_seasons(season_ids: list[int]) -> dict[int, str]:
    """Each season's fingerprint now (none where fingerprints are not taken)."""
    if not taken() or not season_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_SEASONS, [season_ids])
        return dict(cursor.fetchall())


def of_ratings(club_id: int) -> str | None:
    """The club's ratings' fingerprint now."""
    if not taken():
        return None
    with connection.cursor() as cursor:
        cursor.execute(_RATINGS, [settings.RATING_MODEL, club_id])
        row = cursor.fetchone()
    return row[0] if row else None


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
