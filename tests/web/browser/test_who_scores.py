"""A phone with a table's link, in a season that asks for confirmation, says who scores on
it before its first deal, by taps and a PIN on the number pad, at a phone's size and a
laptop's, in both languages; then the other players' names (not the scorer's) confirm."""

from __future__ import annotations

import os

import pytest
from django.utils import timezone

import actions.deals
import actions.matches
from actions import pins
from actions import table_links as link_actions
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.models import Club, ClubNight, Deal, LinkScorer, Player, Season, Table

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = os.environ.get("CLUBSCORE_SCREENSHOTS", "")


@pytest.fixture
def table():
    club = Club.objects.create(name="Yushima Club", slug="yushima")
    season = Season.objects.create(
        club=club, name="Winter", games=["napoleon"], require_confirmation=True
    )
    night = ClubNight.objects.create(season=season, date=timezone.localdate())
    table = Table.objects.create(club_night=night, name="Table 1")
    seated = [
        Player.objects.create(club=club, handle=h, display_name=h.title()) for h in NAPOLEON_SEATS
    ]
    for player, pin in zip(seated, ["1357", "2468", "1111", "2222"], strict=True):
        pins.set_pin(player, pin)
    actions.matches.create_match(table, "napoleon", seated)
    return table


@pytest.mark.parametrize(
    ("locale", "size"),
    [("ja", (375, 740)), ("en", (375, 740)), ("ja", (1366, 900)), ("en", (1366, 900))],
)
def test_the_scorer_says_who_they_are_then_another_player_confirms(
    browser, live_server, table, locale, size
):
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, has_touch=True, locale=locale
    )
    phone = context.new_page()
    phone.goto(f"{live_server.url}/t/{link_actions.ensure(table)}/")
    match = table.matches.get()
    assert phone.locator("#phone-scorer").is_visible()
    phone.tap(f"a[href='/matches/{match.pk}/enter/']")
    phone.wait_for_url(f"**/tables/{table.pk}/who/**")
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/who-{locale}-{size[0]}.png", full_page=True)
    aki = Player.objects.get(handle="aki")
    phone.tap(f"label[for=id_player_{aki.pk}]")
    assert phone.get_attribute("#id_pin", "inputmode") == "numeric"  # a number pad shows
    phone.tap("#id_pin")
    phone.keyboard.type("1357")
    phone.tap("form.setup button[type=submit]")
    phone.wait_for_selector("#deal-entry[data-ready]")
    assert LinkScorer.objects.filter(player=aki, table=table).count() == 1
    # The deal entered on this phone is Aki's: the PIN page offers the other three.
    deal = actions.deals.enter_deal(
        match, napoleon_deal(), at_table=True, holder=LinkScorer.objects.get().holder
    ).stored()
    phone.goto(f"{live_server.url}/deals/{deal.pk}/pin/")
    names = phone.locator("form.setup .chip").all_inner_texts()
    assert [n.strip() for n in names] == ["Ben", "Chika", "Dai"]
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/who-pin-{locale}-{size[0]}.png", full_page=True)
    ben = Player.objects.get(handle="ben")
    phone.tap(f"label[for=id_player_{ben.pk}]")
    phone.tap("#id_pin")
    phone.keyboard.type("2468")
    phone.tap("form.setup button[type=submit]")
    phone.wait_for_url(f"**/tables/{table.pk}/")
    assert Deal.objects.get(pk=deal.pk).confirmed_by_player == ben
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/who-table-{locale}-{size[0]}.png", full_page=True)
