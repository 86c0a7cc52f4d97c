"""Asking for a club's export (``scoring.jobs``: a backup, and whatever else registers a
kind): once however often it is asked, and handed to a worker when the request's
transaction commits."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import tasks
from scoring.jobs import KEEP, KINDS, UNFINISHED
from scoring.models import Export
from tournaments.models import Club


def ask_export(club: Club, user: Any, kind: str) -> Export:
    """The club's export of ``kind``: the one being made, or a new one handed to a worker
    when the request's transaction commits (asked twice, made once)."""
    export, new = _ask(club, user, kind)
    if new:
        transaction.on_commit(lambda: tasks.make_export.delay(export.pk))
    return export


def _ask(club: Club, user: Any, kind: str) -> tuple[Export, bool]:
    """The club's export of ``kind`` being made, or a new one: (export, new).  A new one
    is to be handed to a worker once the transaction commits."""
    if kind not in KINDS:
        raise KeyError(kind)
    with transaction.atomic():
        Export.objects.filter(club=club, kind=kind, requested_at__lt=timezone.now() - KEEP).exclude(
            status__in=UNFINISHED
        ).delete()
        running = Export.objects.filter(club=club, kind=kind, status__in=UNFINISHED).first()
        if running is not None:
            return running, False
        try:
            with transaction.atomic():
                return Export.objects.create(club=club, kind=kind, requested_by=user), True
        except IntegrityError:  # asked at the same moment elsewhere: join that one
            return Export.objects.get(club=club, kind=kind, status__in=UNFINISHED), False
