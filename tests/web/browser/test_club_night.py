"""A league administrator without staff rights runs a club night from the app's own
pages, and corrects deals from the match page (issue 14)."""

from __future__ import annotations

import re

import pytest

from tests.web.browser.conftest import pad_cards
from tournaments.models import Club, Deal, Match, Membership, Player, Season

pytestmark = pytest.mark.django_db(transaction=True)
LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 375, "height": 812}
NAMES = [
    "Aya",
    "Bo",
    "Cai",
    "Dina",
    "Eli",
    "Fay",
    "Gus",
    "Hiro",
    "Ines",
    "Jo",
    "Kai",
    "Lou",
    "Mei",
    "Nao",
]


def login(page, base, username, password, next_url="/"):
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366", "375"])
def test_from_an_empty_club_to_a_deal_at_a_drawn_table(
    browser, live_server, django_user_model, viewport
):
    club = Club.objects.create(name="Hongo Card Club", slug="hongo")
    lena = django_user_model.objects.create_user("lena", password="lena-pw-2026")  # no staff rights
    Membership.objects.create(club=club, user=lena, role=Membership.Role.ADMIN)
    django_user_model.objects.create_user("sam", password="sam-pw-2026")
    base = live_server.url
    page = browser.new_page(viewport=viewport)
    login(page, base, "lena", "lena-pw-2026")
    page.click("text=Set up Hongo Card Club")

    for name in NAMES:  # fourteen players, added by name
        page.fill("#id_player-display_name", name)
        page.click("text=Add the player")
        page.wait_for_selector(f".messages >> text={name} added")
    assert Player.objects.filter(club=club).count() == 14

    page.fill("#id_member-username", "sam")
    page.select_option("#id_member-role", "scorer")
    page.click("text=Add the member")
    # Sam joins by accepting: the link is for his account alone.
    said = page.inner_text(".messages >> text=sam joins once they accept")
    link = re.search(r"https?://\S+/join/[\w-]+/", said).group(0)
    sams = browser.new_page(viewport=viewport)
    login(sams, base, "sam", "sam-pw-2026", next_url=link.split(base, 1)[1])
    sams.click("text=Join the club")
    sams.wait_for_selector(".messages >> text=Welcome to Hongo Card Club")
    sams.close()
    assert Membership.objects.get(club=club, user__username="sam").role == Membership.Role.SCORER

    page.click("text=New season")
    page.fill("#id_name", "Winter League")
    page.click("#field-games label:has(input[value=rettler])")
    page.click("#field-games label:has(input[value=napoleon])")
    page.click("#field-public label") if page.locator(
        "#field-public label"
    ).count() else page.check("#id_public")
    page.click(".save button")
    page.click("text=New club night")
    page.fill("#id_date", "2026-12-04")
    page.fill("#id_venue", "Hongo hall")
    page.click(".save button")

    page.wait_for_selector("#attendance")
    for name in NAMES:
        page.click(f"#field-present label:has-text('{name}')")
    assert "14" in page.inner_text("#present-count")
    # The season's two games come ticked for the night.
    assert page.is_checked("#field-games input[value=rettler]")
    assert page.is_checked("#field-games input[value=napoleon]")
    page.click("#propose")

    page.wait_for_selector("#proposal")
    assert page.locator(".table-card").count() == 3
    page.select_option("select[name=scorer_1]", label="sam")
    page.click("#confirm")
    page.wait_for_selector(".messages >> text=3 tables are seated")
    season = Season.objects.get(name="Winter League")
    matches = list(Match.objects.filter(table__club_night__season=season).order_by("table__name"))
    assert sorted(m.game for m in matches) == ["napoleon", "napoleon", "rettler"]
    seated = [s.player_id for m in matches for s in m.seats.all()]
    assert len(seated) == len(set(seated)) == 14

    # The scorer of table 1 enters its first deal from their home page.
    with page.expect_navigation():  # the page forgets what it kept, then signs out
        page.click("text=Sign out")
    login(page, base, "sam", "sam-pw-2026")
    table1 = matches[0]
    page.click(f"#scorer-home a[href='/matches/{table1.pk}/enter/']")
    page.wait_for_selector("#deal-entry[data-ready]")
    handles = [p.handle for p in table1.seated_players()]
    page.click(f"#field-declarer label:has(input[value='{handles[0]}'])")
    page.click("#field-trump label:has(input[value=spades])")
    page.fill("#id_count", "16" if table1.game == "napoleon" else "30")
    pad_cards(page, "adjutant_cards", "SA")
    page.click(f"#field-adjutants label:has(input[value='{handles[1]}'])")
    total = 20 if table1.game == "napoleon" else 40
    page.fill(f"#id_pc_{handles[0]}", str(total // 2))
    page.fill(f"#id_pc_{handles[1]}", str(total // 4))
    page.click("#save")
    page.wait_for_selector(".messages, #error-summary")
    assert page.locator("#error-summary").count() == 0, page.inner_text("#error-summary")
    assert "Deal 1 saved" in page.inner_text(".messages")
    assert Deal.objects.filter(match=table1).count() == 1


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["375", "1366"])
def test_correct_delete_restore_and_reopen_from_the_match_page(
    browser, live_server, demo, django_user_model, viewport
):
    lena = django_user_model.objects.create_user("lena", password="lena-pw-2026")
    Membership.objects.create(
        club=demo.table.club_night.season.club, user=lena, role=Membership.Role.ADMIN
    )
    base = live_server.url
    page = browser.new_page(viewport=viewport)
    login(page, base, "lena", "lena-pw-2026", f"/matches/{demo.pk}/")

    # Correct deal 1: the same entry form, prefilled, and a reason.
    page.click("#deal-1 >> text=Correct")
    page.wait_for_selector("#deal-entry[data-ready]")
    assert page.is_checked("#field-declarer input[value=aki]")
    assert page.input_value("#id_count") == "28"
    page.fill("#id_count", "29")
    page.fill("#id_reason", "the count was 29")
    page.click("#save")
    page.wait_for_selector(".messages >> text=Deal 1 corrected")
    assert Deal.objects.get(match=demo, number=1).record["declaration"]["count"] == 29
    assert "the count was 29" in page.inner_text("main")  # the history, with its effect

    # Delete deal 2, then restore it.
    page.fill("#deal-2 input[name=reason]", "entered twice")
    page.click("#deal-2 button")
    page.wait_for_selector(".messages >> text=Deal 2 deleted")
    assert Deal.objects.get(match=demo, number=2).deleted_at is not None
    page.fill("#deleted-2 input[name=reason]", "it was played")
    page.click("#deleted-2 button")
    page.wait_for_selector(".messages >> text=Deal 2 restored")
    assert Deal.objects.get(match=demo, number=2).deleted_at is None

    # Reopen a finished match.
    finished = Match.objects.filter(game="twentytwo").earliest("pk")
    assert finished.status == Match.Status.FINISHED
    page.goto(f"{base}/matches/{finished.pk}/")
    page.fill("form:has(#reopen) input[name=reason]", "the last trick was misread")
    page.click("#reopen")
    page.wait_for_selector(".messages >> text=The match is open again")
    finished.refresh_from_db()
    assert finished.status == Match.Status.OPEN
    assert "the last trick was misread" in page.inner_text("ul.corrections")  # in the history


def test_a_member_sees_no_correction_buttons_and_the_server_refuses_anyway(
    browser, live_server, demo
):
    page = browser.new_page(viewport=PHONE)
    login(page, live_server.url, "member", "demo-member-2026", f"/matches/{demo.pk}/")
    assert page.locator("text=Correct").count() == 0 and page.locator("#deal-1").count() == 0
    deal = Deal.objects.get(match=demo, number=1)
    response = page.goto(f"{live_server.url}/deals/{deal.pk}/correct/")
    assert response.status == 403
    assert (
        "Only this table's scorer or a league administrator corrects and deletes its deals."
        in page.inner_text("main")
    )
