"""A club night itself: saved (its date, times and plan checked, two nights of one
date told apart, one final a season), called off and brought back.  Its tables, the
draw and who sits where are :mod:`actions.seating`."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from actions.after import announce
from tournaments.errors import Rejection, error
from tournaments.models import ClubNight, Deal, Season
from tournaments.models.nights import (
    FINAL_TAKEN,
    ROUNDS_OUT,
    ROUNDS_PLANNED,
    TABLE_SIZE_OUT,
    TABLE_SIZES,
)
from tournaments.names import night_label

CALENDAR_FIELDS = ("date", "starts_at", "ends_at", "venue", "name")
"""What a calendar shows of a night: a change to any raises its ``sequence`` (iCalendar
SEQUENCE), so that calendar apps replace the entry they hold."""
END_WITHOUT_START = gettext_noop(
    "An end time needs a start time: write when the night begins, or leave both empty."
)
END_AT_START = gettext_noop(
    "The night ends when it begins: write a later end time (after midnight: the next day)."
)


NIGHT_NOT_TOLD_APART = gettext_noop(
    "This season already has a night called “%(label)s”: give this one a short name "
    "(Afternoon, Evening) so that the two are told apart in every list."
)


def save_night(night: ClubNight) -> ClubNight:
    """Store a new or changed club night, as the pages and the API do.  A season has one
    final night: under the season's row lock a second is refused, so that two
    administrators marking two nights at once store one final and get an answer each.
    A table size or rounds planned out of bounds is refused, nothing stored.

    A changed night's date, times, venue or name raise its ``sequence`` by one and set
    ``changed_at``, under the night's row lock and in the save's transaction; a save that
    changes none of them (a retried form, a changed table size) raises nothing.  Whether
    the night is called off, and its sequence, are the stored row's: a form opened before
    the night was called off does not bring it back (:func:`cancel_night`).

    Two nights of a season on one date must be told apart: one with the date, name and
    venue of another (both unnamed at one hall, as an afternoon and an evening would
    be made) is refused on its name, under the same lock, with the other's label.

    A new night with a ``form_key`` (the new-night form's one-time key) that a night of
    the season was stored with is that night sent again (a double tap, Back and Save):
    the stored night is returned (``replayed`` set), nothing changed."""
    _check_plan(night)
    _check_times(night)
    with transaction.atomic():
        Season.objects.select_for_update(no_key=True).filter(pk=night.season_id).first()
        if night.pk is None and night.form_key:
            sent = ClubNight.objects.filter(season_id=night.season_id, form_key=night.form_key)
            if (stored_once := sent.first()) is not None:
                stored_once.replayed = True
                return stored_once
        if night.final and ClubNight.final_taken(night.season_id, night.pk):
            raise Rejection((error("final_taken", "final", FINAL_TAKEN),))
        _check_told_apart(night)
        stored = (
            ClubNight.objects.select_for_update()
            .filter(pk=night.pk)
            .values(*CALENDAR_FIELDS, "sequence", "changed_at", "cancelled_at")
            .first()
            if night.pk
            else None
        )
        if stored is not None:
            night.cancelled_at = stored["cancelled_at"]
            night.sequence, night.changed_at = stored["sequence"], stored["changed_at"]
            if any(getattr(night, f) != stored[f] for f in CALENDAR_FIELDS):
                night.sequence += 1
                night.changed_at = timezone.now()
        night.save()
    return night


def _check_told_apart(night: ClubNight) -> None:
    """Refuse a night that every list would name as another of its season's nights
    (``tournaments.names.night_label``: the date, the name or "Final", the venue)."""

    def called(n: ClubNight) -> tuple[str, str]:
        name = (n.name or "").strip().casefold() or ("\0final" if n.final else "")
        return name, (n.venue or "").strip().casefold()

    others = ClubNight.objects.filter(season_id=night.season_id, date=night.date)
    same = next((o for o in others.exclude(pk=night.pk) if called(o) == called(night)), None)
    if same is not None:
        raise Rejection(
            (error("night_not_told_apart", "name", NIGHT_NOT_TOLD_APART, label=night_label(same)),)
        )


def _check_times(night: ClubNight) -> None:
    """An end time only with a start time, and not the start time itself (an end before
    the start is the next day's: a night past midnight)."""
    if night.ends_at is not None and night.starts_at is None:
        raise Rejection((error("end_without_start", "ends_at", END_WITHOUT_START),))
    if night.ends_at is not None and night.ends_at == night.starts_at:
        raise Rejection((error("end_at_start", "ends_at", END_AT_START),))


HAS_DEALS = gettext_noop(
    "This night has deals: it took place, and is not called off. To hold it on another "
    "day, change its date; to stop it early, end its matches."
)


def cancel_night(night: ClubNight) -> bool:
    """Call the night off: ``cancelled_at`` set, ``sequence`` raised (calendars show it
    cancelled).  A night that has deals (deleted ones too) took place: it is refused
    with what to do instead (change its date, or end its matches), since calling it off
    would leave scores of a night that says it never happened.  A night drawn onto
    tables without a deal may be called off; its tables stay, for when it is brought
    back.  Called off already: nothing changes (``False``), as for a retried tap.  The
    club's players who follow their nights are told (``night.cancelled``), and its
    webhooks."""
    return _set_cancelled(night, cancelled=True)


def restore_night(night: ClubNight) -> bool:
    """Bring a called-off night back: ``cancelled_at`` cleared, ``sequence`` raised.
    Not called off: nothing changes (``False``).  Told as the call-off was
    (``night.restored``)."""
    return _set_cancelled(night, cancelled=False)


def has_deals(night: ClubNight) -> bool:
    """Whether a deal was entered at the night (deleted ones too): it took place."""
    return Deal.objects.filter(match__table__club_night=night).exists()


def _set_cancelled(night: ClubNight, *, cancelled: bool) -> bool:
    with transaction.atomic():
        row = ClubNight.objects.select_for_update().get(pk=night.pk)
        if (row.cancelled_at is not None) == cancelled:
            night.cancelled_at, night.sequence = row.cancelled_at, row.sequence
            return False
        if cancelled and has_deals(row):
            raise Rejection((error("night_has_deals", "", HAS_DEALS),))
        now = timezone.now()
        row.cancelled_at = now if cancelled else None
        row.sequence += 1
        row.changed_at = now
        row.save(update_fields=["cancelled_at", "sequence", "changed_at"])
        if cancelled:
            announce("night.cancelled", night=row.pk)
        else:
            announce("night.restored", night=row.pk, sequence=row.sequence)
    night.cancelled_at, night.sequence, night.changed_at = (
        row.cancelled_at,
        row.sequence,
        row.changed_at,
    )
    return True


def _check_plan(night: ClubNight) -> None:
    """The night's table size and rounds planned, when given, within their bounds."""
    for field, (low, high), problem in [
        ("table_size", TABLE_SIZES, TABLE_SIZE_OUT),
        ("rounds_planned", ROUNDS_PLANNED, ROUNDS_OUT),
    ]:
        value = getattr(night, field)
        if value is not None and not (isinstance(value, int) and low <= value <= high):
            raise Rejection((error("out_of_range", field, problem),))
