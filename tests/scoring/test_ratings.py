"""Skill ratings (issue 7): ties, the declarer model, and rebuilds equal to the updates."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core.management import call_command
from django.test import Client
from openskill.models import PlackettLuce

import actions.deals
import engine
from actions import corrections
from engine import skill
from engine.deal import play_match
from scoring.models import Rating, RatingHistory
from scoring.ratings import MU, library
from tests import worlds
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.games import league_game
from tournaments.games.declarer import ALL_TAKEN_MULTIPLIER, stake
from tournaments.models import ClubNight, Table
from tournaments.progress import rating_event

SEATS = [(h, i) for i, h in enumerate(NAPOLEON_SEATS, start=1)]  # handle, player id


def event(game, record, scores):
    """The stored event of a deal with these scores (by player id 1-4)."""
    details = engine.check(record).details if record else {}
    by_handle = {h: scores[i] for h, i in SEATS}
    return rating_event(game, record, details, SEATS, by_handle)


def rate(ev, state):
    """Rate one stored event into ``state`` as the replay does (the model the settings
    choose)."""
    update = library() or skill.rate_into
    update(state, ev["teams"], ev["ranks"], ev["weights"], ev["stake"])


def mus(ev, state):
    rate(ev, state)
    return {pid: mu for pid, (mu, _sigma, _n) in state.items()}


def comp13(captured):
    hands = dict.fromkeys(NAPOLEON_SEATS, [])
    return {"captured": {**hands, **captured}, "hand_faces": hands}


def test_the_library_rates_equal_ranks_alike():
    """Checked before relying on it: OpenSkill gives tied players of equal prior equal updates."""
    model = PlackettLuce()
    a, b, c, d = ([model.rating()] for _ in range(4))
    after = model.rate([a, b, c, d], ranks=[1, 2, 2, 3])
    assert after[1][0].mu == after[2][0].mu and after[1][0].sigma == after[2][0].sigma
    assert after[0][0].mu > after[1][0].mu > after[3][0].mu


def real_events():
    """The events of matches of every rated game played by the engine, in each kind the
    federation generator plays (seats, rules, partnerships, targets)."""
    events = []
    rng = random.Random(26)
    for game in sorted(engine.GAMES):
        if not engine.GAMES[game].rated:
            continue
        for planned in league_game(game).federation:
            seats = [(f"p{i}", i) for i in range(1, planned.players + 1)]
            for _ in range(3):
                deals = play_match(
                    engine.GAMES[game],
                    rng,
                    [h for h, _ in seats],
                    planned.rules,
                    planned.target,
                    8 if planned.target is None else None,
                )
                for record in map(engine.summarize, deals):
                    outcome = engine.check(record)
                    assert outcome.valid, outcome.errors
                    ev = rating_event(game, record, outcome.details, seats, outcome.scores)
                    events.append((game, ev))
    return events


def test_the_projects_update_equals_the_librarys_on_real_events_of_every_game(settings):
    """Every game's events (teams, ties, the declarer's weights, stakes), chained as a
    season rates them: the engine's update and ``RATING_MODEL=openskill`` agree."""
    events = real_events()
    assert {game for game, _ev in events} == {g for g in engine.GAMES if engine.GAMES[g].rated}
    states = {}
    for model in ("clubscore", "openskill"):
        settings.RATING_MODEL = model
        state: dict[int, tuple[float, float, int]] = {}
        for _game, ev in events:
            rate(ev, state)
        states[model] = state
    ours, theirs = states["clubscore"], states["openskill"]
    assert ours.keys() == theirs.keys() and len(ours) >= 6
    for pid, (mu, sigma, n) in theirs.items():
        assert abs(ours[pid][0] - mu) < 1e-9 and abs(ours[pid][1] - sigma) < 1e-9
        assert ours[pid][2] == n


def test_players_with_equal_deal_scores_are_rated_as_tied():
    ev = event("comp13", {}, {1: 6, 2: 6, 3: -6, 4: -6})
    assert ev["ranks"][0] == ev["ranks"][1] and ev["ranks"][2] == ev["ranks"][3]
    rated = mus(ev, {})
    assert rated[1] == rated[2] > MU > rated[3] == rated[4]


def test_the_declarer_gains_most_and_a_bigger_stake_moves_further():
    deal = {**napoleon_deal(), "game": "napoleon", "players": NAPOLEON_SEATS}
    won = mus(event("napoleon", deal, {1: 40, 2: -20, 3: 20, 4: -20}), {})
    gain = {pid: mu - MU for pid, mu in won.items()}
    assert gain[1] > gain[3] > 0 > gain[2] and gain[2] == gain[4]  # aki declarer, chika adjutant

    bigger = {
        **deal,
        "declaration": {"player": "aki", "count": 20, "trump": "hearts"},
        "point_cards": {"aki": 13, "ben": 0, "chika": 7, "dai": 0},
    }
    ev = event("napoleon", bigger, {1: 100, 2: -50, 3: 50, 4: -50})
    assert ev["stake"] > event("napoleon", deal, {1: 40, 2: -20, 3: 20, 4: -20})["stake"]
    assert mus(ev, {})[1] - MU > gain[1]
    assert [stake(m) for m in (1, 2, ALL_TAKEN_MULTIPLIER, 16)] == [1, 2, 3, 5]


def test_partners_share_their_sides_result():
    ev = event("packing", {}, {1: 120, 2: -120, 3: 120, 4: -120})
    assert ev["teams"] == [[1, 3], [2, 4]]
    rated = mus(ev, {})
    assert rated[1] == rated[3] > rated[2] == rated[4]


def ratings():
    return (
        sorted(
            Rating.objects.values_list("player__handle", "game", "mu", "sigma", "rating", "deals")
        ),
        sorted(
            RatingHistory.objects.values_list(
                "player__handle", "game", "club_night_id", "mu", "sigma", "deals"
            )
        ),
    )


@pytest.mark.django_db
def test_ratings_follow_the_deals_and_a_rebuild_gives_the_same_numbers(
    make_match, table, scorer, django_capture_on_commit_callbacks
):
    later = ClubNight.objects.create(
        season=table.club_night.season, date=dt.date(2026, 11, 21), venue="Hall"
    )
    first = make_match("napoleon", NAPOLEON_SEATS)
    second = make_match(
        "napoleon", NAPOLEON_SEATS, at=Table.objects.create(club_night=later, name="T")
    )
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(first, napoleon_deal(), user=scorer).stored()
        actions.deals.enter_deal(
            second, napoleon_deal(declarer="ben", adjutant="dai"), user=scorer
        ).stored()
        # Entered last, played first: the later night is replayed after it.
        late = actions.deals.enter_deal(
            first,
            napoleon_deal(
                declarer="dai",
                adjutant=None,
                count=14,
                points={"aki": 0, "ben": 4, "chika": 2, "dai": 14},
            ),
            user=scorer,
        ).stored()
    incremental = ratings()
    # One row per night, in the order of the nights, not of the entries.
    nights = [(row[2], row[5]) for row in incremental[1] if row[0] == "aki"]
    assert nights == [(first.table.club_night_id, 2), (later.pk, 3)]
    assert {row[0]: row[5] for row in incremental[0]}["aki"] == 3

    call_command("rebuild_standings")
    assert ratings() == incremental

    with django_capture_on_commit_callbacks(execute=True):
        corrections.delete_deal(late, scorer, "never played")
    after_delete = ratings()
    assert {row[0]: row[5] for row in after_delete[0]}["aki"] == 2
    call_command("rebuild_standings")
    assert ratings() == after_delete


@pytest.mark.django_db
def test_leaderboards_sort_by_rating_or_points_and_players_see_their_rating(
    make_match, season, scorer, member, member_api, django_capture_on_commit_callbacks
):
    match = make_match("comp13", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        # ben wins big once; aki wins twice by little: points put ben first, rating aki.
        actions.deals.enter_deal(
            match, comp13({"ben": ["SK", "HK", "DK", "CK"]}), user=scorer
        ).stored()
        for _ in range(2):
            actions.deals.enter_deal(match, comp13({"aki": ["SJ"]}), user=scorer).stored()
    by_points = member_api.get(f"/api/standings/?season={season.pk}").json()["results"]
    by_rating = member_api.get(f"/api/standings/?season={season.pk}&order=rating").json()["results"]
    assert by_points[0]["handle"] == "ben" and by_rating[0]["handle"] == "aki"
    assert by_rating[0]["rating"] > by_rating[1]["rating"]
    assert member_api.get(f"/api/standings/?season={season.pk}&order=luck").status_code == 400

    page = Client()
    page.force_login(member)
    html = page.get(f"/seasons/{season.pk}/?sort=rating").content.decode()
    assert html.index(">Aki<") < html.index(">Ben<")
    html = page.get(f"/seasons/{season.pk}/").content.decode()
    assert html.index(">Ben<") < html.index(">Aki<")
    aki = Rating.objects.get(player__handle="aki", game="comp13")
    player_page = page.get(f"/players/{aki.player_id}/").content.decode()
    assert "3 deals rated" in player_page and player_page.count("<svg") == 2


@pytest.mark.django_db
def test_deals_stored_without_their_rated_event_get_it_at_the_next_replay():
    """A bulk import, or rows older than the column, leave deals without an event: the
    replay makes each from its record and scores, and rates as if it had been there."""
    from scoring.ratings import rebuild_club_ratings
    from scoring.rebuild import rebuild_all
    from tests.scoring.derived import derived
    from tournaments.models import Club, Deal

    worlds.federation(1, 10, 300, 4)
    rebuild_all()
    before = derived(Rating, RatingHistory)
    kept = dict(Deal.objects.values_list("pk", "event"))
    emptied = sorted(kept)[::7]
    Deal.objects.filter(pk__in=emptied).update(event=None)
    Rating.objects.all().delete()
    RatingHistory.objects.all().delete()
    assert rebuild_club_ratings(Club.objects.get().pk, every=True) > 0
    assert dict(Deal.objects.filter(pk__in=emptied).values_list("pk", "event")) == {
        pk: kept[pk] for pk in emptied
    }
    assert derived(Rating, RatingHistory) == before


def test_a_match_without_its_events_stops_the_replay_once_every_row_is_read():
    """The replay stops at a match with a deal stored without its event, but only after
    the rest of the rows are read: a stream left early is cancelled by the server, which
    would fail the transaction the missing events are then written in."""
    from scoring import rating_events

    night = dt.date(2026, 1, 8)
    rows = iter([("napoleon", night, "[]"), ("napoleon", night, None), ("rettler", night, "[]")])
    replayed = []
    with pytest.raises(rating_events.Unfilled):
        for row in rating_events.with_events(rows):
            replayed.append(row)
    assert replayed == [("napoleon", night, "[]")]
    assert next(rows, None) is None  # read to the end


@pytest.mark.django_db
def test_the_replays_read_of_the_deals_needs_only_their_covering_index():
    """Every column of the deals the events statement reads is in the index made for it
    (``deal_events_by_match``: its keys, its INCLUDE columns and its predicate's), so
    PostgreSQL can read them without the table's rows (their records): a column added to
    the statement and not to the index fails here.  Read from the index's definition and
    the statement's text, not from a plan, which the statistics of the moment decide."""
    import re

    from django.db import connection

    from scoring import rating_events

    statement = rating_events.STATEMENT
    start = statement.index("(SELECT d.event")
    deals = statement[start : statement.index("ORDER BY d.number)", start)] + "d.number"
    read = set(re.findall(r"\bd\.(\w+)", deals))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexdef FROM pg_indexes"
            " WHERE tablename = 'tournaments_deal' AND indexname = 'deal_events_by_match'"
        )
        (definition,) = cursor.fetchone()
    covered = set(re.findall(r"\b([a-z_]+)\b", definition.split(" USING btree ", 1)[1]))
    assert read == {"event", "match_id", "deleted_at", "confirmed_at", "number"}
    assert read <= covered, definition


@pytest.mark.django_db
def test_the_replays_read_counts_the_deals_the_standings_count_in_rating_order():
    """PostgreSQL reads the events with SQL of its own (a match's deals by its index, their
    events in one array): the same deals as ``counting_deals`` (deleted ones out;
    unconfirmed ones out only where the season asks for confirmation), in ``DEAL_ORDER``,
    from a night on, public seasons alone; a match with a deal stored without its event
    has no text."""
    import orjson
    from django.db.models import TextField
    from django.db.models.functions import Cast
    from django.utils import timezone

    from scoring import rating_events
    from scoring.rebuild import rebuild_all
    from tournaments.models import Club, Deal, Season

    worlds.federation(2, 12, 400, 6)
    rebuild_all()  # every deal with its event
    clubs = list(Club.objects.values_list("pk", flat=True))
    strict, lenient = Season.objects.order_by("pk")[:2]
    Season.objects.filter(pk=strict.pk).update(require_confirmation=True, public=False)
    Season.objects.filter(pk=lenient.pk).update(require_confirmation=False, public=True)
    deals = list(Deal.objects.order_by("pk").values_list("pk", flat=True))
    Deal.objects.filter(pk__in=deals[::5]).update(deleted_at=timezone.now())
    Deal.objects.filter(pk__in=deals[1::3]).update(confirmed_at=None)
    Deal.objects.filter(pk__in=deals[2::3]).update(confirmed_at=timezone.now())
    games = sorted(g for g, rules in engine.GAMES.items() if rules.rated)  # Comrade: no event
    nights = sorted(ClubNight.objects.values_list("date", "pk"))  # (date, id): rating order

    def by_match(since, public_only):
        """The ORM's counting deals, in rating order, a match's events in a list."""
        rows = (
            rating_events.counting(clubs, games, since, public_only)
            .order_by("match__game", *rating_events.DEAL_ORDER)
            .values_list(
                "match__game",
                "match__table__club_night_id",
                "match_id",
                Cast("event", TextField()),
            )
        )
        matches: list[tuple] = []
        for game, night, match, text in rows:
            if not matches or matches[-1][:3] != (game, night, match):
                matches.append((game, night, match, []))
            matches[-1][3].append(orjson.loads(text))
        return [(game, night, events) for game, night, _match, events in matches]

    sizes = set()
    for since in (None, nights[len(nights) // 2]):
        for public_only in (False, True):
            expected = by_match(since, public_only)
            with rating_events.read(clubs, games, since, public_only) as streamed:
                postgresql = list(streamed)
            for read in (  # PostgreSQL's statement, and what other databases do
                postgresql,
                rating_events.grouped_here(clubs, games, since, public_only),
            ):
                assert [(g, n, orjson.loads(text)) for g, n, text in read] == expected
            sizes.add(sum(len(events) for _g, _n, events in expected))
    assert len(sizes) == 4 and max(sizes) < len(deals)  # each choice reads other deals
    counted = rating_events.counting(clubs, games, None, False).order_by("pk")
    Deal.objects.filter(pk=counted.first().pk).update(event=None)
    with rating_events.read(clubs, games, None, False) as streamed:
        postgresql = list(streamed)
    for read in (postgresql, rating_events.grouped_here(clubs, games, None, False)):
        assert [text for _g, _n, text in read].count(None) == 1
