"""A season's downloads that take long to lay out (its standings and its statistics as
PDF and XLSX: the formats whose ``Exporter.kept`` is set), made once per version of what
they hold and kept in the database, where every web process and worker reads them
(issue 55).  A 1,000-player season's statistics are some 137,000 rows: tens of seconds to
lay out, which no request may spend for each anonymous reader.

- **The version** is a hash of everything the file is made of, read in a few queries of
  the season's own rows: the season's row and its club's name; every column of its
  leaderboard lines (their ids and update times too: data changed and changed back is a
  new version) with the players' names; for the standings, the ratings in the reader's
  scope and the division placements; the language, the format and the "Exported on"
  line (a file is made again each day).  Nothing is trusted to have been told of a
  change, and no fingerprint is needed (the demo's SQLite keeps none): a deal entered or
  corrected (once the workers have totalled it), a player renamed, a season re-ranked
  all make a new version, on any database.  A file is made from one snapshot of the
  database (``dbtools.bulk.snapshot``), its version read in the same snapshot.
- **A slot** per season, document, format, language and reader's scope (``SeasonFile``):
  one row each, replaced by a newer version, so what is kept is bounded by the seasons,
  however many readers ask.  Two readers who would see different files (the ratings of
  ``scoring.ratings.scope_for``: a club's own readers or the others; another language)
  never share a slot.
- **The right** to read the season is the view's to check, on every request, before a
  kept file is looked for (``web.downloads``): a file is never served by its slot alone.
- **Who makes it.** The request, where the document has at most ``IN_REQUEST_ROWS``
  rows (a second or two); a worker otherwise (``scoring.tasks.make_season_file``), one
  at a time per slot, while the page says the file is being made and asks again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, models, transaction
from django.db.models import Count
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from dbtools.bulk import plain_rows, snapshot
from scoring import season_tables
from scoring.documents import Document, exported_line
from scoring.exports import EXPORTERS
from scoring.models import Rating, SeasonFile, SeasonStanding
from scoring.players import statistics_of
from tournaments.models import Division, Placement, Season

IN_REQUEST_ROWS = 10_000
"""The most rows of a document that a request lays out itself (a PDF of 10,000 rows: about
two seconds); a longer one is made by a worker."""
STUCK = dt.timedelta(minutes=10)
"""A file asked of a worker that long ago and still not made is asked for again (the
worker died, the broker lost the task)."""


@dataclass(frozen=True)
class Kind:
    """One document of a season that is downloaded."""

    label: Any
    """What the pages call it (a lazily translated text)."""
    document: Callable[[Season, str], Document]
    """The document for a reader of ``scope`` (``scoring.ratings.scope_for``)."""
    reads_ratings: bool
    """Whether it holds ratings, which differ by the reader's scope."""
    rows_per_line: Callable[[str], int]
    """Its rows per leaderboard line of a game: how long it is, before it is made."""


KINDS: dict[str, Kind] = {
    "standings": Kind(_("Standings"), season_tables.standings_document, True, lambda game: 1),
    "statistics": Kind(
        _("Statistics"),
        season_tables.statistics_document,
        False,
        lambda game: len(statistics_of(game)),
    ),
}


def slot(kind: str, fmt: str, scope: str) -> str:
    """Where a file is kept: one per document, format, language and the reader's scope
    (even for a document without ratings: what a club's own readers and the others see
    is never one file)."""
    return f"{kind}.{fmt}.{translation.get_language()}.{scope}"


def _columns(model: type[models.Model], through: str = "") -> list[str]:
    return [through + field.attname for field in model._meta.concrete_fields]


def version(season: Season, kind: str, fmt: str, scope: str) -> str:
    """A hash of everything the season's ``kind`` is made of, in ``fmt`` and the active
    language, for a reader of ``scope``: the same hash, the same file."""
    digest = hashlib.sha256()

    def add(*parts: Any) -> None:
        digest.update(repr(parts).encode())

    add(kind, fmt, slot(kind, fmt, scope), exported_line())
    add(*Season.objects.filter(pk=season.pk).values_list(*_columns(Season), "club__name"))
    lines = SeasonStanding.objects.filter(season=season).order_by("pk")
    add(
        *plain_rows(
            lines.values_list(*_columns(SeasonStanding), "player__display_name", "player__name_ja")
        )
    )
    if KINDS[kind].reads_ratings:  # each line's rating in the scope, and its division
        ratings = Rating.objects.filter(
            scope=scope, game__in=lines.values("game"), player__in=lines.values("player")
        )
        add(*plain_rows(ratings.order_by("pk").values_list(*_columns(Rating))))
        placed = Placement.objects.filter(season=season).order_by("pk")
        add(*placed.values_list("player_id", *_columns(Division, "division__")))
    return digest.hexdigest()


def rows(season: Season, kind: str) -> int:
    """How many rows the season's ``kind`` has (one query of the leaderboard lines)."""
    per_game = SeasonStanding.objects.filter(season=season).values("game").annotate(n=Count("id"))
    return sum(KINDS[kind].rows_per_line(line["game"]) * line["n"] for line in per_game)


def fetch(season: Season, kind: str, fmt: str, scope: str) -> tuple[bytes | None, bool]:
    """The season's ``kind`` in ``fmt`` for a reader of ``scope`` (whose right to read the
    season was checked): (the file, ``False``) kept or made now; or (``None``, whether it
    is to be handed to a worker now: ``False`` when one is making it already)."""
    assert EXPORTERS[fmt].kept, fmt
    where = slot(kind, fmt, scope)
    kept = SeasonFile.objects.filter(season=season, slot=where)
    state = kept.values_list("version", "made_at", "asked_at").first()
    if state is not None and state[1] is None and state[2] > timezone.now() - STUCK:
        return None, False  # a worker is making it: no need to read what it is made of
    current = version(season, kind, fmt, scope)
    if state is not None and state[0] == current:
        data = kept.filter(version=current).values_list("data", flat=True).first()
        if data is not None:
            return bytes(data), False
    if rows(season, kind) <= IN_REQUEST_ROWS:
        return make(season.pk, kind, fmt, scope), False
    return None, _ask(season, where, current)


def _ask(season: Season, where: str, current: str) -> bool:
    """Note that a worker is to make the slot's file; ``False`` if one is on it already."""
    now = timezone.now()
    with transaction.atomic():
        kept = SeasonFile.objects.select_for_update().filter(season=season, slot=where).first()
        if kept is None:
            try:
                with transaction.atomic():
                    SeasonFile.objects.create(season=season, slot=where, version=current)
            except IntegrityError:  # asked at the same moment by another request
                return False
            return True
        if kept.made_at is None and kept.asked_at > now - STUCK:
            return False
        SeasonFile.objects.filter(pk=kept.pk).update(
            version=current, data=None, asked_at=now, made_at=None
        )
        return True


def make(season_id: int, kind: str, fmt: str, scope: str) -> bytes | None:
    """Make the season's file in the active language and keep it under the version it was
    made from (read in the same snapshot); ``None`` if the season is gone."""
    with snapshot():
        season = Season.objects.select_related("club").filter(pk=season_id).first()
        if season is None:
            return None
        made_from = version(season, kind, fmt, scope)
        document = KINDS[kind].document(season, scope)
    data = b"".join(EXPORTERS[fmt].write(document))  # laid out outside the transaction
    now = timezone.now()
    SeasonFile.objects.bulk_create(
        [
            SeasonFile(
                season=season,
                slot=slot(kind, fmt, scope),
                version=made_from,
                data=data,
                asked_at=now,
                made_at=now,
            )
        ],
        update_conflicts=True,
        unique_fields=["season", "slot"],
        update_fields=["version", "data", "made_at"],
    )
    return data


def failed(season_id: int, kind: str, fmt: str, scope: str) -> None:
    """A worker could not make the file: the next request asks again."""
    SeasonFile.objects.filter(
        season_id=season_id, slot=slot(kind, fmt, scope), made_at__isnull=True
    ).delete()
