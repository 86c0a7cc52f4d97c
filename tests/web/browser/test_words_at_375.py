"""Words and names on a 375×740 phone in Japanese (issue 56, 7): the season form's game
chips name each game once, in Japanese; a players' list with a ``reading`` column adds the
readings, and a wrong reading is named by its row and column with nothing added; the
club's players read a line each, their edit links on the screen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tournaments.games import LEAGUE_GAMES
from tournaments.models import Club, Player

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 375, "height": 740}
LATIN = {g.name_en for g in LEAGUE_GAMES.values() if g.name_en != g.name_ja}


def shot(page, tmp_path: Path, name: str) -> None:
    """A screenshot; with ``CLUBSCORE_SCREENSHOTS=dir`` kept there."""
    where = Path(os.environ.get("CLUBSCORE_SCREENSHOTS") or tmp_path)
    page.screenshot(path=str(where / f"words-{name}-375-ja.png"), full_page=False)


def test_chips_and_readings_in_japanese_on_a_phone(browser, live_server, demo, tmp_path):
    club = Club.objects.get()
    context = browser.new_context(viewport=PHONE, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/clubs/{club.slug}/seasons/new/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "demo-admin-2026")
    page.click("button[type=submit]")
    page.wait_for_selector("#field-games")
    chips = page.locator("#field-games label.chip").all_inner_texts()
    assert [c.strip() for c in chips] == [g.name_ja for g in LEAGUE_GAMES.values()]
    assert not any(name in " ".join(chips) for name in LATIN)
    page.locator("#field-games").scroll_into_view_if_needed()
    shot(page, tmp_path, "season-chips")

    page.goto(f"{live_server.url}/clubs/{club.slug}/setup/")
    wrong = "名前,よみ\n佐藤 彩,さとう あや\n伊藤 亜紀,Ito Aki\n"
    page.set_input_files(
        "#id_list",
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": wrong.encode()}],
    )
    page.click("#add-list")
    messages = page.locator(".messages").inner_text()
    assert "何も追加していません" in messages and "3 行目, よみ: よみはかなで書きます" in messages
    assert not Player.objects.filter(club=club, display_name="佐藤 彩").exists()
    page.locator(".messages").scroll_into_view_if_needed()
    shot(page, tmp_path, "reading-refused")

    right = "名前,よみ\n佐藤 彩,さとう あや\n伊藤 亜紀,いとう あき\n"
    page.set_input_files(
        "#id_list",
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": right.encode()}],
    )
    page.click("#add-list")
    assert "2人のプレイヤーを追加しました" in page.locator(".messages").inner_text()
    saved = Player.objects.get(club=club, display_name="佐藤 彩")
    assert (saved.reading, saved.handle) == ("さとう あや", "satou-aya")
    row = page.locator("table.roster tr", has_text="佐藤 彩")
    assert "さとう あや" in row.inner_text()
    row.scroll_into_view_if_needed()
    shot(page, tmp_path, "reading-listed")
    # Each player a line on the phone: every name and reading whole on one line, every
    # edit link on the screen (not off to the right of six squeezed columns).
    assert page.evaluate(ROSTER_CELLS_BROKEN) == []
    assert page.evaluate(EDIT_LINKS_OFF_SCREEN) == []
    assert page.evaluate(TOO_SMALL_TO_TAP) == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]

    # Names pasted a line each (a reading copied beside one): a wrong reading keeps the
    # pasted names in their box, to be corrected there.
    page.fill("#id_names", "山本 健\tやまもと けん\n小林 茜\tkobayashi\n")
    page.click("#add-list")
    assert "2 行目, よみ: よみはかなで書きます" in page.locator(".messages").inner_text()
    assert "小林 茜" in page.input_value("#id_names")
    page.locator("#id_names").scroll_into_view_if_needed()
    shot(page, tmp_path, "pasted-refused")
    page.fill("#id_names", "山本 健\tやまもと けん\n小林 茜\tこばやし あかね\n")
    page.click("#add-list")
    assert "2人のプレイヤーを追加しました" in page.locator(".messages").inner_text()
    assert Player.objects.get(club=club, display_name="小林 茜").reading == "こばやし あかね"


ROSTER_CELLS_BROKEN = """() => [...document.querySelectorAll('table.roster td:not(:last-child)')]
  .filter(td => td.textContent.trim() && td.getClientRects().length
    && td.getBoundingClientRect().height > 1.8 * parseFloat(getComputedStyle(td).fontSize))
  .map(td => td.textContent.trim())"""
TOO_SMALL_TO_TAP = """() => [...document.querySelectorAll(
    'table.roster a, table.members button, table.members select')]
  .filter(e => e.getBoundingClientRect().height < 44).map(e => e.outerHTML.slice(0, 60))"""
EDIT_LINKS_OFF_SCREEN = """() => [...document.querySelectorAll('table.roster a')]
  .filter(a => { const r = a.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth; })
  .map(a => a.href)"""
