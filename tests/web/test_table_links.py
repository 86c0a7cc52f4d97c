"""Scoring by table link (issue 29, 2) and confirmation at the table with a PIN (3):
what the holder of a link may do, and what a photo of an old link, another table's link,
a guesser of PINs and the enterer themselves may not."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess

import pytest
from django.test import Client
from django.utils import timezone

import actions.deals
from actions import pins
from actions import table_links as link_actions
from tests.conftest import NAPOLEON_SEATS, member_of, napoleon_deal
from tournaments import errors
from tournaments.models import ClubNight, Deal, DealVersion, Membership, Table

pytestmark = pytest.mark.django_db


def _holder(table: Table) -> Client:
    phone = Client()
    response = phone.get(f"/t/{link_actions.ensure(table)}/")
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    return phone


def _scoring(table: Table, player) -> Client:
    """A phone with the table's link on which ``player`` says they score (their PIN)."""
    phone = _holder(table)
    pins.set_pin(player, "1357")
    assert (
        phone.post(f"/tables/{table.pk}/who/", {"player": player.pk, "pin": "1357"}).status_code
        == 302
    )
    return phone


def _entry(number: int, key: str, record=None) -> dict[str, str]:
    return {"full_record": json.dumps(record or napoleon_deal()), "number": str(number), "key": key}


def test_a_link_holder_enters_and_corrects_the_tables_deals_without_an_account(match, tonight):
    phone = _holder(tonight)
    page = phone.get(f"/tables/{tonight.pk}/").content.decode()
    assert "Enter the next deal" in page and "Aki" in page
    for _ in range(2):  # a resend of the same entry stores it once
        saved = phone.post(f"/matches/{match.pk}/enter/", _entry(1, "phone-1"))
        assert saved.status_code == 302
    deal = Deal.objects.get(match=match)
    assert deal.entered_at_table and deal.entered_by is None
    correction = {**_entry(1, "", napoleon_deal(count=16)), "reason": "count was 16"}
    fixed = phone.post(f"/deals/{deal.pk}/correct/", correction)
    assert fixed.status_code == 302 and fixed["Location"] == f"/tables/{tonight.pk}/"
    version = DealVersion.objects.get(deal=deal)
    assert version.at_table and version.changed_by is None
    assert Deal.objects.get(pk=deal.pk).record["declaration"]["count"] == 16


def test_the_offline_queue_sends_through_the_link_once(match, tonight):
    phone = _holder(tonight)
    headers = {"HTTP_ACCEPT": "application/json", "HTTP_X_CLUBSCORE_QUEUE": "1"}
    answers = [
        phone.post(f"/matches/{match.pk}/enter/", _entry(1, "queued-1"), **headers)
        for _ in range(3)
    ]
    assert [a.json()["status"] for a in answers] == ["stored"] * 3
    assert [a.json()["replayed"] for a in answers] == [False, True, True]
    assert Deal.objects.filter(match=match).count() == 1


def test_a_link_is_for_its_table_its_night_and_until_revoked(match, tonight, make_match, season):
    phone = _holder(tonight)
    other_table = Table.objects.create(club_night=tonight.club_night, name="Table 2")
    other = make_match("napoleon", NAPOLEON_SEATS, at=other_table)
    refused = phone.post(f"/matches/{other.pk}/enter/", _entry(1, "x"))
    assert refused.status_code == 302 and "/accounts/login/" in refused["Location"]
    assert phone.get(f"/tables/{other_table.pk}/").status_code == 302  # to sign in
    elsewhere = actions.deals.enter_deal(other, napoleon_deal()).stored()
    for url in (f"/deals/{elsewhere.pk}/correct/", f"/deals/{elsewhere.pk}/pin/"):
        tried = phone.post(url, {**_entry(1, "z"), "reason": "mine now", "pin": "0000"})
        assert tried.status_code == 302 and "/accounts/login/" in tried["Location"], url
    assert Deal.objects.get(pk=elsewhere.pk).record == elsewhere.record
    elsewhere.delete()
    assert phone.get(f"/matches/{match.pk}/").status_code == 404  # a private season stays so
    # Revoked: the phone loses the table at its next request, and the link says so.
    token = tonight.link_token
    link_actions.revoke(tonight)
    assert phone.post(f"/matches/{match.pk}/enter/", _entry(1, "y")).status_code == 410
    assert Client().get(f"/t/{token}/").status_code == 410
    # A link of last week's night works no more.
    old = ClubNight.objects.create(season=season, date=timezone.localdate() - dt.timedelta(days=7))
    stale = Table.objects.create(club_night=old, name="Table 1")
    assert Client().get(f"/t/{link_actions.ensure(stale)}/").status_code == 410
    # Next week's link, its QR code tried ahead: not dead, early; it says when it works,
    # and the phone holds no table.
    ahead = ClubNight.objects.create(season=season, date=timezone.localdate() + dt.timedelta(7))
    early = Table.objects.create(club_night=ahead, name="Table 1")
    tried = Client()
    tried.cookies["django_language"] = "ja"
    answer = tried.get(f"/t/{link_actions.ensure(early)}/")
    assert answer.status_code == 403
    page = answer.content.decode()
    assert "例会の日から使えます" in page and f"{ahead.date:%Y-%m-%d}" in page
    assert "もう使えません" not in page
    assert tried.get(f"/tables/{early.pk}/").status_code == 302  # to sign in: no table held
    assert Deal.objects.count() == 0


def test_only_the_clubs_administrators_see_make_and_revoke_links(tonight, match, scorer, club):
    scorer_phone = Client()
    scorer_phone.force_login(scorer)
    page = scorer_phone.get(f"/nights/{tonight.club_night_id}/tables/").content.decode()
    assert "/t/" not in page
    assert scorer_phone.post(f"/tables/{tonight.pk}/link/", {"action": "new"}).status_code == 403
    admin = Client()
    admin.force_login(member_of(club, type(scorer), "lena", Membership.Role.ADMIN))
    listing = admin.get(f"/nights/{tonight.club_night_id}/tables/").content.decode()
    link = re.search(r"http://testserver/t/([\w-]+)/", listing).group(1)
    assert 'src="data:image/svg+xml' in listing  # the QR code
    admin.post(f"/tables/{tonight.pk}/link/", {"action": "new"})
    assert Client().get(f"/t/{link}/").status_code == 410  # the new link replaced it


def test_a_seated_player_confirms_with_their_pin_on_the_scorers_phone(
    confirming, match, tonight, players
):
    pins.set_pin(players["ben"], "4821")
    phone = _scoring(tonight, players["aki"])
    phone.post(f"/matches/{match.pk}/enter/", _entry(1, "k1"))
    deal = Deal.objects.get(match=match)
    form = phone.get(f"/deals/{deal.pk}/pin/").content.decode()
    assert "Ben" in form and 'inputmode="numeric"' in form
    wrong = phone.post(f"/deals/{deal.pk}/pin/", {"player": players["ben"].pk, "pin": "1111"})
    assert wrong.status_code == 422 and "That PIN is not Ben" in wrong.content.decode()
    assert Deal.objects.get(pk=deal.pk).confirmed_at is None
    right = phone.post(f"/deals/{deal.pk}/pin/", {"player": players["ben"].pk, "pin": "4821"})
    assert right.status_code == 302
    confirmed = Deal.objects.get(pk=deal.pk)
    assert confirmed.confirmed_by_player == players["ben"] and confirmed.confirmed_at


def test_the_enterer_never_confirms_their_own_deal_with_a_pin(confirming, match, scorer, players):
    players["aki"].user = scorer
    players["aki"].save()
    pins.set_pin(players["aki"], "1234")
    deal = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    phone = Client()
    phone.force_login(scorer)
    form = phone.get(f"/deals/{deal.pk}/pin/").content.decode()
    shown = re.sub(r'"[^"]*"', '""', form)  # the words, not a random token that spells "Aki"
    assert "Aki" not in shown
    phone.post(f"/deals/{deal.pk}/pin/", {"player": players["aki"].pk, "pin": "1234"})
    assert Deal.objects.get(pk=deal.pk).confirmed_at is None


def test_pin_guesses_are_limited_like_passwords(confirming, match, tonight, players, settings):
    pins.set_pin(players["ben"], "4821")
    phone = _scoring(tonight, players["aki"])
    phone.post(f"/matches/{match.pk}/enter/", _entry(1, "k1"))
    deal = Deal.objects.get(match=match)
    for guess in range(settings.SIGN_IN_ATTEMPTS):
        phone.post(f"/deals/{deal.pk}/pin/", {"player": players["ben"].pk, "pin": f"{guess:04d}"})
    locked = phone.post(f"/deals/{deal.pk}/pin/", {"player": players["ben"].pk, "pin": "4821"})
    assert locked.status_code == 429 and "Too many wrong PINs" in locked.content.decode()
    assert Deal.objects.get(pk=deal.pk).confirmed_at is None


def test_a_pin_is_four_to_eight_digits_and_kept_hashed(players):
    for bad in ("12", "abcd", "123456789", "１２３４"):
        with pytest.raises(errors.Rejection):
            pins.set_pin(players["ben"], bad)
    pins.set_pin(players["ben"], "004821")
    assert "004821" not in players["ben"].pin


def test_the_nights_paper_is_one_pdf_with_every_table_and_its_qr_code(
    match, tonight, club, django_user_model
):
    admin = Client()
    admin.force_login(member_of(club, django_user_model, "lena", Membership.Role.ADMIN))
    response = admin.get(f"/nights/{tonight.club_night_id}/paper.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=response.content, capture_output=True, check=True
    ).stdout.decode()
    assert text.count("\f") >= 2  # the table list, then the table's sheet
    assert "Aki, Ben, Chika, Dai" in text  # the table list
    sheet = text.split("\f")[1]
    for column in ("Declarer", "Trump", "Count", "Adjutants", "Point cards", "Discarded"):
        assert column in sheet  # the import template's columns, in its order
    assert sheet.index("Declarer") < sheet.index("Trump") < sheet.index("Discarded")
    assert "Scan the code" in text
    images = subprocess.run(
        ["pdfimages", "-list", "-"], input=response.content, capture_output=True
    )
    assert images.returncode in (0, 1)  # the QR code is vector drawing, not an image


def test_a_blank_sheet_is_titled_in_the_readers_language(client):
    response = client.get("/sheets/blank-napoleon.pdf", HTTP_ACCEPT_LANGUAGE="ja")
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=response.content, capture_output=True, check=True
    ).stdout.decode()
    assert "ナポレオン" in text and "切り札" in text


def test_players_set_their_own_pin_and_administrators_anyones(players, club, member):
    players["ben"].user = member
    players["ben"].save()
    own = Client()
    own.force_login(member)
    assert "Set your PIN" in own.get(f"/players/{players['ben'].pk}/").content.decode()
    own.post(f"/players/{players['ben'].pk}/pin/", {"pin": "2468"})
    assert pins.check(players["ben"], "2468") is pins.Check.RIGHT
    # Not someone else's.
    assert own.post(f"/players/{players['aki'].pk}/pin/", {"pin": "1111"}).status_code == 404
    admin = Client()
    admin.force_login(member_of(club, type(member), "lena", Membership.Role.ADMIN))
    edit = {
        "display_name": "Aki",
        "name_ja": "",
        "handle": "aki",
        "account": "",
        "new_pin": "97531",
    }
    assert admin.post(f"/clubs/{club.slug}/players/{players['aki'].pk}/", edit).status_code == 302
    assert pins.check(players["aki"], "97531") is pins.Check.RIGHT
