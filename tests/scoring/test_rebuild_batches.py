"""A full rebuild takes clubs in batches (issue 26): a batch's statements cost about what
one club's do.  Clubs rebuilt together end exactly as each rebuilt alone, in every scope,
whatever their seasons' visibility, and a batch skips its unchanged clubs."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Rating, RatingHistory, Scope
from scoring.ratings import rebuild_clubs_ratings
from scoring.rebuild import CLUBS_AT_ONCE, club_batches, rebuild_clubs
from tests import worlds
from tests.scoring.derived import derived, forget, take_out_last_deal, written_rows
from tournaments.models import Club, ClubNight, Match, Season

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

WRITES = ("INSERT", "UPDATE", "DELETE", "WITH", "COPY")


def ratings() -> tuple[list[tuple], list[tuple]]:
    """Every rating and rating history row, its scope included."""
    return (
        sorted(Rating.objects.values_list("player_id", "game", "scope", "mu", "sigma", "deals")),
        sorted(
            RatingHistory.objects.values_list(
                "player_id", "game", "club_night_id", "scope", "mu", "sigma", "deals"
            )
        ),
    )


@pytest.fixture
def three_clubs() -> list[int]:
    """A club whose seasons are all public, one whose seasons are all private, and one with
    both (its later nights in a public season): the three ways a club replays."""
    worlds.federation(3, 30, 900, 8)
    public, private, mixed = Club.objects.order_by("pk").values_list("pk", flat=True)
    Season.objects.filter(club_id=public).update(public=True)
    Season.objects.filter(club_id__in=[private, mixed]).update(public=False)
    first = Season.objects.get(club_id=mixed)
    later = Season.objects.create(club_id=mixed, name="Open", games=first.games, public=True)
    nights = list(ClubNight.objects.filter(season=first).order_by("date"))
    moved = [n.pk for n in nights[len(nights) // 2 :]]
    ClubNight.objects.filter(pk__in=moved).update(season=later)
    return [public, private, mixed]


def test_clubs_rebuilt_together_rate_as_each_rebuilt_alone(three_clubs):
    for club in three_clubs:
        rebuild_clubs_ratings([club], every=True)
    alone = ratings()
    public, private, mixed = three_clubs
    scopes = {(c, s) for c, s in Rating.objects.values_list("player__club_id", "scope")}
    assert scopes == {
        (public, Scope.CLUB),
        (public, Scope.PUBLIC),
        (private, Scope.CLUB),
        (mixed, Scope.CLUB),
        (mixed, Scope.PUBLIC),
    }
    Rating.objects.all().delete()
    RatingHistory.objects.all().delete()
    assert rebuild_clubs_ratings(three_clubs, every=True) > 0
    assert ratings() == alone


def test_a_batch_replays_only_its_clubs_that_changed(three_clubs, django_user_model):
    rebuild_clubs(three_clubs)
    with CaptureQueriesContext(connection) as queries:
        assert rebuild_clubs_ratings(three_clubs) == 0  # nothing changed: nothing replayed
    assert not [q for q in queries.captured_queries if q["sql"].lstrip().startswith(WRITES)]
    admin = django_user_model.objects.create_superuser("op", "op@example.org", "pw-2026-x")
    changed = three_clubs[1]
    rated = Match.objects.filter(table__club_night__season__club_id=changed).exclude(game="comrade")
    take_out_last_deal(rated.order_by("pk").first(), admin)  # its tasks not run: lost, say
    before = written_rows()
    replayed = rebuild_clubs_ratings(three_clubs)
    assert replayed == rebuild_clubs_ratings([changed], every=True)  # that club's deals alone
    after = written_rows()
    others = Rating.objects.exclude(player__club_id=changed).values_list("pk", flat=True)
    assert others and all(before[1][pk] == after[1][pk] for pk in others)
    assert rebuild_clubs_ratings(three_clubs) == 0


def test_clubs_are_batched_by_ten_keeping_eight_batches_for_the_workers():
    assert club_batches(list(range(100))) == [list(range(i, i + 10)) for i in range(0, 100, 10)]
    assert club_batches(list(range(250)))[-1] == list(range(240, 250))
    assert club_batches(list(range(20))) == [[i, i + 1] for i in range(0, 20, 2)]
    assert club_batches(list(range(12))) == [[i] for i in range(12)]  # few: one each
    assert club_batches([]) == []


def test_a_batch_of_clubs_rebuilt_ends_as_each_club_rebuilt_alone():
    worlds.federation(CLUBS_AT_ONCE, 40, 1400, 9)
    clubs = list(Club.objects.order_by("pk").values_list("pk", flat=True))
    for club in clubs:
        rebuild_clubs([club])
    alone = derived()
    forget()
    assert rebuild_clubs(clubs) == (Season.objects.count(), Match.objects.count())
    assert derived() == alone


@pytest.mark.django_db(transaction=True)  # committed as in production: SET LOCAL then ends
def test_a_rebuild_reads_without_parallel_workers_or_jit_and_leaves_the_settings_as_they_were():
    """The workers are the rebuild's parallelism: its reads of the deals and the match lines
    run without PostgreSQL's own parallel workers, and without JIT compilation (its
    statements are short), in its transactions alone."""
    worlds.federation(2, 12, 300, 4)
    server = connection.cursor().connection  # psycopg's own: asked beside Django's wrapper

    def settings() -> tuple[str, str]:
        parallel = server.execute("SHOW max_parallel_workers_per_gather").fetchone()[0]
        return parallel, server.execute("SHOW jit").fetchone()[0]

    default = settings()
    assert default[0] != "0"  # the server's own: parallel workers allowed
    seen: dict[str, set[tuple[str, str]]] = {}

    def note(execute, sql, params, many, context):
        if "tournaments_deal" in sql or "scoring_matchstanding" in sql:
            seen.setdefault(sql.split()[0], set()).add(settings())
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        rebuild_clubs(list(Club.objects.values_list("pk", flat=True)), recheck=True)
    assert {"SELECT", "DELETE"} <= set(seen)  # the deals read, the match lines replaced
    assert all(values == {("0", "off")} for values in seen.values()), seen
    assert settings() == default
