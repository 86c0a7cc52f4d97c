"""A final that seats the leaders (issue 56, 2).

A season ranked by total points with a qualifying minimum of two club nights plays one
night: nobody has qualified.  The players' names sort (五十音) the other way round from
their points, so a final seated by the night's order or by name would put the last
first.  The final night's final table seats the top by points (counted here from the
deals), each division's final its own division's leaders; the proposal names the final
table and each seat's rank and figure, in English and Japanese; a final that nobody at
its table has qualified for is asked first, on the page and by the API, and a refusal
stores nothing.  Once some players qualify they come first whatever their points, then
the others by points, then a player with no line at all."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict

import pytest
from django.test import Client
from django.utils import translation

import actions.divisions
from actions import rounds
from scoring.finals import draw_order, ordinal
from scoring.models import SeasonStanding
from scoring.rebuild import rebuild_all
from tests.conftest import client_of, member_of, play
from tests.markup import squeezed
from tournaments import divisions
from tournaments.models import Club, ClubNight, Deal, Membership, Player, Round, Season

pytestmark = pytest.mark.django_db

KANA = "あいうえおかきくけこさしすせそ"
"""Names in 五十音 order: the lowest by points gets the first."""


def direct_totals(season: Season) -> dict[int, int]:
    """Each player's points of the season, counted from the deals."""
    out: dict[int, int] = defaultdict(int)
    for deal in Deal.objects.filter(
        match__table__club_night__season=season, deleted_at__isnull=True
    ).prefetch_related("scores"):
        for line in deal.scores.all():
            out[line.player_id] += line.score
    return dict(out)


def a_season(slug: str, players: int, division_names: str = "") -> tuple[Season, list[Player]]:
    """One night played by everyone (nobody qualified: the minimum is two nights), the
    players renamed so that their names sort against their points."""
    club = Club.objects.create(name=slug.title(), slug=slug)
    season = Season.objects.create(
        club=club,
        name="Autumn",
        games=["napoleon"],
        ranking="total",
        qualify_by="nights",
        qualify_minimum=2,
    )
    people = [
        Player.objects.create(club=club, handle=f"p{i:02d}", display_name=f"P{i:02d}")
        for i in range(players)
    ]
    if division_names:
        names = division_names.split()
        half = players // len(names)
        actions.divisions.set_divisions(
            season, names, {p.pk: names[i // half] for i, p in enumerate(people)}
        )
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 9, 5), venue="Hall")
    made = rounds.draw_next_round(
        night, game="napoleon", method="balanced", deals=6, players=[p.pk for p in people], seed=3
    ).round
    play(made, seed=11)
    rebuild_all()
    totals = direct_totals(season)
    worst_first = sorted(people, key=lambda p: (totals[p.pk], -p.pk))
    for kana, player in zip(KANA, worst_first, strict=False):
        player.display_name = player.reading = kana * 2
        player.save()
    return season, people


def final_night(season: Season) -> ClubNight:
    return ClubNight.objects.create(
        season=season, date=dt.date(2026, 11, 28), venue="Hall", final=True
    )


def top_by_points(totals: dict[int, int], players: list[int], seated: set[int]) -> bool:
    """``seated`` are the leaders by points among ``players`` (a tie at the cut either
    way)."""
    rest = [totals[p] for p in players if p not in seated]
    return not rest or min(totals[p] for p in seated) >= max(rest)


def leaderboard(season: Season) -> list[int]:
    lines = SeasonStanding.objects.filter(season=season, game="napoleon")
    return list(lines.order_by("-qualified", "rank", "player_id").values_list("player", flat=True))


@pytest.fixture
def director(django_user_model):
    def of(club: Club) -> Client:
        page = Client()
        page.force_login(
            member_of(club, django_user_model, f"dir-{club.slug}", Membership.Role.ADMIN)
        )
        return page

    return of


def proposal_seating(html: str) -> dict[str, str]:
    """The confirmation a proposal page posts as drawn: each player at their table."""
    page = squeezed(html)
    posted: dict[str, object] = {
        "tables": re.search(r'name="tables" value="(\d+)"', page).group(1),
        "number": re.search(r'name="number" value="(\d+)"', page).group(1),
        "player": re.findall(r'name="player" value="(\d+)"', page),
    }
    for pid, options in re.findall(r'<select name="table_(\d+)"[^>]*>(.*?)</select>', page):
        posted[f"table_{pid}"] = re.search(r'<option value="(\w+)" selected>', options).group(1)
    return posted


def test_ordinals_in_both_languages():
    expected = "1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 23rd 101st 111th".split()
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == expected
    with translation.override("ja"):
        assert [ordinal(n) for n in (1, 2, 3, 11)] == ["1位", "2位", "3位", "11位"]


def test_nobody_qualified_the_final_seats_the_top_by_points_after_asking(director):
    season, people = a_season("aki", 9)
    ids = [p.pk for p in people]
    totals = direct_totals(season)
    assert not SeasonStanding.objects.filter(season=season, qualified=True).exists()
    by_name = sorted(people, key=lambda p: p.reading)
    by_points = sorted(people, key=lambda p: -totals[p.pk])
    assert by_name[:4] != by_points[:4]  # a final by name would seat the wrong four

    final = final_night(season)
    order = draw_order(final, "napoleon")
    assert order == leaderboard(season)
    assert [totals[p] for p in order] == sorted(totals.values(), reverse=True)

    page = director(season.club)
    url = f"/nights/{final.pk}/rounds/"
    form = {
        "game": "napoleon",
        "method": "final",
        "size": "4",
        "others": "balanced",
        "deals": "2",
        "players": ids,
    }
    proposed = page.post(url, {**form, "action": "propose"}, follow=True)
    assert proposed.status_code == 200
    shown = squeezed(proposed.content.decode())
    assert 'id="unqualified-final"' in shown
    assert "Nobody has reached the qualifying minimum yet at:" in shown
    assert "<li>Table 1 · Final table</li>" in shown
    assert 'Table 1 ·<strong class="final-mark">Final table</strong>' in shown
    assert shown.count('class="final-mark"') == 1  # the other tables are ordinary
    ranks = {line.player_id: line for line in SeasonStanding.objects.filter(season=season)}
    leader = Player.objects.get(pk=order[0])
    second = Player.objects.get(pk=order[1])
    assert (
        f'<span class="name">{second.display_name}<span class="seed muted">'
        f"{ordinal(ranks[second.pk].rank)} · {ranks[second.pk].total} · not qualified</span>"
    ) in shown
    assert "Each seat shows the player's rank on the season's leaderboard" in shown
    assert "(Total points)" in shown

    # Confirmed without ticking "draw the final anyway": refused in words, nothing stored.
    confirm = {**form, **proposal_seating(proposed.content.decode()), "action": "confirm"}
    refused = page.post(url, confirm)
    assert refused.status_code == 400
    said = squeezed(refused.content.decode())
    assert "Tick “Draw the final anyway” to seat this final" in said
    assert 'id="round-proposal"' in said  # the proposal stays on the screen, as changed
    assert not Round.objects.filter(club_night=final).exists()

    # In Japanese, the same page and refusal.
    page.cookies["django_language"] = "ja"
    ja = squeezed(page.post(url, {**form, "action": "propose"}, follow=True).content.decode())
    assert "決勝卓</strong>" in ja and "まだ規定に達した人がいない決勝卓" in ja
    assert f"{ranks[leader.pk].rank}位 · {ranks[leader.pk].total} · 規定未到達" in ja
    assert "このまま決勝を組む" in ja
    refused_ja = squeezed(page.post(url, confirm).content.decode())
    assert "この決勝を組むには「このまま決勝を組む」にチェックを入れてください" in refused_ja
    assert not Round.objects.filter(club_night=final).exists()

    done = page.post(url, {**confirm, "confirm_unqualified": "1"})
    assert done.status_code == 302
    made = Round.objects.get(club_night=final)
    tables = list(made.tables.order_by("name"))
    seated = {p.pk for p in tables[0].matches.get().seated_players()}
    assert seated == set(order[:4])
    assert top_by_points(totals, ids, seated)
    assert seated != {p.pk for p in by_name[:4]}
    again = page.post(url, {**confirm, "confirm_unqualified": "1"})  # a second tap
    assert again.status_code == 400 and Round.objects.filter(club_night=final).count() == 1


def test_the_api_refuses_an_unqualified_final_unless_confirmed(django_user_model):
    season, people = a_season("ben", 8)
    ids = [p.pk for p in people]
    totals = direct_totals(season)
    final = final_night(season)
    api = client_of(member_of(season.club, django_user_model, "boss", Membership.Role.ADMIN))
    url = f"/api/club-nights/{final.pk}/rounds/"
    body = {"game": "napoleon", "method": "final", "size": 4, "deals": 2, "players": ids}
    refused = api.post(url, body, format="json")
    assert refused.status_code == 400
    assert [(e["code"], e["path"]) for e in refused.json()["errors"]] == [
        ("unqualified_final", "confirm_unqualified")
    ]
    assert "qualifying minimum" in refused.json()["errors"][0]["message"]
    ja = api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert ja.status_code == 400 and "規定に達した人がいません" in ja.json()["errors"][0]["message"]
    assert not Round.objects.filter(club_night=final).exists()
    for wrong in ("yes please", [1], {"a": 1}):  # only a boolean confirms
        odd = api.post(url, {**body, "confirm_unqualified": wrong}, format="json")
        assert odd.status_code == 400
    assert not Round.objects.filter(club_night=final).exists()

    made = api.post(url, {**body, "confirm_unqualified": True}, format="json")
    assert made.status_code == 201, made.json()
    answer = made.json()
    finals = [t for t in answer["tables"] if t["final"]]
    assert len(finals) == 1 and finals[0]["final_division"] is None
    seated = set(finals[0]["players"])
    assert seated == set(leaderboard(season)[:4]) and top_by_points(totals, ids, seated)
    lines = {s.player_id: s for s in SeasonStanding.objects.filter(season=season)}
    for seed in finals[0]["seeds"]:
        line = lines[seed["player"]]
        assert (seed["rank"], seed["score"], seed["qualified"]) == (line.rank, line.total, False)
    assert [s["player"] for s in finals[0]["seeds"]] == finals[0]["players"]


def test_with_divisions_each_final_seats_its_own_leaders(django_user_model):
    season, people = a_season("chi", 12, "A B")
    ids = [p.pk for p in people]
    totals = direct_totals(season)
    placed = {p: d.name for p, d in divisions.placed(season).items()}
    final = final_night(season)
    api = client_of(member_of(season.club, django_user_model, "boss", Membership.Role.ADMIN))
    url = f"/api/club-nights/{final.pk}/rounds/"
    body = {
        "game": "napoleon",
        "method": "final",
        "size": 4,
        "others": "sit_out",
        "deals": 2,
        "players": ids,
    }
    refused = api.post(url, body, format="json")
    assert refused.status_code == 400
    assert [e["message"][:12] for e in refused.json()["errors"]] == ["division A: ", "division B: "]
    assert not Round.objects.filter(club_night=final).exists()

    made = api.post(url, {**body, "confirm_unqualified": True}, format="json")
    assert made.status_code == 201, made.json()
    finals = [t for t in made.json()["tables"] if t["final"]]
    assert [t["final_division"] for t in finals] == ["A", "B"]
    for table in finals:
        name = table["final_division"]
        members = [p for p in ids if placed[p] == name]
        seated = set(table["players"])
        assert {placed[p] for p in seated} == {name}
        assert top_by_points(totals, members, seated)
        # Ranks in the division, from 1; the figure is the season's points.
        assert sorted(s["rank"] for s in table["seeds"]) == sorted(
            1 + sum(totals[q] > totals[s["player"]] for q in members) for s in table["seeds"]
        )
        assert {s["score"] for s in table["seeds"]} <= {totals[p] for p in seated}


def test_a_proposal_with_divisions_names_each_division_final(director):
    season, people = a_season("dai", 12, "A B")
    final = final_night(season)
    page = director(season.club)
    form = {
        "game": "napoleon",
        "method": "final",
        "size": "4",
        "others": "sit_out",
        "deals": "2",
        "players": [p.pk for p in people],
        "action": "propose",
    }
    shown = squeezed(page.post(f"/nights/{final.pk}/rounds/", form, follow=True).content.decode())
    assert 'Table 1 ·<strong class="final-mark">Final table of division A</strong>' in shown
    assert 'Table 2 ·<strong class="final-mark">Final table of division B</strong>' in shown
    assert "rank on their division's leaderboard" in shown
    assert shown.count('<span class="seed muted">1st · ') == 2  # each division's leader
    page.cookies["django_language"] = "ja"
    ja = squeezed(page.post(f"/nights/{final.pk}/rounds/", form, follow=True).content.decode())
    assert "ディビジョン A の決勝卓" in ja and "ディビジョン B の決勝卓" in ja


def test_the_qualified_come_first_then_the_others_by_points_then_no_line():
    season, people = a_season("eri", 8)
    first_totals = direct_totals(season)
    # The four lowest by points play a second night: they qualify.
    low = sorted(people, key=lambda p: (first_totals[p.pk], p.pk))[:4]
    second = ClubNight.objects.create(season=season, date=dt.date(2026, 10, 3), venue="Hall")
    play(
        rounds.draw_next_round(
            second, game="napoleon", method="balanced", deals=2, players=[p.pk for p in low]
        ).round,
        seed=5,
    )
    newcomer = Player.objects.create(club=season.club, handle="new", display_name="あああ")
    rebuild_all()
    totals = direct_totals(season)
    lines = {s.player_id: s for s in SeasonStanding.objects.filter(season=season)}
    assert {p for p, line in lines.items() if line.qualified} == {p.pk for p in low}
    final = final_night(season)
    order = draw_order(final, "napoleon")
    assert set(order[:4]) == {p.pk for p in low}
    assert [totals[p] for p in order[:4]] == sorted((totals[p.pk] for p in low), reverse=True)
    rest = [p.pk for p in people if p not in low]
    assert [totals[p] for p in order[4:]] == sorted((totals[p] for p in rest), reverse=True)
    assert newcomer.pk not in order  # no line: a draw seats them after everyone
    drawn = rounds.propose(
        final,
        game="napoleon",
        method="final",
        size=4,
        others="sit_out",
        players=[newcomer.pk, *[p.pk for p in people]],
        order=order,
        seed=1,
    )
    assert set(drawn.seating.tables[0]) == {p.pk for p in low}
    assert drawn.seating.sat_out[-1] == newcomer.pk
