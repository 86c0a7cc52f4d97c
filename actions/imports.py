"""A checked score sheet written to the club: all of it in one transaction, or nothing.

The club's row is locked and the sheet checked again under the lock, so that two
imports of one file (two administrators, a double click, a retried request) add
it once: the second finds every row's identity stored and adds nothing.  New
players, seasons, club nights, tables, matches, seats, deals with their scores and
rated events are written with a few set-wise statements; the workers rebuild the
seasons' standings and the club's ratings once the transaction has committed
(:func:`actions.after.seasons_changed`).

A table has the name the check gave it (a bare number is the app's ``Table 3``).
A night is the season's club night of that date when it has one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from actions import after
from dbtools.bulk import insert_rows
from tournaments import progress
from tournaments.errors import Rejection
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealScore,
    Match,
    Player,
    Seat,
    Table,
)
from tournaments.sheets import cells
from tournaments.sheets.check import check
from tournaments.sheets.columns import normal
from tournaments.sheets.preview import Preview


class SheetRejected(Rejection):
    """The sheet's mistakes (its ``errors``), and the ``preview`` that found them."""

    def __init__(self, preview: Preview) -> None:
        super().__init__(tuple(preview.errors))
        self.preview = preview


@dataclass(frozen=True)
class Imported:
    preview: Preview
    """What was checked and written (its ``counts()``)."""
    season_ids: list[int]


def import_sheet(
    club: Club,
    data: bytes | cells.Rows,
    players: Mapping[str, str] | None = None,
    user: User | None = None,
) -> Imported:
    """Check the sheet ``data`` and write what it adds to ``club``; a :class:`Rejection`
    with every mistake (by row and column) when it has any, and nothing written.

    The file is read into rows before the transaction (a large one takes seconds): the
    club's lock is held only for the check of its rows and the writing."""
    rows = data if isinstance(data, cells.Rows) else cells.read(data)
    with transaction.atomic():
        # One import at a time per club: a second waits, then finds the first's rows.
        Club.objects.select_for_update().get(pk=club.pk)
        preview = check(club, rows, players)
        if not preview.valid:
            raise SheetRejected(preview)
        return _write(club, preview, user)


def _write(club: Club, preview: Preview, user: User | None) -> Imported:
    now = timezone.now()
    Player.objects.bulk_create(preview.new_players.values())
    ids = dict(Player.objects.filter(club=club).values_list("handle", "pk"))
    matches = preview.to_add
    seasons = {name: preview.seasons[name] for name in {m.season for m in matches}}
    for season in seasons.values():
        if season.pk is None:
            season.save()
    nights: dict[tuple[int, object], ClubNight] = {}
    tables: dict[tuple[int, str], Table] = {}
    made: list[Match] = []
    for m in matches:
        season = seasons[m.season]
        assert season.pk is not None
        night = nights.get((season.pk, m.date))
        if night is None:
            night = ClubNight.objects.filter(season=season, date=m.date).order_by("pk").first()
            night = night or ClubNight.objects.create(season=season, date=m.date)
            nights[(season.pk, m.date)] = night
        name = m.table
        table = tables.get((night.pk, normal(name)))
        if table is None:
            table = next((t for t in night.tables.all() if normal(t.name) == normal(name)), None)
            table = table or Table.objects.create(club_night=night, name=name)
            tables[(night.pk, normal(name))] = table
        seats = [(h, ids[h]) for h in m.handles]
        assert m.snapshot is not None
        last = (len(m.deals), m.deals[-1].record) if m.deals else None
        state = progress.Progress(len(m.deals), seats, m.snapshot, last)
        finished = m.finished
        made.append(
            Match(
                table=table,
                game=m.game,
                rules=m.rules,
                target=m.target,
                status=Match.Status.FINISHED if finished else Match.Status.OPEN,
                finished_at=now if finished else None,
                created_at=now,
                state=state.to_json(),
                version=1,
                checked_version=0,
            )
        )
    Match.objects.bulk_create(made)
    Seat.objects.bulk_create(
        Seat(match=stored, player_id=ids[h], position=i)
        for stored, m in zip(made, matches, strict=True)
        for i, h in enumerate(m.handles)
    )
    rows = []
    for stored, m in zip(made, matches, strict=True):
        seats = [(h, ids[h]) for h in m.handles]
        for number, deal in enumerate(m.deals, 1):
            event = progress.rating_event(
                m.game, deal.record, deal.result.details, seats, deal.result.scores
            )
            rows.append(
                (
                    stored.pk,
                    number,
                    deal.record,
                    user.pk if user else None,
                    now,
                    user.pk if user else None,
                    now,
                    deal.key,
                    deal.request_hash,
                    event,
                )
            )
    fields = [
        "match",
        "number",
        "record",
        "entered_by",
        "entered_at",
        "confirmed_by",
        "confirmed_at",
        "idempotency_key",
        "request_hash",
        "event",
    ]
    deal_ids = insert_rows(Deal, fields, rows, ids=True)
    scores = []
    deals = (deal for m in matches for deal in m.deals)
    for deal_id, deal in zip(deal_ids, deals, strict=True):
        winners = set(deal.result.winners)
        scores += [(deal_id, ids[h], s, h in winners) for h, s in deal.result.scores.items()]
    insert_rows(DealScore, ["deal", "player", "score", "won"], scores)
    season_ids = sorted(s.pk for s in seasons.values() if s.pk is not None)
    after.seasons_changed(season_ids)
    return Imported(preview, season_ids)
