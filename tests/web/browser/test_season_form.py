"""The season's form on a phone: a game's rules variants show once the game is ticked."""

from __future__ import annotations

import pytest

from tests.conftest import member_of
from tests.web.browser.conftest import sign_in
from tournaments.models import Club, Membership, Season

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_games_variants_show_once_it_is_ticked_and_the_chosen_one_is_kept(
    browser, live_server, django_user_model
):
    club = Club.objects.create(name="Kanda", slug="kanda")
    admin = member_of(club, django_user_model, "lena", Membership.Role.ADMIN)
    admin.set_password("lena-pass-2026")
    admin.save()
    context = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True)
    page = context.new_page()
    sign_in(page, live_server.url, "/clubs/kanda/seasons/new/", "lena", "lena-pass-2026")
    page.wait_for_selector("#id_name")
    variants = ["#field-rules_1234_scoring", "#field-rules_comp13_jokers"]
    variants.append("#field-rules_twentytwo_gambling")
    assert all(page.is_hidden(v) for v in variants)  # no game ticked yet
    page.fill("#id_name", "Winter")
    page.tap("#field-games label:has(input[value='1234'])")
    assert page.is_visible("#field-rules_1234_scoring")
    assert page.is_hidden("#field-rules_comp13_jokers")  # its game is not ticked
    page.tap("#id_rules_1234_scoring")
    page.select_option("#id_rules_1234_scoring", "2")  # method 3, chips
    page.tap("#field-games label:has(input[value=comp13])")
    page.tap("#field-games label:has(input[value=comp13])")  # ticked, then not
    assert page.is_hidden("#field-rules_comp13_jokers")
    page.tap(".save button")
    page.wait_for_url("**/clubs/kanda/setup/")
    assert Season.objects.get(club=club).rules == {"1234": {"scoring": "chips"}}
    # The edit: the season's game shows its choice; another game's waits for its tick.
    page.goto(f"{live_server.url}/clubs/kanda/seasons/{Season.objects.get(club=club).pk}/")
    assert page.is_visible("#field-rules_1234_scoring")
    assert page.input_value("#id_rules_1234_scoring") == "2"
    assert page.is_hidden("#field-rules_twentytwo_gambling")
