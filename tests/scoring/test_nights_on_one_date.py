"""A night is its own key (issue 56): two club nights on one date (a last round and the
final, an afternoon and an evening) are two nights in a season's lines (nights, qualifying,
best N), its plot and the ratings, on PostgreSQL's statements and on the portable twins;
every figure equals a count made here from the deals' scores alone, and a rebuild changes
nothing.  The migration that made nights the key carries what was kept."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Count, Sum
from django.utils import translation

import actions.deals
import actions.matches
from dbtools import backend
from scoring.charts import line_chart
from scoring.models import (
    Fingerprint,
    MatchStanding,
    Rating,
    RatingHistory,
    SeasonStanding,
)
from scoring.rebuild import rebuild_all
from scoring.sheets import night_points, player_charts
from tests.markup import words
from tests.scoring.derived import derived
from tournaments.models import (
    Club,
    ClubNight,
    DealScore,
    Player,
    Season,
    Table,
    counting_deals,
)
from tournaments.names import night_label

SAME_DAY = dt.date(2026, 11, 28)


def deal(seats, declarer, adjutant, count, points):
    """A 4-player Napoleon summary at ``seats`` (the point cards in seat order, 20 in all)."""
    return {
        "declaration": {"player": seats[declarer], "count": count, "trump": "hearts"},
        "adjutant_cards": ["SA"],
        "adjutants": [seats[adjutant]] if adjutant is not None else [],
        "point_cards": dict(zip(seats, points, strict=True)),
    }


DEALS = [  # (declarer, adjutant, count, point cards): won, lost, won alone
    (0, 2, 15, [9, 3, 7, 1]),
    (1, 3, 16, [2, 5, 8, 5]),
    (3, None, 14, [4, 2, 0, 14]),
]


def play(night, name, handles, players, scorer, deals):
    table = Table.objects.create(club_night=night, name=name, scorer=scorer)
    match = actions.matches.create_match(table, "napoleon", [players[h] for h in handles])
    for n in deals:
        actions.deals.enter_deal(match, deal(handles, *DEALS[n]), user=scorer).stored()
    return match


@pytest.fixture
def league(db, scorer, club, django_capture_on_commit_callbacks):
    """A season ranked by its best 2 club nights, qualified from 2 nights: a night on the
    14th, one on the 21st (made last), and two on the 28th (the last round, then the final,
    made in that order); chika and dai played only the two nights of the 28th, gin and hana
    one night."""
    season = Season.objects.create(
        club=club,
        name="Autumn",
        games=["napoleon"],
        ranking="best_nights",
        best_of=2,
        qualify_by="nights",
        qualify_minimum=2,
    )
    handles = "aki ben chika dai eri fumi gin hana".split()
    players = {
        h: Player.objects.create(club=club, handle=h, display_name=h.title()) for h in handles
    }
    first = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 14), venue="Hall")
    last_round = ClubNight.objects.create(season=season, date=SAME_DAY, venue="Hall")
    final = ClubNight.objects.create(season=season, date=SAME_DAY, venue="Hall", final=True)
    middle = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 21), venue="Hall")
    with django_capture_on_commit_callbacks(execute=True):
        # Entered out of order: the final first, the 14th last.
        play(final, "Final", ["aki", "ben", "chika", "dai"], players, scorer, [1, 0])
        play(last_round, "Table 1", ["dai", "chika", "ben", "aki"], players, scorer, [0, 2])
        play(middle, "Table 1", ["eri", "fumi", "gin", "hana"], players, scorer, [2, 1, 0])
        play(first, "Table 1", ["aki", "ben", "eri", "fumi"], players, scorer, [1, 2])
    return season, players, [first, middle, last_round, final]


def from_the_deals(season):
    """Per player: their points of each club night (keyed by the night), counted here from
    the counting deals' scores alone."""
    rows = (
        DealScore.objects.filter(
            counting_deals("deal__"), deal__match__table__club_night__season=season
        )
        .values("player_id", "deal__match__table__club_night")
        .annotate(points=Sum("score"), deals=Count("pk"))
    )
    points: dict[int, dict[int, int]] = defaultdict(dict)
    deals: dict[int, dict[int, int]] = defaultdict(dict)
    for r in rows:
        points[r["player_id"]][r["deal__match__table__club_night"]] = r["points"]
        deals[r["player_id"]][r["deal__match__table__club_night"]] = r["deals"]
    return points, deals


def test_two_nights_on_one_date_are_two_nights_in_every_figure(league):
    season, players, nights = league
    ordered = [n.pk for n in nights]  # by date, then by id: the 21st was made last
    assert ordered == [n.pk for n in sorted(nights, key=lambda n: (n.date, n.pk))]
    points, deals = from_the_deals(season)
    both = {players["chika"].pk, players["dai"].pk}
    assert all(set(points[p]) == {nights[2].pk, nights[3].pk} for p in both)

    # The season's lines: nights, qualified, best 2.
    expected = {}
    for player, of_nights in points.items():
        best = sorted(of_nights.values(), reverse=True)[:2]
        expected[player] = (len(of_nights), len(of_nights) >= 2, Decimal(sum(best)))
    lines = {
        p: (n, q, s)
        for p, n, q, s in SeasonStanding.objects.filter(season=season).values_list(
            "player_id", "nights", "qualified", "score"
        )
    }
    assert lines == expected
    assert {p: lines[p][:2] for p in both} == {p: (2, True) for p in both}
    assert not lines[players["gin"].pk][1] and lines[players["aki"].pk][0] == 3

    # The plot: a point per player and night, the nights in order, the totals running.
    plot = night_points([season.pk], {"napoleon": points})
    for player, of_nights in points.items():
        running, want = 0, []
        for night in ordered:
            if night in of_nights:
                running += of_nights[night]
                want.append((ordered.index(night) + 1, running, night))
        drawn = plot[(season.pk, "napoleon", player)]
        assert [(x, y, night.pk) for x, y, night in drawn] == want
    chart = player_charts(Player.objects.get(pk=players["chika"].pk), [season])[
        (season.pk, "napoleon")
    ]
    assert [(x, night.pk) for x, night in chart.nights] == [(3, ordered[2]), (4, ordered[3])]
    # Drawn: the date written once, under the first of its nights; each night its tick,
    # told apart by its whole label.
    drawn = line_chart(chart)
    assert re.findall(r">(\d\d-\d\d)</text>", drawn) == [f"{SAME_DAY:%m-%d}"]
    assert drawn.count('stroke="#999"/>') == 2  # a tick a night
    labels = re.findall(r"<title>([^<]*)</title>", drawn)
    assert {"2026-11-28 Hall", "2026-11-28 Final · Hall"} <= set(labels), labels

    # The rating history: a row per player and night they played, its deals rated so far
    # in the nights' order; the last row of each player is their rating now.
    history = defaultdict(list)
    rows = RatingHistory.objects.filter(scope="club").order_by(
        "player", "club_night__date", "club_night_id"
    )
    for p, night, n, mu in rows.values_list("player_id", "club_night_id", "deals", "mu"):
        history[p].append((night, n, mu))
    for player, of_nights in deals.items():
        rated, want = 0, []
        for night in ordered:
            if night in of_nights:
                rated += of_nights[night]
                want.append((night, rated))
        assert [(night, n) for night, n, _mu in history[player]] == want
        now = Rating.objects.get(player=player, game="napoleon", scope="club")
        assert (now.deals, now.mu) == (rated, history[player][-1][2])

    # A rebuild from nothing, and on the portable twins, changes nothing.
    before = derived()
    call_command("rebuild_standings")
    assert derived() == before
    for model in (SeasonStanding, Rating, RatingHistory, Fingerprint):
        model.objects.all().delete()
    rebuild_all()
    assert derived() == before
    with backend.using("portable"):
        for model in (SeasonStanding, Rating, RatingHistory, Fingerprint):
            model.objects.all().delete()
        rebuild_all()
    assert derived() == before


def test_a_night_is_named_by_date_name_and_venue(league):
    season, _players, nights = league
    first, _middle, last_round, final = nights
    assert night_label(first) == "2026-11-14 Hall"
    assert night_label(final) == "2026-11-28 Final · Hall"
    with translation.override("ja"):
        assert night_label(final) == "2026-11-28 決勝 · Hall"
    last_round.name = "Afternoon"
    assert night_label(last_round) == "2026-11-28 Afternoon · Hall"
    final.name, final.venue = "Grand final", ""
    assert night_label(final) == "2026-11-28 Grand final"


def test_a_correction_on_one_of_two_nights_of_a_date_keeps_them_apart(
    league, scorer, django_capture_on_commit_callbacks
):
    """A deal taken out of the final replays the ratings from the final on, starting from
    the last round of the same date: the same numbers as a replay from nothing."""
    from actions import corrections

    season, _players, nights = league
    match = nights[3].tables.get().matches.get()
    with django_capture_on_commit_callbacks(execute=True):
        corrections.delete_deal(match.deals.latest("number"), scorer, "entered twice")
    after = derived()
    for model in (SeasonStanding, Rating, RatingHistory, Fingerprint):
        model.objects.all().delete()
    rebuild_all()
    assert derived() == after


def migrate(target=None):
    """To ``target``, or (``None``) forward to every app's latest migration."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target or executor.loader.graph.leaf_nodes())


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_migration_carries_what_was_kept(club, scorer, django_capture_on_commit_callbacks):
    """Rows as the lines keyed by date kept them, migrated: the match lines get their
    nights; a club with one night a date keeps its rating history as it was; one with two
    nights on one date loses it and its fingerprints, and the next rebuild makes
    everything as it would have been (the plot's points, stored then, are dropped by
    ``scoring`` 0015)."""
    other = Club.objects.create(name="Other Club", slug="other")
    for at, day in ((club, SAME_DAY), (other, dt.date(2026, 12, 5))):
        season = Season.objects.create(club=at, name="S", games=["napoleon"])
        players = {h: Player.objects.create(club=at, handle=h, display_name=h) for h in "abcd"}
        one = ClubNight.objects.create(season=season, date=day)
        later = SAME_DAY if at == club else day + dt.timedelta(days=7)
        two = ClubNight.objects.create(season=season, date=later)
        with django_capture_on_commit_callbacks(execute=True):
            play(one, "T", list("abcd"), players, scorer, [0, 1])
            play(two, "T", list("dcba"), players, scorer, [2])
    rebuild_all()
    before = derived()
    dates = dict(ClubNight.objects.values_list("pk", "date"))
    history = {
        (p, g, sc, dates[n]): (mu, sigma, r, d)
        for p, g, sc, n, mu, sigma, r, d in RatingHistory.objects.values_list(
            "player_id", "game", "scope", "club_night_id", "mu", "sigma", "rating", "deals"
        )
    }
    fingerprints = list(Fingerprint.objects.values_list("kind", "of", "value"))
    kept_club = other.pk
    try:
        migrate([("scoring", "0013_season_files")])
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM scoring_matchstanding WHERE night IS NULL")
            assert cursor.fetchone() == (0,)
            cursor.executemany(
                "INSERT INTO scoring_ratinghistory (player_id, game, scope, night, mu, sigma,"
                " rating, deals) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                [(*key, *value) for key, value in history.items()],
            )
            cursor.executemany(
                "INSERT INTO scoring_fingerprint (kind, of, value) VALUES (%s, %s, %s)",
                fingerprints,
            )
    finally:
        migrate()
    assert derived(MatchStanding)[0] == before[0]
    kept_players = set(Player.objects.filter(club=other).values_list("pk", flat=True))
    assert derived(RatingHistory)[0] == [row for row in before[3] if row[0] in kept_players]
    assert set(Fingerprint.objects.values_list("kind", "of")) == {
        (kind, of) for kind, of, _v in fingerprints
    } - {("season", Season.objects.get(club=club).pk), ("ratings", club.pk)}
    assert kept_club in set(Fingerprint.objects.filter(kind="ratings").values_list("of", flat=True))
    rebuild_all()
    assert derived() == before


def test_a_night_is_named_on_the_page_and_in_the_api_and_lists_tell_them_apart(league, club_admin):
    from django.test import Client

    from tests.conftest import client_of

    season, _players, _nights = league
    page = Client()
    page.force_login(club_admin)
    response = page.post(
        f"/seasons/{season.pk}/nights/new/",
        {"date": "2026-12-05", "name": "Afternoon", "venue": "Hall"},
        follow=True,
    )
    assert ClubNight.objects.get(season=season, name="Afternoon").date == dt.date(2026, 12, 5)
    assert "2026-12-05 Afternoon · Hall" in words(response.content.decode())
    api = client_of(club_admin)
    made = api.post(
        "/api/club-nights/",
        {"season": season.pk, "date": "2026-12-05", "name": "Evening", "venue": "Hall"},
        format="json",
    )
    assert made.status_code == 201 and made.json()["name"] == "Evening"
    too_long = {"season": season.pk, "date": "2026-12-05", "name": "x" * 41}
    with translation.override("ja"):
        refused = api.post("/api/club-nights/", too_long, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert refused.status_code == 400
    assert [(e["path"], e["code"]) for e in refused.json()["errors"]] == [("name", "max_length")]
    assert "40" in refused.json()["errors"][0]["message"]  # in Japanese
    refused = page.post(f"/seasons/{season.pk}/nights/new/", too_long)
    assert refused.status_code == 200
    assert ClubNight.objects.filter(season=season, date=dt.date(2026, 12, 5)).count() == 2
    shown = words(page.get(f"/seasons/{season.pk}/").content.decode())
    for label in (
        "2026-11-28 Hall",
        "2026-11-28 Final · Hall",
        "2026-12-05 Afternoon · Hall",
        "2026-12-05 Evening · Hall",
    ):
        assert label in shown, label
