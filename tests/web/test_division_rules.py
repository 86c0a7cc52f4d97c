"""Divisions in a few taps (issue 56, 4): a rule fills every player's division on the
divisions page for review (nothing stored), Save stores it once; each rule's split equals
a count made here by hand; refusals and another club's administrator store nothing; a
round of two divisions of 7 seats everyone at 4 + 3 and the proposal and the API name each
table's division."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

import actions.divisions
from scoring.models import Rating, Scope
from tests.conftest import member_of
from tests.scoring.test_divisions import standings_of
from tournaments.models import Club, ClubNight, Division, Membership, Placement, Player, Season

pytestmark = pytest.mark.django_db

MOVES = {"moves": "2", "moves_by": "count"}


@pytest.fixture
def club14(django_user_model):
    """Kanda: fourteen players, a Winter season closed into Spring (Napoleon first)."""
    club = Club.objects.create(name="Kanda", slug="kanda")
    spring = Season.objects.create(club=club, name="Spring", games=["napoleon", "comp13"])
    winter = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    Season.objects.filter(pk=winter.pk).update(next_season=spring)
    people = [
        Player.objects.create(club=club, handle=f"p{i:02d}", display_name=f"Player {i:02d}")
        for i in range(14)
    ]
    admin = member_of(club, django_user_model, "secretary", Membership.Role.ADMIN)
    return club, winter, spring, people, admin


def page_of(user, language: str = "en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def selected(html: str) -> dict[int, str]:
    """Each player's division as the page's selects show it (``""``: none)."""
    out = {}
    for pk, body in re.findall(r'<select id="id_player-(\d+)"[^>]*>(.*?)</select>', html, re.S):
        chosen = re.search(r'<option value="([^"]*)"\s+selected', body)
        out[int(pk)] = chosen.group(1) if chosen else ""
    return out


def by_index(people, places: dict[int, str]) -> dict[str, set[int]]:
    """Division → the indexes of its players."""
    index = {p.pk: i for i, p in enumerate(people)}
    out: dict[str, set[int]] = {}
    for pk, name in places.items():
        if name:
            out.setdefault(name, set()).add(index[pk])
    return out


def rule(client, season, name: str, places: dict[int, str] | None = None, names: str = "A B"):
    body = {"names": names, "rule": name, **MOVES}
    body |= {f"player-{pk}": d for pk, d in (places or {}).items()}
    return client.post(f"/seasons/{season.pk}/divisions/", body)


def spring_standings(spring, people) -> None:
    """Spring so far: ten players ranked (Player 09 first, Player 03 not yet qualified),
    Players 10 and 11 rated only, Players 12 and 13 with nothing."""
    standings_of(spring, {people[i]: (10 - i, i != 3) for i in range(10)})
    for i, rating in ((10, 30.0), (11, 20.0), (0, 99.0)):  # a standing outranks a rating
        Rating.objects.create(
            player=people[i],
            game="napoleon",
            scope=Scope.CLUB,
            mu=25,
            sigma=1,
            rating=rating,
            deals=10,
        )


def test_everyone_in_one_division_is_shown_then_saved_once(club14):
    _club, _winter, spring, people, admin = club14
    client = page_of(admin)
    answer = rule(client, spring, "everyone:B")
    html = answer.content.decode()
    assert answer.status_code == 200
    assert set(selected(html).values()) == {"B"} and len(selected(html)) == 14
    assert "Everyone in one division: A 0 · B 14." in html
    assert not Division.objects.filter(season=spring).exists()  # a rule stores nothing
    assert not Placement.objects.exists()
    save = {"names": "A B", "drawn": "A B", **MOVES}
    save |= {f"player-{pk}": d for pk, d in selected(html).items()}
    for _ in range(2):  # Save tapped twice: stored once
        assert client.post(f"/seasons/{spring.pk}/divisions/", save).status_code == 302
    assert Placement.objects.filter(season=spring, division__name="B").count() == 14
    assert Division.objects.filter(season=spring).count() == 2


def test_by_this_seasons_standings_then_rating_then_the_bottom(club14):
    _club, _winter, spring, people, admin = club14
    spring_standings(spring, people)
    html = rule(page_of(admin), spring, "standings").content.decode()
    # By hand: qualified by rank 9 8 7 6 5 4 2 1 0, then 3 (not qualified), then the rated
    # 10 and 11, then 12 and 13: seven and seven.
    assert by_index(people, selected(html)) == {
        "A": {9, 8, 7, 6, 5, 4, 2},
        "B": {1, 0, 3, 10, 11, 12, 13},
    }
    assert "No standing yet, placed by their rating: Player 10, Player 11." in html
    assert "No standing or rating, so placed in B: Player 12, Player 13." in html
    ja = rule(page_of(admin, "ja"), spring, "standings").content.decode()
    assert "順位も" in ja and "Player 12" in ja


def test_by_last_seasons_final_standings_division_by_division(club14):
    _club, winter, spring, people, admin = club14
    # Winter: Gold had Players 00-05, Silver 06-13; its leaderboard ranked 13 first, 00 last.
    actions.divisions.set_divisions(
        winter,
        ["Gold", "Silver"],
        {p.pk: "Gold" if i < 6 else "Silver" for i, p in enumerate(people)},
    )
    standings_of(winter, {p: (14 - i, True) for i, p in enumerate(people)})
    html = rule(page_of(admin), spring, "last_season").content.decode()
    # By hand: Gold by rank 5 4 3 2 1 0, then Silver 13 12 … 6: the first seven to A.
    assert by_index(people, selected(html)) == {
        "A": {5, 4, 3, 2, 1, 0, 13},
        "B": {12, 11, 10, 9, 8, 7, 6},
    }
    assert "By the final Napoleon standings of Winter" in html


def test_by_rating_and_seven_over_two_gives_the_top_the_extra(club14):
    _club, _winter, spring, people, admin = club14
    for i in range(12):
        Rating.objects.create(
            player=people[i],
            game="napoleon",
            scope=Scope.CLUB,
            mu=25,
            sigma=1,
            rating=1.5 * i,
            deals=5,
        )
    Rating.objects.create(  # the public scope is another list: not read by the page
        player=people[13],
        game="napoleon",
        scope=Scope.PUBLIC,
        mu=25,
        sigma=1,
        rating=99,
        deals=5,
    )
    client = page_of(admin)
    html = rule(client, spring, "rating").content.decode()
    assert by_index(people, selected(html)) == {
        "A": {11, 10, 9, 8, 7, 6, 5},
        "B": {4, 3, 2, 1, 0, 12, 13},
    }
    # Only the players in a division on the form are sorted: seven of them, 4 + 3.
    seven = {p.pk: "B" for p in people[:7]}
    html = rule(client, spring, "rating", seven).content.decode()
    assert by_index(people, selected(html)) == {"A": {6, 5, 4, 3}, "B": {2, 1, 0}}
    assert "By rating in Napoleon: A 4 · B 3." in html


def test_alternately_deals_a_snake_by_the_standings(club14):
    _club, _winter, spring, people, admin = club14
    spring_standings(spring, people)
    html = rule(page_of(admin), spring, "alternate").content.decode()
    order = [9, 8, 7, 6, 5, 4, 2, 1, 0, 3, 10, 11, 12, 13]
    snake = "ABBAABBAABBAAB"  # by hand
    wanted: dict[str, set[int]] = {"A": set(), "B": set()}
    for i, name in zip(order, snake, strict=True):
        wanted[name].add(i)
    assert by_index(people, selected(html)) == wanted


def test_three_divisions_share_fourteen_five_five_four(club14):
    _club, _winter, spring, people, admin = club14
    spring_standings(spring, people)
    html = rule(page_of(admin), spring, "standings", names="A B C").content.decode()
    counts = {d: len(ps) for d, ps in by_index(people, selected(html)).items()}
    assert counts == {"A": 5, "B": 5, "C": 4}


def test_refused_rules_and_strangers_store_nothing(club14, django_user_model):
    club, winter, spring, people, admin = club14
    actions.divisions.set_divisions(winter, ["Gold", "Silver"], {people[0].pk: "Gold"})
    actions.divisions.set_divisions(spring, ["A", "B"], {people[1].pk: "A"})
    before = sorted(Placement.objects.values_list("season", "player", "division__name"))
    client = page_of(admin)
    tries = {
        "everyone:Gold": "no division Gold in this season",  # a division of another season
        "drop_tables": "choose one of the rules",
        "comeback:A": "choose one of the rules",
    }
    for name, said in tries.items():
        answer = rule(client, spring, name)
        assert answer.status_code == 400 and said in answer.content.decode()
    assert (
        "the club has no season before this one"
        in rule(client, winter, "last_season", names="Gold Silver").content.decode()
    )
    assert (
        "name the divisions first" in rule(client, spring, "standings", names="").content.decode()
    )
    comrade = Season.objects.create(club=club, name="Co-op", games=["comrade"])
    assert "no game of this season is rated" in rule(client, comrade, "rating").content.decode()
    # Another club's administrator, and a member of this club: no page of this season.
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    stranger = member_of(other, django_user_model, "stranger", Membership.Role.ADMIN)
    member = member_of(club, django_user_model, "reader", Membership.Role.MEMBER)
    for user in (stranger, member):
        answer = rule(page_of(user), spring, "everyone:A")
        assert answer.status_code in (403, 404)
        save = {"names": "A B", **MOVES, **{f"player-{p.pk}": "B" for p in people}}
        assert page_of(user).post(f"/seasons/{spring.pk}/divisions/", save).status_code in (
            403,
            404,
        )
    assert sorted(Placement.objects.values_list("season", "player", "division__name")) == before
    assert list(spring.divisions.values_list("name", flat=True)) == ["A", "B"]


def test_a_saved_rule_keeps_its_divisions_when_their_names_are_swapped(club14):
    """A rule fills the selects with the divisions as typed; Save reads them so, even when
    the stored divisions had the same names the other way round."""
    _club, _winter, spring, people, admin = club14
    actions.divisions.set_divisions(spring, ["A", "B"], {})
    client = page_of(admin)
    html = rule(client, spring, "everyone:A", names="B A").content.decode()
    save = {"names": "B A", **MOVES}
    save |= dict(re.findall(r'name="(drawn)" value="([^"]*)"', html))
    save |= {f"player-{pk}": d for pk, d in selected(html).items()}
    assert save["drawn"] == "B A"
    assert client.post(f"/seasons/{spring.pk}/divisions/", save).status_code == 302
    assert set(Placement.objects.values_list("division__name", flat=True)) == {"A"}
    assert list(spring.divisions.values_list("name", flat=True)) == ["B", "A"]


def test_two_divisions_of_seven_play_four_and_three_and_the_proposal_names_them(
    club14, django_user_model
):
    _club, _winter, spring, people, admin = club14
    actions.divisions.set_divisions(
        spring, ["A", "B"], {p.pk: "A" if i < 7 else "B" for i, p in enumerate(people)}
    )
    night = ClubNight.objects.create(season=spring, date=dt.date(2026, 11, 28))
    url = f"/nights/{night.pk}/rounds/"
    form = {"game": "napoleon", "method": "balanced", "deals": "2", "action": "propose"}
    form["players"] = [p.pk for p in people]
    for language, word in (("en", "Division"), ("ja", "ディビジョン")):
        html = page_of(admin, language).post(url, form, follow=True).content.decode()
        heads = re.findall(
            r'<section class="card table-card" id="table-\d+">\s*<h2>(.*?)</h2>', html, re.S
        )
        marks = [re.search(r'class="division-mark">([^<]*)<', h).group(1) for h in heads]
        assert marks == [f"{word} A", f"{word} A", f"{word} B", f"{word} B"]
        seats = [
            len(re.findall(r'name="player" value="\d+"', t))
            for t in re.split(r'id="table-\d+"', html)[1:]
        ]
        assert sorted(seats[:2]) == [3, 4] and sorted(seats[2:]) == [3, 4]
        assert 'id="sitting-out"' not in html  # nobody sits out
    # The API seats the round and names each table's division.
    from tests.conftest import client_of

    made = client_of(admin).post(
        f"/api/club-nights/{night.pk}/rounds/",
        {"game": "napoleon", "method": "balanced", "deals": 2, "players": form["players"]},
        format="json",
    )
    assert made.status_code == 201, made.content
    tables = made.json()["tables"]
    assert sorted((t["divisions"], len(t["players"])) for t in tables) == [
        (["A"], 3),
        (["A"], 4),
        (["B"], 3),
        (["B"], 4),
    ]
    assert made.json()["sat_out"] == []
    read = client_of(admin).get(f"/api/club-nights/{night.pk}/rounds/").json()
    assert [t["divisions"] for t in read[0]["tables"]] == [t["divisions"] for t in tables]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_rule_with_nothing_to_rank_by_says_so_and_moves_nobody(club14, language):
    """A fresh season (no leaderboard, no rating) asked to split by its standings or by
    rating: every player would land in the bottom division, so the page says why and
    proposes nothing; alternately still splits them 7 and 7."""
    _club, _winter, spring, people, admin = club14
    client = page_of(admin, language)
    said = {
        "en": ("nobody has a place on the leaderboard of Spring", "nobody has a rating yet"),
        "ja": ("Spring の順位表に載っている人も", "レーティングのある人がまだいません"),
    }[language]
    for name, words in (("standings", said[0]), ("rating", said[1])):
        answer = rule(client, spring, name)
        assert answer.status_code == 400 and words in answer.content.decode(), name
        assert set(selected(answer.content.decode()).values()) == {""}
    split = by_index(people, selected(rule(client, spring, "alternate").content.decode()))
    assert sorted(len(v) for v in split.values()) == [7, 7]
    assert not Placement.objects.filter(season=spring).exists()
