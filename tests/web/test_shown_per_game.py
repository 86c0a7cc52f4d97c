"""What is shown says each game in its own terms (issue 56, 5): a round's progress is the
game's own goal (Packing's points to 500, Comp-13's deals of 12); "my night" says which
of the player's deals wait for confirmation and what they will count; the night's
standings and head to head are per game (different games' points never add up), table
ranks alone comparing games; the player page's rank names its board (the season or the
division).  Every figure is checked against a count made here from the deal scores."""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
from collections import defaultdict

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

import actions.deals
import engine
from actions import rounds
from actions import table_links as link_actions
from engine.deal import check_deal, play_match
from scoring import head_to_head as h2h
from scoring import live as room_answer
from scoring import night as night_data
from scoring.finals import ordinal
from scoring.rebuild import rebuild_all
from tests.conftest import member_of, play
from tests.markup import squeezed
from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealScore,
    Division,
    Match,
    Membership,
    Placement,
    Player,
    Season,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_of_eight(django_user_model):
    club = Club.objects.create(name="Eights", slug="eights")
    season = Season.objects.create(
        club=club, name="Autumn", games=["napoleon", "comp13", "packing"], public=True
    )
    people = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"Player {i}")
        for i in range(8)
    ]
    admin = member_of(club, django_user_model, "secretary", Membership.Role.ADMIN)
    reader = Client()
    reader.force_login(admin)
    return season, people, reader


def night_of(season: Season, days_ago: int) -> ClubNight:
    """A night of the season; tonight's (0) tables' links work, a past night's are withdrawn."""
    date = timezone.localdate() - dt.timedelta(days=days_ago)
    return ClubNight.objects.create(season=season, date=date, venue="Hall")


def some_deals(match: Match, how_many: int, seed: int) -> None:
    """The first ``how_many`` deals of a legal random match, entered anonymously."""
    handles = [p.handle for p in match.seated_players()]
    game = league_game(match.game)
    records = demo_deals(
        game, seed, handles, match.rules, match.target, most=how_many, first_in_full=False
    )
    for record in records[:how_many]:
        actions.deals.enter_deal(match, record).stored()


def totals(matches) -> dict[int, int]:
    """Each player's deal scores summed over ``matches`` (not deleted deals)."""
    out: dict[int, int] = defaultdict(int)
    for player, score in DealScore.objects.filter(
        deal__match__in=matches, deal__deleted_at__isnull=True
    ).values_list("player_id", "score"):
        out[player] += score
    return dict(out)


def japanese(client: Client) -> Client:
    client.cookies["django_language"] = "ja"
    return client


def test_a_packing_round_shows_its_points_to_500_and_comp13_its_deals_of_12(club_of_eight):
    season, people, reader = club_of_eight
    packing_night = night_of(season, 3)
    packing = rounds.draw_next_round(
        packing_night, game="packing", method="balanced", players=[p.pk for p in people], seed=2
    ).round
    matches = list(Match.objects.filter(table__round=packing).order_by("table__name"))
    assert len(matches) == 2 and all(m.target == 500 for m in matches)
    for i, match in enumerate(matches):
        some_deals(match, 1 + i, seed=10 + i)
        match.refresh_from_db()
        assert match.status == Match.Status.OPEN
    page = squeezed(reader.get(f"/nights/{packing_night.pk}/rounds/").content.decode())
    live = squeezed(reader.get(f"/nights/{packing_night.pk}/live/").content.decode())
    for match in matches:
        leader = max(totals([match]).values())  # partners hold their side's points
        entered = Deal.objects.filter(match=match, deleted_at__isnull=True).count()
        assert leader > 0 and entered == 1 + matches.index(match)
        deals = "1 deal" if entered == 1 else f"{entered} deals"
        assert f"points to 500: leader {leader} · {deals}" in page
        assert f"points to 500: leader {leader}" in live
        match_page = squeezed(reader.get(f"/matches/{match.pk}/").content.decode())
        assert f"points to 500: leader {leader}" in match_page
    assert "deals entered" not in page and "/ 500" not in page
    ja = squeezed(japanese(reader).get(f"/nights/{packing_night.pk}/rounds/").content.decode())
    leader = max(totals([matches[0]]).values())
    assert f"500 点先取：トップ {leader} 点" in ja

    comp_night = night_of(season, 0)
    comp13 = rounds.draw_next_round(
        comp_night, game="comp13", method="balanced", players=[p.pk for p in people], seed=3
    ).round
    comp_matches = list(Match.objects.filter(table__round=comp13).order_by("table__name"))
    for i, match in enumerate(comp_matches):
        some_deals(match, 3 + i, seed=20 + i)
    reader.cookies["django_language"] = "en"
    page = squeezed(reader.get(f"/nights/{comp_night.pk}/rounds/").content.decode())
    ja = squeezed(japanese(reader).get(f"/nights/{comp_night.pk}/rounds/").content.decode())
    for match in comp_matches:
        entered = Deal.objects.filter(match=match, deleted_at__isnull=True).count()
        assert f"{entered} of 12 deals" in page and f"12 ディール中 {entered}" in ja
    # The table's own page (its phone) says it too.
    phone = Client()
    token = link_actions.ensure(comp_matches[0].table)
    assert phone.get(f"/t/{token}/").status_code == 302
    entered = Deal.objects.filter(match=comp_matches[0], deleted_at__isnull=True).count()
    table_page = squeezed(phone.get(f"/tables/{comp_matches[0].table_id}/").content.decode())
    assert f"{entered} of 12 deals" in table_page


def test_my_night_says_which_deals_wait_and_what_they_will_count(club_of_eight, django_user_model):
    season, people, reader = club_of_eight
    season.require_confirmation = True
    season.save()
    night = night_of(season, 0)
    round_ = rounds.draw_next_round(
        night, game="comp13", method="balanced", players=[p.pk for p in people], seed=5
    ).round
    match = Match.objects.filter(table__round=round_).order_by("table__name").first()
    some_deals(match, 1, seed=7)  # anonymous: it waits for a second person
    waiting = Deal.objects.get(match=match)
    assert waiting.confirmed_at is None
    scores = dict(DealScore.objects.filter(deal=waiting).values_list("player_id", "score"))
    me = min(scores, key=scores.__getitem__)  # the one who lost most in it
    assert scores[me] < 0
    cache.clear()
    shown = squeezed(reader.get(f"/nights/{night.pk}/me/", {"player": me}).content.decode())
    assert (
        "1 deal of yours waits for confirmation: your rank and points count it once it is "
        "confirmed." in shown
    )
    table = match.table.name
    assert f"{table} · Comp-13 · deal 1:<strong>{scores[me]:+d}</strong>when confirmed" in shown
    # The standings count confirmed deals alone: none of tonight's counts yet.
    assert "Tonight: no deal counts yet." in shown and "Tonight: rank" not in shown
    # The secretary may score every table: the link to confirm it is hers…
    assert f"/deals/{waiting.pk}/pin/" in shown
    # …a member who scores no table reads the same, with no link…
    member = Client()
    member.force_login(member_of(season.club, django_user_model, "member", Membership.Role.MEMBER))
    as_member = squeezed(member.get(f"/nights/{night.pk}/me/", {"player": me}).content.decode())
    assert f"deal 1:<strong>{scores[me]:+d}</strong>when confirmed" in as_member
    assert f"/deals/{waiting.pk}/pin/" not in as_member
    # …the table's phone gets one, back to this page afterwards.
    phone = Client()
    token = link_actions.ensure(match.table)
    assert phone.get(f"/t/{token}/").status_code == 302
    on_phone = phone.get(f"/nights/{night.pk}/me/", {"player": me}).content.decode()
    assert f"/deals/{waiting.pk}/pin/?next=%2Fnights%2F{night.pk}%2Fme%2F%3Fplayer%3D{me}" in (
        on_phone
    )
    ja = squeezed(japanese(reader).get(f"/nights/{night.pk}/me/", {"player": me}).content.decode())
    assert (
        "あなたのディール 1 件が確認待ちです。" in ja
        and f"{scores[me]:+d}</strong>（確認後）" in ja
    )
    # Someone with no deal waiting is told nothing of it.
    unseated = next(p.pk for p in people if p.pk not in scores)
    other = squeezed(reader.get(f"/nights/{night.pk}/me/", {"player": unseated}).content.decode())
    assert "waits for confirmation" not in other


@pytest.fixture
def two_game_night(club_of_eight):
    """A night of a Napoleon round then a Comp-13 round, every deal played."""
    season, people, reader = club_of_eight
    night = night_of(season, 1)
    first = rounds.draw_next_round(
        night, game="napoleon", method="balanced", deals=2, players=[p.pk for p in people], seed=1
    ).round
    play(first, seed=3)
    second = rounds.draw_next_round(
        night, game="comp13", method="balanced", players=[p.pk for p in people], seed=4
    ).round
    play(second, seed=5)
    rebuild_all()
    return night, people, reader


def test_a_two_game_nights_standings_are_one_table_per_game(two_game_night):
    night, people, reader = two_game_night
    method, boards = night_data.boards(night)
    assert method == "points" and [b.game for b in boards] == ["napoleon", "comp13"]
    page = squeezed(reader.get(f"/nights/{night.pk}/").content.decode())
    assert page.count('<table class="board night-board">') == 2
    # By raw points the total is the points: one column, not two saying the same.
    head = '<th>Player</th><th class="num">Total</th><th class="num">Matches</th>'
    assert page.count(head) == 2
    for board in boards:
        counted = totals(Match.objects.filter(table__club_night=night, game=board.game))
        assert {line.player: line.total for line in board.lines} == counted
        assert {line.player: line.points for line in board.lines} == counted
        order = sorted(counted.values(), reverse=True)
        assert [line.rank for line in board.lines] == [
            1 + sum(1 for t in order if t > line.total) for line in board.lines
        ]
        assert f'<h3 id="night-board-{board.game}">{league_game(board.game).name_en}</h3>' in page
    # The export: a Game column, each game's lines with that game's points alone.
    answer = reader.get(f"/nights/{night.pk}/standings.csv")
    body = answer.streaming_content if answer.streaming else [answer.content]
    rows = list(csv.reader(io.StringIO(b"".join(body).decode("utf-8-sig"))))
    header = next(i for i, row in enumerate(rows) if row[:2] == ["Game", "Rank"])
    exported = defaultdict(dict)
    for row in rows[header + 1 :]:
        if len(row) >= 5 and row[0]:
            exported[row[0]][row[2]] = int(row[3])
    for board in boards:
        counted = totals(Match.objects.filter(table__club_night=night, game=board.game))
        names = {p.pk: p.display_name for p in people}
        assert exported[league_game(board.game).name_en] == {
            names[p]: t for p, t in counted.items()
        }
    # The API and the room display say the same boards.
    api = night_data.standings_json(night)
    assert [b["game"] for b in api["boards"]] == ["napoleon", "comp13"]
    live = room_answer.live(night, False)["standings"]["boards"]
    assert [len(b["rows"]) for b in live] == [8, 8]
    # Table ranks compare tables of every game: one board, with no mixed points column.
    night.standings = ClubNight.Standings.RANKS
    night.save()
    method, boards = night_data.boards(night)
    assert len(boards) == 1 and boards[0].mixed
    # Level on places, level on the board: no unseen sum of two games' points parts them.
    places = [line.total for line in boards[0].lines]
    assert [line.rank for line in boards[0].lines] == [
        1 + sum(t > line.total for t in places) for line in boards[0].lines
    ]
    assert len(set(places)) < len(places)  # this night has such a tie
    page = squeezed(reader.get(f"/nights/{night.pk}/").content.decode())
    assert page.count('<table class="board night-board">') == 1
    board = page[page.index('id="night-standings"') : page.index("</table>")]
    assert '<th>Player</th><th class="num">Total</th><th class="num">Matches</th>' in board


def test_table_ranks_of_one_game_show_the_raw_points_beside_them(club_of_eight):
    season, people, reader = club_of_eight
    night = night_of(season, 1)
    night.standings = ClubNight.Standings.RANKS
    night.save()
    first = rounds.draw_next_round(
        night, game="napoleon", method="balanced", deals=2, players=[p.pk for p in people], seed=1
    ).round
    play(first, seed=3)
    rebuild_all()
    page = squeezed(reader.get(f"/nights/{night.pk}/").content.decode())
    head = '<th class="num">Total</th><th class="num">Points</th><th class="num">Matches</th>'
    assert head in page
    (board,) = night_data.boards(night)[1]
    raw = totals(Match.objects.filter(table__club_night=night))
    assert {line.player: line.points for line in board.lines} == raw
    assert {line.player: line.total for line in board.lines} != raw  # places, not points


def test_head_to_head_across_two_games_is_a_line_per_game(two_game_night):
    night, people, reader = two_game_night
    seated: dict[tuple[int, str], set[int]] = defaultdict(set)
    for match in Match.objects.filter(table__club_night=night):
        for p in match.seated_players():
            seated[(p.pk, match.game)].add(match.pk)
    pair = next(
        (a, b)
        for a in people
        for b in people
        if a.pk < b.pk
        and all(seated[(a.pk, g)] & seated[(b.pk, g)] for g in ("napoleon", "comp13"))
    )
    a, b = pair
    records = h2h.against(a, b, [night.season])
    in_all = {r.game: r for r in records if r.season is None}
    assert set(in_all) == {"napoleon", "comp13"}
    shown = squeezed(reader.get(f"/players/{a.pk}/head-to-head/?with={b.pk}").content.decode())
    for game, record in in_all.items():
        shared = Match.objects.filter(pk__in=seated[(a.pk, game)] & seated[(b.pk, game)])
        counted = totals(shared)
        assert record.matches == shared.count()
        assert record.points == counted[a.pk] - counted[b.pk]
        name = league_game(game).name_en
        assert f'<th>In all</th><th>{name}</th><td class="num">{record.matches}</td>' in shown
    listing = h2h.opponents(a, [night.season])
    assert {r.game for r in listing if r.opponent == b} == {"napoleon", "comp13"}
    assert sum(r.matches for r in in_all.values()) == h2h.together(records).matches


def test_the_player_pages_rank_names_its_board(two_game_night):
    night, people, reader = two_game_night
    season = night.season
    napoleon = totals(Match.objects.filter(table__club_night=night, game="napoleon"))
    me = people[3]

    def rank_among(group) -> int:
        return 1 + sum(1 for p in group if napoleon[p.pk] > napoleon[me.pk])

    page = squeezed(reader.get(f"/players/{me.pk}/").content.decode())
    said = f"{ordinal(rank_among(people))} in the season"
    assert f'<strong class="board-rank">{said}</strong>' in page
    # Two divisions: the rank among the division's players, and the division named.
    top = Division.objects.create(season=season, name="A", order=0)
    low = Division.objects.create(season=season, name="B", order=1)
    for i, p in enumerate(people):
        Placement.objects.create(season=season, player=p, division=top if i % 2 else low)
    division = [p for i, p in enumerate(people) if (i % 2) == (people.index(me) % 2)]
    name = "A" if people.index(me) % 2 else "B"
    rank = rank_among(division)
    page = squeezed(reader.get(f"/players/{me.pk}/").content.decode())
    assert f'<strong class="board-rank">{ordinal(rank)} in Division {name}</strong>' in page
    ja = squeezed(japanese(reader).get(f"/players/{me.pk}/").content.decode())
    assert f'<strong class="board-rank">ディビジョン {name} {rank}位</strong>' in ja


@pytest.mark.parametrize(
    ("game", "players", "goal"),
    [("twentytwo", 4, "eliminations"), ("comrade", 4, "deals"), ("packing", 2, "points")],
)
def test_each_engine_counts_its_own_goal(game, players, goal):
    """The engine's progress of a whole random match against what its records say."""
    rules = engine.GAMES[game]
    handles = [f"p{i}" for i in range(players)]
    target = rules.default_target
    deals = play_match(rules, random.Random(3), handles, target=target)
    record = {"game": game, "players": handles, "deals": deals}
    if target is not None:
        record["target"] = target
    result = engine.check_match(record)
    done, of = rules.progress(result.snapshot, handles, target)
    assert rules.goal == goal
    if goal == "eliminations":  # everyone but the survivor is out
        assert (done, of) == (players - 1, players - 1)
    elif goal == "deals":  # Comrade: one game a player
        assert (done, of) == (len(deals), players) and len(deals) == players
    else:  # the winner's points, at least the target
        totals = defaultdict(int)
        for deal in deals:
            for handle, score in check_deal(rules, deal).scores.items():
                totals[handle] += score
        assert (done, of) == (max(totals.values()), 500) and done >= 500


def test_twenty_twos_progress_says_who_is_out_in_words():
    from django.utils import translation

    from tournaments.games import league_game

    web = league_game("twentytwo")
    with translation.override("en"):
        assert web.progress_text(1, 3) == "1 of 3 players out"
    with translation.override("ja"):
        assert web.progress_text(1, 3) == "脱落 1 人（3 人まで）"
