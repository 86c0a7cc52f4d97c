"""Seasons closing at the same moment (issue 55, 5): real transactions on PostgreSQL, each
in a thread with its own connection.  Closing A into B while B closes into A, two
seasons into one C (existing or made by the closing), or a closing while the standings
are rebuilt: each finishes or is refused in words, none waits for the other in a circle
(PostgreSQL would name a deadlock), and nothing is half-written."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

import actions.divisions
import actions.seasons
from scoring.season_totals import rebuild_seasons
from tests.conftest import at_the_same_moment
from tests.scoring.test_divisions import standings_of
from tournaments.errors import Rejection
from tournaments.models import Club, Move, Placement, Player, Season

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 3
"""Races run a few times each: a circle of locks would show in one of them."""


def seasons_of(slug: str, *names: str) -> tuple[list[Season], list[Player]]:
    """Seasons of one club, each in divisions A and B with nobody placed yet and a
    leaderboard of the same eight players (so that each may close into any other)."""
    club = Club.objects.create(name=slug.title(), slug=slug)
    people = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"{slug} {i}")
        for i in range(8)
    ]
    made = []
    for name in names:
        season = Season.objects.create(club=club, name=name, games=["napoleon"], public=True)
        actions.divisions.set_divisions(season, ["A", "B"], {})
        standings_of(season, {p: (i + 1, True) for i, p in enumerate(people)})
        made.append(season)
    return made, people


def refused_or_closed(answer: object) -> str:
    """What one closing answered: ``closed`` or the refusal's code; anything else (a
    deadlock, a unique violation) fails the test with it."""
    if isinstance(answer, Rejection):
        return str(answer.errors[0]["code"])
    assert isinstance(answer, actions.seasons.Closed), repr(answer)
    return "closed"


def whole(season: Season, closed: bool) -> None:
    """Closed with every move and placement, or untouched."""
    season.refresh_from_db()
    assert (season.closed_at is not None) == closed
    assert Move.objects.filter(season=season).count() == (8 if closed else 0)
    if closed:
        assert Placement.objects.filter(season=season.next_season).count() == 8


def test_closing_a_into_b_while_b_closes_into_a_closes_one_and_refuses_the_other():
    for i in range(ROUNDS):
        (a, b), _people = seasons_of(f"pair{i}", "A", "B")
        answers = at_the_same_moment(
            lambda a=a, b=b: actions.seasons.close_season(a, b.name),
            lambda a=a, b=b: actions.seasons.close_season(b, a.name),
        )
        outcomes = [refused_or_closed(x) for x in answers]
        assert sorted(outcomes) == ["closed", "conflict"], answers
        won = a if outcomes[0] == "closed" else b
        lost = b if won is a else a
        whole(won, True)
        whole(lost, False)
        assert won.next_season == lost
        refused = answers[outcomes.index("conflict")]
        assert isinstance(refused, Rejection)
        assert refused.errors[0]["path"] == "next_season"
    connection.close()


def test_two_seasons_closing_into_one_existing_season_place_its_players_once():
    for i in range(ROUNDS):
        (a, b, c), _people = seasons_of(f"into{i}", "A", "B", "C")
        answers = at_the_same_moment(
            lambda a=a, c=c: actions.seasons.close_season(a, c.name),
            lambda b=b, c=c: actions.seasons.close_season(b, c.name),
        )
        outcomes = [refused_or_closed(x) for x in answers]
        assert sorted(outcomes) == ["closed", "conflict"], answers
        whole(a, outcomes[0] == "closed")
        whole(b, outcomes[1] == "closed")
        assert Placement.objects.filter(season=c).count() == 8
        placed = Placement.objects.filter(season=c).values_list("player", flat=True)
        assert len(set(placed)) == 8
    connection.close()


def test_two_seasons_closing_into_one_new_season_make_it_once():
    for i in range(ROUNDS):
        (a, b), _people = seasons_of(f"new{i}", "A", "B")
        # The same name as people type it twice: one season, made once.
        answers = at_the_same_moment(
            lambda a=a: actions.seasons.close_season(a, "Spring 2027"),
            lambda b=b: actions.seasons.close_season(b, "spring 2027"),
        )
        outcomes = [refused_or_closed(x) for x in answers]
        assert sorted(outcomes) == ["closed", "conflict"], answers
        made = Season.objects.filter(club=a.club).exclude(pk__in=[a.pk, b.pk])
        assert made.count() == 1
        assert Placement.objects.filter(season=made.get()).count() == 8
        whole(a, outcomes[0] == "closed")
        whole(b, outcomes[1] == "closed")
    connection.close()


def test_a_closing_and_a_rebuild_of_both_seasons_wait_in_one_order():
    """The seasons' rebuild locks them in the order of their ids, and so does a closing,
    in one statement.  Ordered here so that a closing that locked its own season first
    would meet the rebuild in a circle: the earlier season is held by a third
    transaction; the rebuild queues for it first, then the closing of the later season
    into it; the holder lets go."""
    (a, b), people = seasons_of("rebuild", "A", "B")
    later, earlier = (b, a) if b.pk > a.pk else (a, b)
    # Placed, so that the closing has its players whatever the rebuild writes first.
    actions.divisions.set_divisions(later, ["A", "B"], {p.pk: "AB"[p.pk % 2] for p in people})
    held, release = threading.Event(), threading.Event()
    answers: dict[str, object] = {}

    def hold() -> None:
        try:
            with transaction.atomic():
                Season.objects.select_for_update().get(pk=earlier.pk)
                held.set()
                release.wait(30)
        finally:
            connection.close()

    def run(name: str, work: Callable[[], object]) -> None:
        try:
            answers[name] = work()
        except BaseException as exc:  # noqa: BLE001 - the test looks at it
            answers[name] = exc
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(30)
    rebuild = threading.Thread(
        target=run, args=("rebuild", lambda: rebuild_seasons([earlier.pk, later.pk]))
    )
    closing = threading.Thread(
        target=run, args=("close", lambda: actions.seasons.close_season(later, earlier.name))
    )
    rebuild.start()
    time.sleep(0.5)  # the rebuild waits for the earlier season
    closing.start()
    time.sleep(0.5)  # so does the closing, holding nothing of the two
    release.set()
    for thread in (holder, rebuild, closing):
        thread.join(60)
    assert answers["rebuild"] == 2, answers
    assert refused_or_closed(answers["close"]) == "closed", answers
    whole(later, True)
    connection.close()


def test_a_closing_locks_both_seasons_in_one_statement_in_the_order_of_their_ids():
    (a, b), _people = seasons_of("order", "A", "B")
    later, earlier = (b, a) if b.pk > a.pk else (a, b)
    with CaptureQueriesContext(connection) as done:
        actions.seasons.close_season(later, earlier.name)
    locks = [
        q["sql"] for q in done.captured_queries if q["sql"].endswith("UPDATE") and "FOR" in q["sql"]
    ]
    assert len(locks) == 1, locks
    assert '"tournaments_season"' in locks[0]
    # A writer's lock that lets a refresh insert lines referring to the season meanwhile
    # (their foreign keys take KEY SHARE): a refresh and a closing never wait in a circle.
    assert locks[0].endswith("FOR NO KEY UPDATE")
    assert 'ORDER BY "tournaments_season"."id" ASC' in locks[0]
    connection.close()
