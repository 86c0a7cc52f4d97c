"""A kept score-sheet file goes kept → answered → checked → imported, once: two
confirmations at the same moment import it once, and the second finds it imported."""

from __future__ import annotations

import pytest
from django.db import connection

from actions import uploads
from tests.conftest import at_the_same_moment
from tests.tournaments.sheet_history import add_players
from tests.web.test_sheet_import import deals, napoleon_sheet
from tournaments.errors import Rejection
from tournaments.models import SheetUpload


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_once_import_the_kept_file_once(club, club_admin):
    add_players(club)
    kept = uploads.keep(club, club_admin, "history.csv", napoleon_sheet())
    assert uploads.preview(club, kept, {})["counts"]["deals"] > 0  # checked, and kept

    def confirm():
        try:
            return uploads.import_kept(club, SheetUpload.objects.get(pk=kept.pk), {}, club_admin)
        finally:
            connection.close()

    answers = at_the_same_moment(confirm, confirm)
    done = [a for a in answers if a is not None]
    assert len(done) == 1 and not isinstance(done[0], BaseException), answers
    kept.refresh_from_db()
    assert kept.imported_at is not None and bytes(kept.data) == b""
    assert deals(club) == done[0].preview.counts()["deals"]
    assert uploads.import_kept(club, kept, {}, club_admin) is None  # a later retry too


@pytest.mark.django_db
def test_what_no_score_sheet_can_be_is_refused_and_never_kept(club, club_admin):
    with pytest.raises(Rejection):
        uploads.keep(club, club_admin, "x.csv", b"PK\x03\x04" + b"\x00" * 64)
    assert not SheetUpload.objects.exists()
