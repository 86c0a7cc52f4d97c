"""A season's final proposed in the browser (issue 56, 2): on a 375×740 phone in Japanese
and on a 1366×900 laptop in English, the proposal names each division's final table and
shows each seat's rank and figure; nobody has qualified yet, so it warns, a confirmation
without the tick is refused and stores nothing, and with it the final is seated with each
division's leaders."""

from __future__ import annotations

import pytest

from tests.web.browser.test_club_from_nothing import shot
from tests.web.test_final_seeding import a_season, direct_totals, final_night, top_by_points
from tournaments import divisions
from tournaments.models import Membership, Round

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(browser, base: str, size: dict[str, int], locale: str, to: str):
    page = browser.new_context(viewport=size, locale=locale, has_touch=True).new_page()
    page.goto(f"{base}/accounts/login/?next={to}")
    page.fill("#id_username", "dir")
    page.fill("#id_password", "dir-pass-2026")
    page.click("button[type=submit]")
    page.wait_for_selector("#next-round")
    return page


def propose_final(page) -> None:
    page.click("label[for=id_method_final]")
    page.fill("#id_size", "4")
    page.click("#propose")
    page.wait_for_selector("#round-proposal")


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_final_proposal_on_a_phone_and_a_laptop(
    browser, live_server, django_user_model, tmp_path
):
    season, people = a_season("kanda", 12, "A B")
    totals = direct_totals(season)
    placed = {p: d.name for p, d in divisions.placed(season).items()}
    final = final_night(season)
    final.present.set(people)
    director = django_user_model.objects.create_user("dir", password="dir-pass-2026")
    Membership.objects.create(club=season.club, user=director, role=Membership.Role.ADMIN)
    rounds_url = f"/nights/{final.pk}/rounds/"

    laptop = signed_in(browser, live_server.url, {"width": 1366, "height": 900}, "en", rounds_url)
    propose_final(laptop)
    assert laptop.inner_text("#table-1 .final-mark") == "Final table of division A"
    assert laptop.inner_text("#table-2 .final-mark") == "Final table of division B"
    assert laptop.is_visible("#unqualified-final") and fits(laptop)
    assert laptop.locator("#table-1 .seed").first.inner_text().startswith("1st · ")
    shot(laptop, tmp_path, "final-proposal-1366-en")

    phone = signed_in(browser, live_server.url, {"width": 375, "height": 740}, "ja-JP", rounds_url)
    propose_final(phone)
    assert phone.inner_text("#table-1 .final-mark") == "ディビジョン A の決勝卓"
    assert phone.locator("#table-1 .seed").first.inner_text().startswith("1位 · ")
    assert "規定未到達" in phone.inner_text("#table-1")
    assert phone.is_visible("#unqualified-final") and fits(phone)
    shot(phone, tmp_path, "final-proposal-375-ja")
    phone.locator("#table-2").scroll_into_view_if_needed()
    shot(phone, tmp_path, "final-proposal-seats-375-ja")
    phone.click("#confirm-round")  # without the tick: asked, nothing stored
    phone.wait_for_selector("#error-summary")
    assert "「このまま決勝を組む」にチェック" in phone.inner_text("#error-summary")
    assert not Round.objects.filter(club_night=final).exists()
    shot(phone, tmp_path, "final-proposal-asked-375-ja")
    phone.click("label[for=id_confirm_unqualified]")
    phone.click("#confirm-round")
    phone.wait_for_selector("#round-1")
    made = Round.objects.get(club_night=final)
    tables = [
        {p.pk for p in t.matches.get().seated_players()} for t in made.tables.order_by("name")
    ]
    for name, seated in zip("AB", tables[:2], strict=True):
        members = [p for p, d in placed.items() if d == name]
        assert {placed[p] for p in seated} == {name}
        assert len(seated) == 4 and top_by_points(totals, members, seated)
