"""Divisions in a few taps, in the browser (issue 56, 4): on a 375×740 phone in Japanese
and a 1366×900 laptop in English, fourteen players go into two divisions by last season's
standings with three taps (and the three keys of ``A B``); the round then proposed seats
both divisions of 7 at 4 + 3, names each table's division, and its sticky bar is one
thumb's row."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.scoring.test_divisions import standings_of
from tests.web.browser.test_club_from_nothing import shot
from tests.web.browser.test_entry import Taps
from tournaments.models import Club, ClubNight, Membership, Placement, Player, Season

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "青木 彩",
    "石田 健",
    "上野 空",
    "江藤 舞",
    "大野 陸",
    "加藤 凛",
    "木村 蓮",
    "工藤 結",
    "小西 湊",
    "斎藤 葵",
    "佐野 樹",
    "鈴木 陽",
    "高田 光",
    "中村 翼",
]
THUMB = 64
"""The most a sticky bar may cover: one thumb's row, in CSS pixels."""


def a_club(slug: str, django_user_model):
    club = Club.objects.create(name=slug.title(), slug=slug)
    spring = Season.objects.create(club=club, name="Spring", games=["napoleon"])
    winter = Season.objects.create(club=club, name="Winter", games=["napoleon"], next_season=None)
    Season.objects.filter(pk=winter.pk).update(next_season=spring)
    people = [
        Player.objects.create(club=club, handle=f"{slug}{i:02d}", display_name=name)
        for i, name in enumerate(NAMES)
    ]
    standings_of(winter, {p: (i + 1, True) for i, p in enumerate(people)})  # 青木 first
    night = ClubNight.objects.create(season=spring, date=dt.date(2026, 11, 28), venue="Hall")
    night.present.set(people)
    director = django_user_model.objects.create_user(f"dir-{slug}", password="dir-pass-2026")
    Membership.objects.create(club=club, user=director, role=Membership.Role.ADMIN)
    return spring, people, night, director


def signed_in(browser, base, size, locale, user, to):
    page = browser.new_context(viewport=size, locale=locale, has_touch=True).new_page()
    page.goto(f"{base}/accounts/login/?next={to}")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "dir-pass-2026")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{to}")
    return page


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def serious(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands (the proposal and
    a filled divisions page answer a POST: the GET pages' axe test does not see them)."""
    from axe_playwright_python.sync_playwright import Axe

    page.evaluate(Axe().axe_script)
    found = page.evaluate("options => axe.run(document, options)", {"resultTypes": ["violations"]})
    return [
        f"{v['id']} {v['nodes'][0]['html'][:120]}"
        for v in found["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize(
    ("size", "locale", "word"),
    [
        ({"width": 375, "height": 740}, "ja-JP", "ディビジョン"),
        ({"width": 1366, "height": 900}, "en", "Division"),
    ],
    ids=["375-ja", "1366-en"],
)
def test_fourteen_players_in_two_divisions_by_rule_then_a_round_of_four_and_three(
    browser, live_server, django_user_model, tmp_path, size, locale, word
):
    slug = f"kanda{size['width']}"
    spring, people, night, director = a_club(slug, django_user_model)
    where = f"/seasons/{spring.pk}/divisions/"
    page = signed_in(browser, live_server.url, size, locale, director, where)
    name = f"{size['width']}-{locale[:2]}"
    shot(page, tmp_path, f"divisions-{name}")
    taps = Taps(page)
    taps.tap("#id_names")
    taps.type("A B")
    taps.tap("#rules button[value=last_season]")
    page.wait_for_selector("#rule-filled")
    assert fits(page) and serious(page) == []
    shot(page, tmp_path, f"divisions-filled-{name}")
    assert not Placement.objects.filter(season=spring).exists()  # filled, not yet saved
    taps.tap(".save button")
    page.wait_for_selector(".messages li")
    presses = len("A B")
    print(f"\n{name}: {taps.count - presses} taps and {presses} keys for 14 players in 2 divisions")
    assert taps.count - presses == 3
    placed = dict(Placement.objects.filter(season=spring).values_list("player", "division__name"))
    assert placed == {p.pk: "A" if i < 7 else "B" for i, p in enumerate(people)}  # by hand

    page.goto(f"{live_server.url}/nights/{night.pk}/rounds/")
    page.fill("#id_deals", "2")
    page.tap("#propose")
    page.wait_for_selector("#round-proposal")
    marks = page.locator(".table-card .division-mark").all_inner_texts()
    assert marks == [f"{word} A", f"{word} A", f"{word} B", f"{word} B"]
    seats = [page.locator(f"#table-{n} .seats li").count() for n in range(1, 5)]
    assert sorted(seats[:2]) == [3, 4] and sorted(seats[2:]) == [3, 4]
    assert page.locator("#sitting-out").count() == 0
    bar = page.locator(".save.thumb").bounding_box()
    assert bar is not None and bar["height"] <= THUMB, bar
    assert page.locator("#confirm-round").bounding_box()["height"] >= 44  # still a thumb's target
    assert fits(page) and serious(page) == []
    shot(page, tmp_path, f"round-proposal-divisions-{name}")
