"""A first night by taps (issue 56, 3): the secretary opens the night's PIN slips (and they
print on one A4 page for fourteen players), the scorer says who scores on the phone with
his slip and skips choosing a PIN, another player types "no PIN" wrongly (told so, not
counted), then confirms with her slip, sees the deal she confirms, and chooses her own
PIN on the spot; on a phone and a laptop, in Japanese and English."""

from __future__ import annotations

import os
import re

import pytest
from django.utils import timezone

import actions.deals
import actions.matches
from actions import pins
from actions import table_links as link_actions
from tests.conftest import NAPOLEON_SEATS, member_of, napoleon_deal
from tournaments import pin_slips
from tournaments.models import Club, ClubNight, Deal, LinkScorer, Membership, Player, Season, Table

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = os.environ.get("CLUBSCORE_SCREENSHOTS", "")
NAMES = [
    "Aki",
    "Ben",
    "Chika",
    "Dai",
    "絵美",
    "文",
    "玄",
    "花",
    "伊藤",
    "潤",
    "健",
    "翔",
    "葵",
    "蓮",
]


@pytest.fixture
def table(django_user_model):
    club = Club.objects.create(name="Yushima Club", slug="yushima")
    season = Season.objects.create(
        club=club, name="Winter", games=["napoleon"], require_confirmation=True
    )
    night = ClubNight.objects.create(season=season, date=timezone.localdate(), venue="Hall")
    players = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=name)
        for i, name in enumerate(NAMES)
    ]
    for player, handle in zip(players, NAPOLEON_SEATS, strict=False):
        player.handle = handle
        player.save()
    night.present.set(players)
    table = Table.objects.create(club_night=night, name="Table 1")
    actions.matches.create_match(table, "napoleon", players[:4])
    member_of(club, django_user_model, "yuki", Membership.Role.ADMIN)
    return table


def _context(browser, locale, size):
    return browser.new_context(
        viewport={"width": size[0], "height": size[1]}, has_touch=True, locale=locale
    )


def _shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.mark.parametrize(
    ("locale", "size"), [("ja", (375, 740)), ("ja", (1366, 900)), ("en", (375, 740))]
)
def test_a_first_night_confirms_with_slips_by_taps(browser, live_server, table, locale, size):
    base, night = live_server.url, table.club_night
    tag = f"{locale}-{size[0]}"
    # The secretary prints the slips: fourteen, one A4 page.
    secretary = _context(browser, locale, size).new_page()
    secretary.goto(f"{base}/accounts/login/?next=/nights/{night.pk}/tables/")
    secretary.fill("#id_username", "yuki")
    secretary.fill("#id_password", "yuki-pass-1")
    secretary.tap("main form button[type=submit]")
    secretary.wait_for_url(f"**/nights/{night.pk}/tables/")
    secretary.tap("#pin-slips-link")
    secretary.wait_for_selector("#pin-slips")
    slips = {
        int(s.get_attribute("data-player")): s.locator(".slip-pin").inner_text().strip()
        for s in secretary.locator(".slip").all()
    }
    assert len(slips) == 14 and all(re.fullmatch(r"\d{6}", c) for c in slips.values())
    assert (
        secretary.locator(".slip-how")
        .first.inner_text()
        .startswith("卓で" if locale == "ja" else "At your table")
    )
    # On a phone nothing runs off the screen sideways.
    assert secretary.evaluate("document.documentElement.scrollWidth") <= size[0]
    _shot(secretary, f"pin-slips-{tag}")
    secretary.emulate_media(media="print")
    _shot(secretary, f"pin-slips-print-{tag}")
    pdf = secretary.pdf(format="A4", print_background=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1  # 14 slips, one A4 sheet
    if SHOTS:
        with open(f"{SHOTS}/pin-slips-{tag}.pdf", "wb") as out:
            out.write(pdf)

    # At the table: Aki says who scores with his slip, and keeps it for now.
    phone = _context(browser, locale, size).new_page()
    phone.goto(f"{base}/t/{link_actions.ensure(table)}/")
    match = table.matches.get()
    phone.tap(f"a[href='/matches/{match.pk}/enter/']")
    phone.wait_for_url(f"**/tables/{table.pk}/who/**")
    aki, ben = (
        Player.objects.get(club=table.club_night.season.club, handle=h) for h in ("aki", "ben")
    )
    phone.tap(f"label[for=id_player_{aki.pk}]")
    phone.tap("#id_pin")
    phone.keyboard.type(slips[aki.pk])
    phone.tap("form.setup button[type=submit]")
    phone.wait_for_selector("#skip-pin")
    _shot(phone, f"pin-offer-{tag}")
    phone.tap("#skip-pin")
    phone.wait_for_selector("#deal-entry[data-ready]")
    assert not Player.objects.get(pk=aki.pk).pin
    deal = actions.deals.enter_deal(
        match, napoleon_deal(), at_table=True, holder=LinkScorer.objects.get().holder
    ).stored()

    # Ben confirms: the page shows the deal; "no PIN" typed is told, not counted.
    phone.goto(f"{base}/deals/{deal.pk}/pin/")
    shown = phone.inner_text("#deal-shown")
    for line in deal.scores.all():
        assert f"{line.score:+d}" in shown
    names = [n.strip() for n in phone.locator("form.setup .chip").all_inner_texts()]
    assert names == ["Ben", "Chika", "Dai"]
    _shot(phone, f"pin-confirm-{tag}")
    phone.tap(f"label[for=id_player_{ben.pk}]")
    phone.tap("#id_pin")
    phone.keyboard.type("1234")
    phone.tap("form.setup button[type=submit]")
    phone.wait_for_selector("#pin-error")
    assert ("まだ PIN がありません" if locale == "ja" else "has no PIN yet") in phone.inner_text(
        "#pin-error"
    )
    assert Player.objects.get(pk=ben.pk).pin_failures == 0
    _shot(phone, f"pin-no-pin-{tag}")
    phone.tap(f"label[for=id_player_{ben.pk}]")
    phone.tap("#id_pin")
    phone.keyboard.type(slips[ben.pk])
    phone.tap("form.setup button[type=submit]")
    phone.wait_for_selector("#save-pin")
    assert Deal.objects.get(pk=deal.pk).confirmed_by_player == ben
    # She chooses her own PIN on the spot: the slip is done with.
    phone.tap("#id_pin")
    phone.keyboard.type("2468")
    phone.tap("#id_again")
    phone.keyboard.type("2468")
    phone.tap("#save-pin")
    phone.wait_for_url(f"**/tables/{table.pk}/")
    _shot(phone, f"pin-saved-{tag}")
    ben = Player.objects.get(pk=ben.pk)
    assert pins.check(ben, "2468") is pins.Check.RIGHT
    assert not pin_slips.is_first_pin(ben, night.pk, "2468")
    assert pins.check(ben, slips[ben.pk], night.pk) is pins.Check.WRONG
