"""The pages in a real browser: headless Debian Chromium driven by Playwright.

A scorer signs in, enters a Rettler deal whose point cards do not add up, sees
the engine's error next to the fields with what was typed still there, corrects
it, saves, and sees the season's leaderboard change.
"""

from __future__ import annotations

import pytest

from scoring.models import SeasonStanding
from tests.web.browser.conftest import pad_cards, sign_in
from tournaments.models import Deal

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_scorer_corrects_a_refused_rettler_deal_and_the_leaderboard_changes(
    browser, live_server, demo
):
    aki_before = SeasonStanding.objects.get(game="rettler", player__handle="aki").total
    page = browser.new_page(viewport={"width": 375, "height": 812})
    sign_in(page, live_server.url, f"/matches/{demo.pk}/enter/")
    page.wait_for_selector("#deal-entry[data-ready]")
    page.click("#field-declarer label:has(input[value=aki])")
    page.fill("#id_count", "28")
    page.click("#field-trump label:has(input[value=diamonds])")
    pad_cards(page, "adjutant_cards", "SA")
    page.click("#field-adjutants label:has(input[value=chika])")
    page.click("#field-adjutants label:has(input[value=dai])")
    for handle, points in {"aki": 16, "ben": 6, "chika": 10, "dai": 3, "emi": 1, "fumi": 2}.items():
        page.fill(f"#id_pc_{handle}", str(points))
    page.fill("#id_discarded", "0")  # 38 in all: two short of 40
    assert "38" in page.inner_text("#points-sum")
    page.click(".save button")

    error = page.inner_text("#field-discarded .errorlist")
    assert "add up to 38, not 40" in error and "point_cards_total" not in error
    assert "add up to 38, not 40" in page.inner_text("#error-summary")
    assert page.input_value("#id_pc_aki") == "16"  # what was typed is still there
    assert page.is_checked("#field-adjutants input[value=dai]")
    assert Deal.objects.filter(match=demo).count() == 3

    page.fill("#id_discarded", "2")
    assert "40" in page.inner_text("#points-sum")
    page.click(".save button")
    page.wait_for_selector(".messages")  # the next deal's form, the saved deal's scores on top
    assert "Deal 4 saved" in page.inner_text(".messages")
    assert page.inner_text("#deal-number") == "5"
    assert Deal.objects.filter(match=demo).count() == 4

    page.goto(f"{live_server.url}/seasons/{demo.table.club_night.season_id}/")
    row = page.locator("#game-rettler table tr", has_text="Aki")
    aki_after = SeasonStanding.objects.get(game="rettler", player__handle="aki").total
    assert aki_after == aki_before + 30  # 28 declared, 29 taken, two adjutants: +30
    assert str(aki_after) in row.inner_text()


def test_the_pages_are_served_in_japanese_too(browser, live_server, demo):
    page = browser.new_page()
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.goto(f"{live_server.url}/seasons/{demo.table.club_night.season_id}/")
    text = page.inner_text("main")
    assert "勝ちディール数" in text and "レットラー" in text and "Rettler" not in text
    assert page.locator("svg.chart").count() == len(
        demo.table.club_night.season.games
    )  # one per game
