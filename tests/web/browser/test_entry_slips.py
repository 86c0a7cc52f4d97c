"""The entry form forgives a slip, on a 375×740 phone in Japanese by taps (issue 56, 5
and 6): the Comp-13 pad of a deck without jokers has no joker; the count declared says
its range before Save; digits typed on past a full number never reach the card field the
page moved on to; a problem's link selects its field's whole value, so the digits typed
next replace the slip."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

import actions.deals
import actions.matches
from actions import table_links as link_actions
from tests.web.browser.conftest import pad_taps
from tests.web.browser.test_club_from_nothing import shot
from tournaments.models import Club, ClubNight, Player, Season, Table

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"viewport": {"width": 375, "height": 740}, "has_touch": True, "locale": "ja-JP"}
LAPTOP = {"viewport": {"width": 1366, "height": 900}, "locale": "ja-JP"}
HANDLES = ["aki", "ben", "chika", "dai"]


@pytest.fixture
def tables(transactional_db):
    """A club night with a Comp-13 table (drawn: no rules, so no jokers) and a Napoleon one."""
    club = Club.objects.create(name="Slip Club", slug="slips")
    season = Season.objects.create(club=club, name="Slips", games=["comp13", "napoleon"])
    night = ClubNight.objects.create(season=season, date=timezone.localdate())
    players = [Player.objects.create(club=club, handle=h, display_name=h.title()) for h in HANDLES]
    made = {}
    for i, game in enumerate(("comp13", "napoleon"), start=1):
        table = Table.objects.create(club_night=night, name=f"Table {i}")
        made[game] = actions.matches.create_match(table, game, players)
    return made


def open_entry(browser, live_server, match, device=PHONE):
    """The table's link on a phone in Japanese, then its entry page (a tap)."""
    context = browser.new_context(**device)
    context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{link_actions.ensure(match.table)}/")
    page.click(f"a[href='/matches/{match.pk}/enter/']")
    page.wait_for_selector("#deal-entry[data-ready]")
    return page


def chip(field: str, value: str) -> str:
    return f"#field-{field} label:has(input[value='{value}'])"


def test_the_comp13_pad_of_a_deck_without_jokers_has_no_joker(
    browser, live_server, tables, tmp_path
):
    match = tables["comp13"]
    for device, name in ((PHONE, "375"), (LAPTOP, "1366")):
        page = open_entry(browser, live_server, match, device)
        assert page.locator(".cardpad button[data-code='JK']").count() == 0
        assert page.locator(".cardpad button[data-code]").count() == 20  # A 10 J Q K ×4
        if device is PHONE:
            page.tap("#id_cap_aki")
            for code in ("SA", "H10", "CK"):
                page.tap(f".cardpad button[data-code='{code}']")
            expect(page.locator("#id_cap_aki")).to_have_value("SA H10 CK")
        shot(page, tmp_path, f"entry-comp13-no-joker-{name}-ja")
        page.context.close()


def test_digits_typed_on_never_reach_the_card_field_and_the_range_shows(
    browser, live_server, tables, tmp_path
):
    page = open_entry(browser, live_server, tables["napoleon"])
    expect(page.locator("#id_count_helptext")).to_have_text("14〜20")  # before Save
    assert page.get_attribute("#id_count", "min") == "14"
    assert page.get_attribute("#id_count", "max") == "20"
    page.tap(chip("declarer", "aki"))
    page.tap(chip("trump", "spades"))
    page.tap("#id_count")
    page.keyboard.type("145")  # a thumb one digit too far: 14 is full (140 > 20)
    expect(page.locator("#id_adjutant_cards")).to_be_focused()  # on by itself, its pad up
    expect(page.locator("#id_count")).to_have_value("14")
    expect(page.locator("#id_adjutant_cards")).to_have_value("")  # the 5 went nowhere
    for selector in pad_taps("adjutant_cards", "SA")[1:]:
        page.tap(selector)
    page.keyboard.type("7")  # a digit never starts a card, whatever the phone sends
    expect(page.locator("#id_adjutant_cards")).to_have_value("SA")
    shot(page, tmp_path, "entry-napoleon-range-375-ja")
    page.context.close()
    laptop = open_entry(browser, live_server, tables["napoleon"], LAPTOP)
    expect(laptop.locator("#id_count_helptext")).to_have_text("14〜20")
    laptop.locator("#points-sum").scroll_into_view_if_needed()
    shot(laptop, tmp_path, "entry-napoleon-range-1366-ja")
    laptop.context.close()


def test_a_problems_link_selects_the_slip_so_the_next_digits_replace_it(
    browser, live_server, tables, tmp_path
):
    match = tables["napoleon"]
    page = open_entry(browser, live_server, match)
    page.tap(chip("declarer", "aki"))
    page.tap(chip("trump", "spades"))
    page.tap("#id_count")
    page.keyboard.type("13")  # 13 < 14: the slip
    for selector in pad_taps("adjutant_cards", "SA")[1:]:
        page.tap(selector)
    page.tap(chip("adjutants", "ben"))
    page.tap("#id_pc_aki")
    page.keyboard.type("963")  # 9, 6 and 3 are full: on by themselves; Dai's 2 follows
    expect(page.locator("#id_pc_dai")).to_have_value("2")
    expect(page.locator("#id_pc_aki_helptext")).to_have_text("0〜20")
    page.locator("#points-sum").scroll_into_view_if_needed()
    shot(page, tmp_path, "entry-napoleon-points-375-ja")
    page.tap("#save")
    page.wait_for_selector("#error-summary")
    page.wait_for_load_state()  # the page's script has tied the links to their fields
    assert not match.deals.exists()
    shot(page, tmp_path, "entry-napoleon-slip-375-ja")
    page.tap("#error-summary a[href='#field-count']")
    expect(page.locator("#id_count")).to_be_focused()
    page.keyboard.type("15")  # the whole value was selected: 15 replaces 13
    expect(page.locator("#id_count")).to_have_value("15")
    page.tap("#save")
    page.wait_for_selector(".messages")
    deal = match.deals.get()
    assert deal.record["declaration"]["count"] == 15
    assert deal.record["adjutant_cards"] == ["SA"]
    page.context.close()
