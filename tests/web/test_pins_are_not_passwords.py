"""A PIN is not a password: no sign-in form answers about a PIN, and wrong PINs are
limited per player, however the request names the player (``actions.pins``)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import authenticate
from django.test import Client, RequestFactory
from django.utils import timezone

from actions import pins
from actions import table_links as link_actions
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.models import ClubNight, Deal, Player, Table

pytestmark = pytest.mark.django_db

SIGN_IN_PAGES = ["/accounts/login/", "/admin/login/", "/api-auth/login/"]


@pytest.fixture
def ben(players):
    pins.set_pin(players["ben"], "4821")
    return players["ben"]


@pytest.mark.parametrize("url", SIGN_IN_PAGES)
def test_no_sign_in_page_tells_a_right_pin_from_a_wrong_one(url, ben):
    answers = []
    for name in (f"pin:{ben.pk}", f"pin:0{ben.pk}", f"pin:{str(ben.pk).translate(ARABIC)}"):
        for pin in ("4821", "0000"):
            browser = Client()
            response = browser.post(url, {"username": name, "password": pin})
            answers.append(response.status_code)
            assert "_auth_user_id" not in browser.session
    assert set(answers) == {200}  # the form again, every time: nothing to learn
    request = RequestFactory().post("/accounts/login/")
    assert authenticate(request, username=f"pin:{ben.pk}", password="4821") is None
    assert Player.objects.get(pk=ben.pk).pin_failures == 0  # no PIN was even checked


ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


@pytest.fixture
def pending(season, make_match):
    season.require_confirmation = True
    season.save()
    night = ClubNight.objects.create(season=season, date=timezone.localdate(), venue="Hall")
    table = Table.objects.create(club_night=night, name="Table 1")
    match = make_match("napoleon", NAPOLEON_SEATS, at=table)
    phone = _phone(table)
    aki = match.seats.get(player__handle="aki").player
    pins.set_pin(aki, "1357")  # the phone says who scores on it (Aki) before it enters
    phone.post(f"/tables/{table.pk}/who/", {"player": aki.pk, "pin": "1357"})
    form = {"full_record": json.dumps(napoleon_deal()), "number": "1", "key": "k"}
    phone.post(f"/matches/{match.pk}/enter/", form)
    return Deal.objects.get(match=match)


def _phone(table: Table, address: str = "127.0.0.1") -> Client:
    phone = Client(REMOTE_ADDR=address)
    phone.get(f"/t/{link_actions.ensure(table)}/")
    return phone


def test_wrong_pins_lock_the_player_for_every_phone_and_address(pending, ben, settings):
    table = pending.match.table
    said = []
    for guess in range(settings.SIGN_IN_ATTEMPTS):
        # Each guess from a phone and an address of its own.
        phone = _phone(table, f"10.0.0.{guess + 1}")
        wrong = phone.post(f"/deals/{pending.pk}/pin/", {"player": ben.pk, "pin": f"{guess:04d}"})
        assert wrong.status_code == 422
        said.append(wrong.content.decode())
    # Each wrong try says how many are left, the last that the PIN now rests.
    left = settings.SIGN_IN_ATTEMPTS - 1
    assert f"{left} more wrong PINs and Ben waits" in said[0]
    assert "1 more wrong PIN and Ben waits" in said[-2]
    assert "Too many wrong PINs for Ben" in said[-1]
    fresh = _phone(table, "10.0.1.1")
    locked = fresh.post(f"/deals/{pending.pk}/pin/", {"player": ben.pk, "pin": "4821"})
    assert locked.status_code == 429 and "Too many wrong PINs" in locked.content.decode()
    assert Deal.objects.get(pk=pending.pk).confirmed_at is None
    # The lock is on the player's row, which every web process reads.
    assert Player.objects.get(pk=ben.pk).pin_locked_until > timezone.now()
    assert pins.check(ben, "4821") is pins.Check.LOCKED


@pytest.mark.parametrize("spelling", ["0{}", "{}.0", " {}", "+{}", "arabic"])
def test_a_player_named_otherwise_is_no_one_and_costs_no_guess(pending, ben, spelling):
    named = str(ben.pk).translate(ARABIC) if spelling == "arabic" else spelling.format(ben.pk)
    phone = _phone(pending.match.table)
    answer = phone.post(f"/deals/{pending.pk}/pin/", {"player": named, "pin": "4821"})
    assert answer.status_code == 422 and "Pick your name" in answer.content.decode()
    assert Player.objects.get(pk=ben.pk).pin_failures == 0
    assert Deal.objects.get(pk=pending.pk).confirmed_at is None


def test_the_right_pin_clears_the_count_and_a_new_pin_clears_a_lock(ben, settings):
    for _ in range(settings.SIGN_IN_ATTEMPTS - 1):
        assert pins.check(ben, "1111") is pins.Check.WRONG
    assert pins.check(ben, "4821") is pins.Check.RIGHT
    assert Player.objects.get(pk=ben.pk).pin_failures == 0
    for _ in range(settings.SIGN_IN_ATTEMPTS):
        pins.check(ben, "1111")
    assert pins.check(ben, "4821") is pins.Check.LOCKED
    pins.set_pin(ben, "8642")  # an administrator sets a new one
    assert pins.check(ben, "8642") is pins.Check.RIGHT
