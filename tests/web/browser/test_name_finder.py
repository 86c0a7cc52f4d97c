"""A big club's long lists of names, on a phone and at a desk: the box above them finds a
name by any part of it, its Japanese name or its reading (katakana or hiragana), says so
when nobody matches; a tick made while the list is narrowed is kept, and the keyboard's
search key sends nothing."""

from __future__ import annotations

import pytest

from tests.web.browser.conftest import sign_in
from tests.web.browser.test_club_from_nothing import shot
from tests.web.test_name_finder import club_of
from tournaments.models import Membership

pytestmark = pytest.mark.django_db(transaction=True)

SHOWN_ITEMS = "() => [...document.querySelectorAll('[data-also]')].filter(e => !e.hidden).length"


def test_a_member_finds_their_name_on_my_night_by_its_reading(
    browser, live_server, tmp_path, django_user_model
):
    club, night = club_of(40)
    user = django_user_model.objects.create_user("ren", "ren@example.org", "ren-pass-2026")
    Membership.objects.create(club=club, user=user, role=Membership.Role.MEMBER)
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, has_touch=True, locale="ja-JP"
    )
    context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page = context.new_page()
    sign_in(page, live_server.url, f"/nights/{night.pk}/me/", "ren", "ren-pass-2026")
    page.wait_for_selector("#find-player-pages")
    assert page.evaluate(SHOWN_ITEMS) == 40
    page.tap("#find-player-pages")  # a search box: the phone shows its keyboard
    page.keyboard.type("タナカ")  # the reading in katakana, stored in hiragana
    assert page.evaluate(SHOWN_ITEMS) == 1
    assert page.is_visible("#player-pages >> text=田中 健")  # a Japanese page: his Japanese name
    shot(page, tmp_path, "find-a-name-375-ja")
    page.fill("#find-player-pages", "田中さん")  # nobody is called that
    assert page.evaluate(SHOWN_ITEMS) == 0
    assert page.is_visible("text=一致する名前はありません。")
    page.fill("#find-player-pages", "")
    assert page.evaluate(SHOWN_ITEMS) == 40
    assert not page.is_visible("text=一致する名前はありません。")
    page.fill("#find-player-pages", "田中")
    page.tap("#player-pages >> text=田中 健")
    page.wait_for_url("**/me/?player=*")
    assert page.is_visible("#mine-table")  # where their table shows once drawn
    context.close()


def test_the_secretary_ticks_a_name_found_in_a_big_clubs_attendance(
    browser, live_server, tmp_path, django_user_model
):
    club, night = club_of(60)
    user = django_user_model.objects.create_user("sec", "sec@example.org", "sec-pass-2026")
    Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN)
    context = browser.new_context(viewport={"width": 1366, "height": 900}, has_touch=True)
    page = context.new_page()
    sign_in(page, live_server.url, f"/nights/{night.pk}/draw/", "sec", "sec-pass-2026")
    page.wait_for_selector("#find-field-present")
    page.tap("#find-field-present")
    page.keyboard.type("player 1")  # Player 1 and Player 10 to 19
    assert page.evaluate(SHOWN_ITEMS) == 11
    page.tap("#field-present label:has-text('Player 12')")
    page.fill("#find-field-present", "たな")
    page.press("#find-field-present", "Enter")  # the keyboard's search key: no form sent
    assert page.evaluate(SHOWN_ITEMS) == 1
    page.tap("#field-present label:has-text('Tanaka')")
    shot(page, tmp_path, "find-a-name-1366-en")
    page.fill("#find-field-present", "")
    assert page.evaluate(SHOWN_ITEMS) == 60
    assert "2" in page.inner_text("#present-count")  # both ticks kept
    ticked = page.eval_on_selector_all(
        "#field-present input:checked", "boxes => boxes.map(b => b.parentNode.textContent.trim())"
    )
    assert sorted(ticked) == ["Player 12", "Tanaka Ken"]
    context.close()


def test_a_name_is_found_as_typed_and_the_ticks_follow_what_is_shown(
    browser, live_server, tmp_path, django_user_model
):
    """Letters typed are found as typed, never running from one name part into the next
    ("aken" is not "Tanaka Ken"); Japanese is found with or without its space.  While the
    list is narrowed, the buttons tick and untick the names shown, and say so."""
    club, night = club_of(60)
    user = django_user_model.objects.create_user("sec", "sec@example.org", "sec-pass-2026")
    Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN)
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, has_touch=True, locale="ja-JP"
    )
    context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page = context.new_page()
    sign_in(page, live_server.url, f"/nights/{night.pk}/draw/", "sec", "sec-pass-2026")
    page.wait_for_selector("#find-field-present")
    page.tap("#find-field-present")
    page.keyboard.type("aken")
    assert page.evaluate(SHOWN_ITEMS) == 0
    for typed in ("a ken", "田中健", "田中 健", "たなかけん"):
        page.fill("#find-field-present", typed)
        assert page.evaluate(SHOWN_ITEMS) == 1, typed
    # 山田 太郎 has no reading: found by the kana typed before kanji, and by Latin letters.
    for typed in ("やまだ", "ヤマダ", "yamada", "Tarou"):
        page.fill("#find-field-present", typed)
        assert page.evaluate(SHOWN_ITEMS) == 1, typed
        assert page.is_visible("#field-present >> text=山田 太郎")
    page.fill("#find-field-present", "player 1")  # Player 1 and Player 10 to 19
    assert page.inner_text("#everyone") == "表示中の名前に印をつける"
    page.tap("#everyone")
    shot(page, tmp_path, "tick-shown-375-ja")
    assert page.locator("#field-present input:checked").count() == 11
    page.fill("#find-field-present", "")
    assert page.inner_text("#everyone") == "全員に印をつける"
    assert "11" in page.inner_text("#present-count")
    page.tap("#everyone")
    assert page.locator("#field-present input:checked").count() == 60
    page.fill("#find-field-present", "たなか")
    assert page.inner_text("#no-one") == "表示中の名前の印を外す"
    page.tap("#no-one")
    assert page.locator("#field-present input:checked").count() == 59
    page.fill("#find-field-present", "")
    page.tap("#no-one")
    assert page.locator("#field-present input:checked").count() == 0
    assert "0" in page.inner_text("#present-count")
    context.close()
