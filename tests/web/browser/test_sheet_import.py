"""A league administrator brings a club's paper history in from the pages (issue 17):
downloads the template, uploads a filled file, answers for a misspelled name, confirms,
and the season's leaderboard is there."""

from __future__ import annotations

import pytest

from scoring.models import SeasonStanding
from tournaments.models import Club, Deal, Membership, Player
from tournaments.sheets import template

from ...tournaments.sheet_history import add_players, history, sheet_rows
from .test_club_night import LAPTOP, PHONE, login

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("viewport", "language"), [(LAPTOP, "en"), (PHONE, "ja")], ids=["1366-en", "375-ja"]
)
def test_upload_check_answer_and_import_a_seasons_sheets(
    browser, live_server, django_user_model, tmp_path, viewport, language
):
    club = Club.objects.create(name="Hongo Card Club", slug="hongo")
    lena = django_user_model.objects.create_user("lena", password="lena-pw-2026")
    Membership.objects.create(club=club, user=lena, role=Membership.Role.ADMIN)
    add_players(club)
    rows = sheet_rows("comp13", history("comp13", nights=1))
    for row in rows:
        row["player_2"] = row["player_2"].replace("Ben Mori", "Ben Mory")
    filled = tmp_path / "comp13.csv"
    filled.write_bytes(template.to_csv(template.as_table("comp13", rows, language)))

    context = browser.new_context(
        viewport=viewport, locale=language, extra_http_headers={"Accept-Language": language}
    )
    page = context.new_page()
    base = live_server.url
    login(page, base, "lena", "lena-pw-2026", next_url="/clubs/hongo/setup/")
    page.click("nav.links a[href='/clubs/hongo/import/']")
    with page.expect_download() as got:
        page.click(f"a[href='/sheets/template-comp13-{language}.xlsx']")
    assert got.value.suggested_filename == f"clubscore-comp-13-{language}.xlsx"
    page.set_input_files("#id_sheet", str(filled))
    page.click("form.setup button[type=submit]")

    mistakes = page.locator("table.mistakes tr")
    assert mistakes.count() > 1  # the misspelled name, by row and column
    assert "Ben Mory" in page.locator("table.mistakes").inner_text()
    assert page.locator("button[name=import]").count() == 0
    assert Deal.objects.count() == 0
    page.select_option("#id_who-1", "ben")
    page.click("button[name=check]")
    page.locator("button[name=import]").click()
    page.wait_for_selector(".messages li.success")
    deals = sum(len(m.deals) for m in history("comp13", nights=1))
    assert Deal.objects.filter(match__table__club_night__season__club=club).count() == deals
    assert not Player.objects.filter(display_name="Ben Mory").exists()

    season = club.seasons.get(name="2023 Spring")
    page.goto(f"{base}/seasons/{season.pk}/")
    assert SeasonStanding.objects.filter(season=season).exists()
    assert "Ben Mori" in page.locator("main").inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], "nothing runs off the side of the screen"
