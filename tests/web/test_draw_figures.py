"""The draw explains itself (issue 57, 4): each round's figures on the rounds page, the
proposal, the room display and the API, the season's, and the secretary's matrix of who
sat with whom; the night's table size and rounds declared on the night form.

The nights are seated by hand (``rounds.seat`` with a proposal of known tables), so that
every figure is known: players 0 and 1 sit together in all three rounds, player 0 in
seat 1 each time."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

import engine
from actions import rounds
from scoring import live as room_answer
from tests.conftest import client_of, member_of
from tests.markup import squeezed
from tournaments import draw_measures
from tournaments.models import Club, ClubNight, Membership, Player, Round, Season
from tournaments.round_draw import Seating

pytestmark = pytest.mark.django_db

# Nine Napoleon players at two tables of 4, one sitting out in turn (indices into ``nine``).
NIGHT = [
    ([[0, 1, 2, 3], [4, 5, 6, 7]], [8]),
    ([[0, 1, 4, 5], [2, 3, 8, 6]], [7]),
    ([[0, 1, 6, 8], [2, 4, 5, 7]], [3]),
]
LATER = [([[0, 2, 4, 6], [1, 3, 5, 7]], [8])]
"""The season's second night: one round."""


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="Open", games=["napoleon"])


@pytest.fixture
def nine(club):
    return [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}").pk for i in range(9)
    ]


@pytest.fixture
def admin(club, django_user_model):
    return member_of(club, django_user_model, "secretary", Membership.Role.ADMIN)


@pytest.fixture
def director(admin):
    page = Client()
    page.force_login(admin)
    return page


def ids(plan, nine):
    return [
        ([[nine[i] for i in t] for t in tables], [nine[i] for i in out]) for tables, out in plan
    ]


def seat_night(night: ClubNight, plan, admin) -> None:
    """Seat each round of ``plan`` as given, ending each before the next."""
    for number, (tables, out) in enumerate(plan, 1):
        made = rounds.seat(
            night, rounds.Proposal(number, "napoleon", "balanced", 1, Seating(tables, out)), admin
        )
        rounds.end_early(made, admin, "next round")


@pytest.fixture
def seated(season, nine, admin):
    """The night of three rounds, and the season's later night of one."""
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28), venue="Hall")
    seat_night(night, ids(NIGHT, nine), admin)
    later = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 5), venue="Hall")
    seat_night(later, ids(LATER, nine), admin)
    return night


def expected(plan, nine) -> list[draw_measures.Measures]:
    return draw_measures.by_round([tables for tables, _out in ids(plan, nine)])


def said(m: draw_measures.Measures, ja: bool = False, season: bool = False) -> list[str]:
    """The figures as the page words them (a season's seats: seat 1 alone)."""
    if ja:
        seats = "席 ✓" if not m.seat_off else f"席の偏り {m.seat_off}人"
        if season:
            seats = "席 1 ✓" if not m.first_seat_off else f"席 1 の偏り {m.first_seat_off}人"
        return [f"最多同卓 {m.most_met}回", f"重複 {m.excess}", f"連続 {m.consecutive}", seats]
    seats = "Seats ✓" if not m.seat_off else f"Seats off balance {m.seat_off}"
    if season:
        seats = "Seat 1 ✓" if not m.first_seat_off else f"Seat 1 off balance {m.first_seat_off}"
    return [
        f"Most together {m.most_met}",
        f"Repeats {m.excess}",
        f"In a row {m.consecutive}",
        seats,
    ]


def block(html: str, element_id: str) -> str:
    found = re.search(rf'id="{element_id}">(.*?)</div>', html, re.S)
    assert found, element_id
    return squeezed(found.group(1))


def test_the_known_night_measures_as_counted_by_hand(nine):
    first, second, third = expected(NIGHT, nine)
    assert (first.most_met, first.excess, first.consecutive, first.seat_off) == (1, 0, 0, 0)
    assert (second.most_met, second.excess, second.consecutive) == (2, 3, 3)
    assert third.most_met == 3  # players 0 and 1, every round
    assert third.first_seat_off >= 1  # player 0 dealt first three times of three


@pytest.mark.parametrize("language", ["en", "ja"])
def test_each_round_shows_its_figures_and_marks_the_bad_ones(seated, nine, director, language):
    director.cookies["django_language"] = language
    page = director.get(f"/nights/{seated.pk}/rounds/")
    html = page.content.decode()
    assert page.status_code == 200
    for number, measures in enumerate(expected(NIGHT, nine), 1):
        shown = block(html, f"figures-{number}")
        for words in said(measures, ja=language == "ja"):
            assert words in shown, (number, words, shown)
    third = block(html, "figures-3")
    most = "最多同卓 3回" if language == "ja" else "Most together 3"
    assert f'<strong class="figure bad">⚠ {most}</strong>' in third  # marked, not colour alone
    assert "⚠" not in block(html, "figures-1")
    assert "<details" in html and 'id="figures-help"' in html  # explained, on a tap
    # The season: both nights' rounds together (no best known across nights).
    season = draw_measures.measure([t for t, _o in ids(NIGHT + LATER, nine)], starts={len(NIGHT)})
    shown = block(html, "season-figures")
    for words in said(season, ja=language == "ja", season=True):
        assert words in shown
    # Only seat 1 is kept fair across nights: the season's other seats are not counted.
    assert season.seat_off > season.first_seat_off
    assert f"{season.seat_off}人" not in shown and f"balance {season.seat_off}" not in shown
    assert "best known" not in shown and "既知" not in shown
    # Seat 1 off balance over the season: marked, and said to be made up by the draws (a
    # secretary saw a red warning before any draw and did not know what to do).
    note = "対応は不要です。" if language == "ja" else "Nothing to do: each round drawn gives"
    assert season.first_seat_off >= 1 and note in shown
    # Pairs meet again night after night: a season's most met is no warning.
    most = (
        f"最多同卓 {season.most_met}回" if language == "ja" else f"Most together {season.most_met}"
    )
    assert season.most_met >= 3 and f"⚠ {most}" not in shown and f">{most}<" in shown
    assert f'href="/nights/{seated.pk}/pairs/"' in html


def test_best_known_is_said_while_the_attendance_and_tables_stay(seated, nine, director):
    """Nine players at two tables of 4: after round 1 the counting floor (0); none known
    once a second round of that shape is played (no design for it is claimed)."""
    html = director.get(f"/nights/{seated.pk}/rounds/").content.decode()
    best = draw_measures.best_known(9, [4, 4], 1)
    assert f"(best known {best})" in block(html, "figures-1")
    assert draw_measures.best_known(9, [4, 4], 2) is None
    assert "best known" not in block(html, "figures-2")


def test_the_proposal_shows_the_night_with_the_round_as_drawn(seated, nine, director):
    url = f"/nights/{seated.pk}/rounds/"
    form = {"game": "napoleon", "method": "balanced", "deals": "1", "players": nine[:8]}
    answer = director.post(url, {**form, "action": "propose"}, follow=True)
    assert answer.status_code == 200
    proposal = answer.context["proposal"]
    stored = [t for t, _o in ids(NIGHT, nine)]
    measures = draw_measures.measure([*stored, proposal.seating.tables])
    shown = block(answer.content.decode(), "proposal-figures")
    for words in said(measures):
        assert words in shown
    assert Round.objects.filter(club_night=seated).count() == 3  # a proposal writes nothing


def test_the_table_size_defaults_to_the_nights_and_refuses_nonsense(seated, nine, director):
    ClubNight.objects.filter(pk=seated.pk).update(table_size=4)
    url = f"/nights/{seated.pk}/rounds/"
    html = director.get(url).content.decode()
    assert re.search(r'name="size"[^>]*value="4"', html, re.S)
    form = {"game": "napoleon", "method": "balanced", "deals": "1", "players": nine}
    # The draw refuses a size the game lacks, in the reader's language, naming the sizes.
    napoleon = ", ".join(map(str, sorted(engine.GAMES["napoleon"].player_counts)))
    for size, words in [
        ("1", f"tables of this size: Napoleon takes {napoleon} players a table"),
        ("9", f"この人数の卓は作れません：ナポレオン は 1 卓 {napoleon} 人です"),
    ]:
        director.cookies["django_language"] = "ja" if size == "9" else "en"
        refused = director.post(url, {**form, "size": size, "action": "propose"})
        assert refused.status_code == 400 and words in refused.content.decode()
    assert Round.objects.filter(club_night=seated).count() == 3


def test_the_pair_matrix_counts_each_pair_tonight_and_this_season(seated, nine, director):
    url = f"/nights/{seated.pk}/pairs/"
    for query, plan in [("", NIGHT), ("?season=1", NIGHT + LATER)]:
        answer = director.get(url + query)
        assert answer.status_code == 200
        rows = answer.context["rows"]
        order = [row["player"].pk for row in rows]
        assert sorted(order) == sorted(nine)  # tonight's players, in reading order
        met = draw_measures.meetings([t for t, _o in ids(plan, nine)])
        for row in rows:
            for q, n in zip(order, row["cells"], strict=True):
                if q == row["player"].pk:
                    assert n is None
                else:
                    assert n == met.get(frozenset((row["player"].pk, q)), 0)
        html = answer.content.decode()
        assert html.count('class="num met-many met-bad"') == 2 * sum(
            1 for m in met.values() if m >= 3
        )
        assert html.count('class="num met-many"') == 2 * sum(1 for m in met.values() if m == 2)
    p0 = nine[0]
    tonight = director.get(url).context["rows"]
    row0 = next(r for r in tonight if r["player"].pk == p0)
    index1 = [r["player"].pk for r in tonight].index(nine[1])
    assert row0["cells"][index1] == 3  # with player 1 in all three rounds
    season = director.get(url + "?season=1").context["rows"]
    row0 = next(r for r in season if r["player"].pk == p0)
    assert row0["cells"][index1] == 3  # not together on the later night


def test_the_pair_matrix_is_the_secretarys_alone(seated, club, django_user_model):
    url = f"/nights/{seated.pk}/pairs/"
    assert Client().get(url).status_code == 302  # anonymous: sign in
    member = Client()
    member.force_login(member_of(club, django_user_model, "member", Membership.Role.MEMBER))
    assert member.get(url).status_code == 403
    rival = Club.objects.create(name="Rival", slug="rival")
    other = Client()
    other.force_login(member_of(rival, django_user_model, "rivaladmin", Membership.Role.ADMIN))
    assert other.get(url).status_code == 404
    assert other.get(url + "?season=1").status_code == 404


def test_the_api_gives_each_rounds_measures_and_the_nights_and_seasons(seated, nine, admin):
    api = client_of(admin)
    listed = api.get(f"/api/club-nights/{seated.pk}/rounds/").json()
    for answer, measures in zip(listed, expected(NIGHT, nine), strict=True):
        assert {k: answer["measures"][k] for k in measures.as_json()} == measures.as_json()
        assert "best_known" in answer["measures"]
    assert listed[0]["measures"]["best_known"] == draw_measures.best_known(9, [4, 4], 1)
    assert listed[2]["measures"]["best_known"] is None
    found = api.get(f"/api/club-nights/{seated.pk}/measures/").json()
    night = draw_measures.measure([t for t, _o in ids(NIGHT, nine)]).as_json()
    season = draw_measures.measure(
        [t for t, _o in ids(NIGHT + LATER, nine)], starts={len(NIGHT)}
    ).as_json()
    assert found["night_measures"] == {**night, "best_known": None}
    assert found["season_measures"] == {**season, "best_known": None}
    assert [r["number"] for r in found["rounds"]] == [1, 2, 3]
    assert found["rounds"][2]["measures"] == listed[2]["measures"]
    body = {"game": "napoleon", "players": nine, "method": "balanced", "deals": 1, "size": 4}
    made = api.post(f"/api/club-nights/{seated.pk}/rounds/", body, format="json").json()
    tables = [t["players"] for t in made["tables"]]
    fourth = draw_measures.measure([*(t for t, _o in ids(NIGHT, nine)), tables]).as_json()
    assert {k: made["measures"][k] for k in fourth} == fourth
    schema = api.get("/api/schema/").content.decode()
    assert "every table seats this many" in schema and "best_known" in schema


def test_the_api_measures_are_the_clubs(seated, club, django_user_model):
    url = f"/api/club-nights/{seated.pk}/measures/"
    assert Client().get(url).status_code == 404  # a private season: no such night
    rival = Club.objects.create(name="Rival", slug="rival")
    outsider = member_of(rival, django_user_model, "rivaladmin", Membership.Role.ADMIN)
    assert client_of(outsider).get(url).status_code == 404


def test_the_room_display_shows_the_rounds_figures(seated, nine, director):
    data = room_answer.live(seated, admin=True)
    third = expected(NIGHT, nine)[2]
    assert {k: data["round"]["fairness"][k] for k in third.as_json()} == third.as_json()
    assert data["round"]["fairness"]["parts"][0] == {"text": "⚠ Most together 3", "bad": True}
    tag = room_answer.etag(seated, admin=True)
    assert room_answer.etag(seated, admin=True) == tag  # nothing seated: the same ETag
    html = director.get(f"/nights/{seated.pk}/live/").content.decode()
    assert "⚠ Most together 3" in squeezed(html)
    director.cookies["django_language"] = "ja"
    assert "⚠ 最多同卓 3回" in squeezed(director.get(f"/nights/{seated.pk}/live/").content.decode())


def test_a_seated_round_moves_the_room_displays_etag(season, nine, admin):
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28), venue="Hall")
    seat_night(night, ids(NIGHT[:1], nine), admin)
    before = room_answer.etag(night, admin=True)
    assert room_answer.live(night, admin=True)["round"]["fairness"]["most_met"] == 1
    tables, out = ids(NIGHT[1:2], nine)[0]
    rounds.seat(night, rounds.Proposal(2, "napoleon", "balanced", 1, Seating(tables, out)), admin)
    assert room_answer.etag(night, admin=True) != before
    assert room_answer.live(night, admin=True)["round"]["fairness"]["most_met"] == 2


@pytest.mark.parametrize(
    ("language", "size", "planned", "words"),
    [
        ("en", "0", "", "A table seats 2 to 8 players"),
        ("en", "1000", "", "A table seats 2 to 8 players"),
        ("ja", "9", "", "1 卓は 2〜8 人です"),
        ("en", "", "0", "A night plays 1 to 20 rounds"),
        ("ja", "", "21", "1 夜のラウンドは 1〜20 です"),
        ("en", "four", "", "A table seats 2 to 8 players"),
    ],
)
def test_the_night_form_refuses_a_table_size_or_rounds_out_of_bounds(
    season, director, language, size, planned, words
):
    director.cookies["django_language"] = language
    form = {"date": "2026-12-12", "deals_per_match": "8", "table_size": size}
    answer = director.post(f"/seasons/{season.pk}/nights/new/", {**form, "rounds_planned": planned})
    assert answer.status_code == 200 and words in answer.content.decode()
    assert not ClubNight.objects.filter(season=season).exists()


def test_the_night_form_keeps_the_table_size_and_the_rounds(season, director):
    page = director.get(f"/seasons/{season.pk}/nights/new/").content.decode()
    assert 'name="table_size"' in page and 'name="rounds_planned"' in page
    director.cookies["django_language"] = "ja"
    assert (
        "4 人卓の大会の日など" in director.get(f"/seasons/{season.pk}/nights/new/").content.decode()
    )
    form = {"date": "2026-12-12", "deals_per_match": "8", "table_size": "4", "rounds_planned": "5"}
    assert director.post(f"/seasons/{season.pk}/nights/new/", form).status_code == 302
    night = ClubNight.objects.get(season=season)
    assert (night.table_size, night.rounds_planned) == (4, 5)
    empty = {"date": "2026-12-13", "deals_per_match": "8", "table_size": "", "rounds_planned": ""}
    assert director.post(f"/seasons/{season.pk}/nights/new/", empty).status_code == 302
    assert ClubNight.objects.get(date=dt.date(2026, 12, 13)).table_size is None


def test_the_api_night_takes_a_table_size_within_bounds(season, admin):
    api = client_of(admin)
    body = {"season": season.pk, "date": "2026-12-12", "table_size": 9, "rounds_planned": 5}
    refused = api.post("/api/club-nights/", body, format="json")
    assert refused.status_code == 400
    assert [e["path"] for e in refused.json()["errors"]] == ["table_size"]
    assert not ClubNight.objects.exists()
    made = api.post("/api/club-nights/", {**body, "table_size": 4}, format="json")
    assert made.status_code == 201
    assert (made.json()["table_size"], made.json()["rounds_planned"]) == (4, 5)


def test_repeats_above_the_best_known_design_are_marked(season, nine, admin, director):
    """Nine at three tables of 3: a design seats four rounds with nobody meeting twice,
    so two rounds with repeats are marked against its 0."""
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28), venue="Hall")
    same = ([[0, 1, 2], [3, 4, 5], [6, 7, 8]], [])
    seat_night(night, ids([same, same], nine), admin)
    assert draw_measures.best_known(9, [3, 3, 3], 2) == 0
    shown = block(director.get(f"/nights/{night.pk}/rounds/").content.decode(), "figures-2")
    assert '<strong class="figure bad">⚠ Repeats 9 (best known 0)</strong>' in shown
    assert "In a row 9" in shown
    listed = client_of(admin).get(f"/api/club-nights/{night.pk}/rounds/").json()
    assert listed[1]["measures"]["best_known"] == 0 and listed[1]["measures"]["excess"] == 9
