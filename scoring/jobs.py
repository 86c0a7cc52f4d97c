"""Files that may take longer to make than a web request may wait (issue 39): a club's
backup, and whatever else registers a kind here.  A league administrator asks for one on
a page; a Celery worker makes it (``scoring.tasks.make_export``), counting its steps as it
goes; the page shows how far it is and offers the file when it is done.  No web process
waits for it, however large the club.

- **Once.** A club has one export of a kind being made at a time: asking again (a second
  tap, a retried request, another administrator) joins it (``Export``'s constraint
  ``one_export_at_a_time`` settles two at the same moment).  A task delivered twice
  makes the file again, the same.
- **A right checked when used.** The file is for the club's league administrators when
  it is downloaded, not only when it was asked for (``web.pages.exports``).
- Files are kept ``KEEP`` after they were asked for; a new request clears older ones.

A kind is made by ``make(club, progress)``, which calls ``progress(done, steps)`` as it
goes and returns the file's name, media type and bytes.  Layers above this one (``ops``:
the backup) register their kinds when their app is ready.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from scoring.models import Export
from tournaments.models import Club

Progress = Callable[[int, int], None]
KEEP = dt.timedelta(days=7)
UNFINISHED = [Export.Status.WAITING, Export.Status.WORKING]


@dataclass(frozen=True)
class Kind:
    label: Any
    """What the page calls it (a lazily translated text)."""
    ask: Any
    """Its button ("Prepare the club's backup")."""
    make: Callable[[Club, Progress], tuple[str, str, bytes]]


KINDS: dict[str, Kind] = {}


def register(
    kind: str, label: Any, ask: Any, make: Callable[[Club, Progress], tuple[str, str, bytes]]
) -> None:
    KINDS[kind] = Kind(label, ask, make)


def make(export_id: int) -> None:
    """Make the export's file (a worker's part).  Its steps are written as they are made
    (each its own commit, for the page to show); a failure is kept as such."""
    export = Export.objects.filter(pk=export_id).select_related("club").first()
    if export is None or export.status not in UNFINISHED:
        return  # gone, or made already

    rows = Export.objects.filter(pk=export_id)
    rows.update(status=Export.Status.WORKING)

    def progress(done: int, steps: int) -> None:
        rows.update(done=done, steps=steps)

    try:
        name, content_type, data = KINDS[export.kind].make(export.club, progress)
    except Exception:
        rows.update(status=Export.Status.FAILED, finished_at=timezone.now())
        raise
    rows.update(
        status=Export.Status.DONE,
        name=name,
        content_type=content_type,
        data=data,
        finished_at=timezone.now(),
    )
