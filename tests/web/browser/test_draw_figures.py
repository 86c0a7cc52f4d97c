"""The draw's figures and who sat with whom on a phone in Japanese, and the matrix on a
laptop (issue 57, 4): the figures read, their meaning opens with a tap, the matrix
scrolls sideways with the names kept in view, and the page itself never does."""

from __future__ import annotations

import datetime as dt

import pytest

from actions import rounds
from tests.web.browser.test_club_from_nothing import shot
from tournaments.models import Club, ClubNight, Membership, Player, Season
from tournaments.round_draw import Seating

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    ("青木 彩", "あおき あや"),
    ("井上 大輔", "いのうえ だいすけ"),
    ("上田 舞", "うえだ まい"),
    ("遠藤 健", "えんどう けん"),
    ("岡田 翔", "おかだ しょう"),
    ("加藤 真理子", "かとう まりこ"),
    ("木村 蓮", "きむら れん"),
    ("工藤 陽菜", "くどう ひな"),
    ("小林 悠真", "こばやし ゆうま"),
    ("佐藤 結衣", "さとう ゆい"),
    ("Alexandra Whitfield", ""),
    ("Ben Ito", ""),
]
PLAN = [  # 0 and 1 together three times; 0 deals first every round
    [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]],
    [[0, 1, 4, 8], [2, 5, 9, 10], [3, 6, 7, 11]],
    [[0, 1, 5, 11], [2, 4, 7, 9], [3, 6, 8, 10]],
]


def _night(django_user_model) -> ClubNight:
    club = Club.objects.create(name="神田クラブ", slug="kanda")
    season = Season.objects.create(club=club, name="2026 秋", games=["napoleon"])
    night = ClubNight.objects.create(
        season=season, date=dt.date(2026, 11, 28), venue="本郷", table_size=4, rounds_planned=5
    )
    people = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=name, reading=reading).pk
        for i, (name, reading) in enumerate(NAMES)
    ]
    director = django_user_model.objects.create_user("dir", password="dir-pass-2026")
    Membership.objects.create(club=club, user=director, role=Membership.Role.ADMIN)
    for number, tables in enumerate(PLAN, 1):
        seating = Seating([[people[i] for i in t] for t in tables], [])
        made = rounds.seat(night, rounds.Proposal(number, "napoleon", "balanced", 1, seating))
        rounds.end_early(made, director, "次へ")
    return night


def _sign_in(page, base: str, then: str, touch: bool) -> None:
    """The director signs in and lands on ``then`` (a phone taps, a laptop clicks)."""
    page.goto(f"{base}/accounts/login/?next={then}")
    page.fill("#id_username", "dir")
    page.fill("#id_password", "dir-pass-2026")
    (page.tap if touch else page.click)("button[type=submit]")


def _no_sideways_page(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_the_figures_and_the_pairs_on_a_phone_and_a_laptop(
    browser, live_server, django_user_model, tmp_path
):
    night = _night(django_user_model)
    base = live_server.url
    phone = browser.new_context(
        viewport={"width": 375, "height": 740}, locale="ja-JP", has_touch=True, is_mobile=True
    ).new_page()
    _sign_in(phone, base, f"/nights/{night.pk}/rounds/", touch=True)
    phone.wait_for_selector("#figures-3")
    assert "⚠ 最多同卓 3回" in phone.inner_text("#figures-3")
    assert "4 人卓" in phone.inner_text("#night-plan")
    assert phone.input_value("#id_size") == "4"
    _no_sideways_page(phone)
    shot(phone, tmp_path, "draw-figures-375-ja")
    phone.tap("#figures-help summary")
    assert phone.is_visible("#figures-help dd")
    phone.locator("#figures-help").scroll_into_view_if_needed()
    shot(phone, tmp_path, "draw-figures-help-375-ja")

    phone.tap("#pairs-link")
    phone.wait_for_selector("#pairs")
    _no_sideways_page(phone)
    shot(phone, tmp_path, "pairs-375-ja")
    first = phone.locator("#pairs tbody th").first
    before = first.bounding_box()
    phone.eval_on_selector(".pairs-scroll", "el => { el.scrollLeft = el.scrollWidth; }")
    after = first.bounding_box()
    assert before and after and abs(before["x"] - after["x"]) < 1  # the names stay in view
    shot(phone, tmp_path, "pairs-375-ja-scrolled")
    phone.tap("#pairs-season")
    phone.wait_for_selector("#pairs-season[aria-current=page]")
    assert phone.locator("td.met-bad").count() == 2  # 青木 and 井上, both ways

    laptop = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    _sign_in(laptop, base, f"/nights/{night.pk}/pairs/", touch=False)
    laptop.wait_for_selector("#pairs")
    _no_sideways_page(laptop)
    shot(laptop, tmp_path, "pairs-1366-en")

    # The room display: the current round's line, drawn again by live.js from the API.
    laptop.set_viewport_size({"width": 1366, "height": 768})
    laptop.goto(f"{base}/nights/{night.pk}/live/")
    laptop.wait_for_function("() => document.getElementById('live').dataset.updated", timeout=15000)
    line = laptop.inner_text("#live-fairness")
    assert "⚠ Most together 3" in line and "Repeats 8" in line, line
    assert laptop.locator("#live-fairness strong.bad").count() == 2
    shot(laptop, tmp_path, "live-fairness-1366-en")


def test_a_declared_night_says_it_follows_a_known_schedule(
    browser, live_server, django_user_model, tmp_path
):
    """Sixteen at tables of 4 for 5 rounds, drawn by taps on a phone: each proposal says
    which round of the schedule it is, and the night's figures stay clean."""
    club = Club.objects.create(name="神田クラブ", slug="kanda")
    season = Season.objects.create(club=club, name="2026 秋", games=["napoleon"])
    night = ClubNight.objects.create(
        season=season, date=dt.date(2026, 11, 28), venue="本郷", table_size=4, rounds_planned=5
    )
    night.present.set(
        [
            Player.objects.create(club=club, handle=f"d{i}", display_name=f"選手 {i:02d}")
            for i in range(16)
        ]
    )
    director = django_user_model.objects.create_user("dir", password="dir-pass-2026")
    Membership.objects.create(club=club, user=director, role=Membership.Role.ADMIN)
    phone = browser.new_context(
        viewport={"width": 375, "height": 740}, locale="ja-JP", has_touch=True, is_mobile=True
    ).new_page()
    _sign_in(phone, live_server.url, f"/nights/{night.pk}/rounds/", touch=True)
    for number in (1, 2):
        phone.wait_for_selector("#propose")
        phone.tap("#propose")
        phone.wait_for_selector("#design-note")
        assert f"第 {number} ラウンド / 全 5 ラウンド" in phone.inner_text("#design-note")
        assert "バランス" in phone.inner_text("h1")
        assert "⚠" not in phone.inner_text("#proposal-figures")
        _no_sideways_page(phone)
        shot(phone, tmp_path, f"design-proposal-{number}-375-ja")
        phone.tap("#confirm-round")
        phone.wait_for_selector(f"#figures-{number}")
        rounds.end_early(rounds.current(night), director, "次へ")
        phone.goto(f"{live_server.url}/nights/{night.pk}/rounds/")
    assert "重複 0（既知の最善 0）" in phone.inner_text("#figures-2")
    laptop = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ja-JP").new_page()
    _sign_in(laptop, live_server.url, f"/nights/{night.pk}/rounds/", touch=False)
    laptop.click("#propose")
    laptop.wait_for_selector("#design-note")
    shot(laptop, tmp_path, "design-proposal-3-1366-ja")
