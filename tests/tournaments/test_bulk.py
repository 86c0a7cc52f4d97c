"""Writing only what differs (``dbtools.bulk.write_differences``): stored rows are made
equal to fresh tuples, and rows whose values did not change are neither deleted nor
written again.  And the driver's own reads (``plain_rows``, ``streamed_rows``)."""

from __future__ import annotations

import inspect
import math
import traceback

import psycopg
import pytest
from django.db import DataError, IntegrityError, connection, transaction
from django.db.models.expressions import RawSQL

from dbtools import backend
from dbtools.bulk import (
    STREAMED,
    insert_rows,
    plain_rows,
    streamed_rows,
    update_rows,
    write_differences,
)
from scoring.models import Rating, Scope
from tests.scoring.derived import written_rows
from tournaments.models import Club, Match, Player

pytestmark = pytest.mark.django_db

KEY = ["player", "game", "scope"]
VALUES = ["mu", "sigma", "rating", "deals"]


def stored() -> dict[tuple, tuple]:
    """Each row's key and values → its id."""
    rows = Rating.objects.values_list("player_id", "game", "scope", *VALUES, "pk")
    return {row[:-1]: row[-1] for row in rows}


def places() -> dict[int, str]:
    """Where each rating is stored (``ctid``): a row written again moves."""
    _standings, ratings, _history = written_rows()
    return ratings


def write(fresh: list[tuple]) -> bool:
    """``fresh`` written over every rating; whether any row was written or deleted."""
    before = places()
    write_differences(Rating.objects.all(), KEY, VALUES, fresh)
    return places() != before


def test_only_rows_that_differ_are_written_and_the_rest_keep_their_ids(players):
    a, b, c = (p.pk for p in list(players.values())[:3])
    first = [
        (a, "packing", Scope.CLUB, 26.5, 8.1, 2.2, 3),
        (b, "packing", Scope.CLUB, 23.5, 8.1, -0.8, 3),
        (b, "packing", Scope.PUBLIC, 23.5, 8.1, -0.8, 3),
        (c, "comp13", Scope.CLUB, 25.0, 8.0, 1.0, 1),
    ]
    assert write(first)
    assert set(stored()) == set(first)
    ids = stored()

    assert not write(first)  # nothing differs: nothing written
    assert not write(list(reversed(first)))  # whatever the order of the fresh rows
    assert stored() == ids

    changed = [
        (a, "packing", Scope.CLUB, 26.5, 8.1, 2.2, 3),  # the same
        (b, "packing", Scope.CLUB, 23.5, 8.0, -0.5, 4),  # other values for the same key
        (c, "comp13", Scope.CLUB, 25.0, 8.0, 1.0, 1),  # the same
        (c, "packing", Scope.CLUB, 30.0, 7.0, 9.0, 2),  # new
    ]  # and (b, packing, public) is no longer among them
    write(changed)
    now = stored()
    assert set(now) == set(changed)
    assert now[changed[0]] == ids[first[0]] and now[changed[2]] == ids[first[3]]
    assert now[changed[1]] not in ids.values() and now[changed[3]] not in ids.values()

    assert write([])
    assert stored() == {}


def test_a_value_changed_behind_its_back_is_mended_alone(players):
    a, b = (p.pk for p in list(players.values())[:2])
    fresh = [
        (a, "packing", Scope.CLUB, 26.5, 8.1, 2.2, 3),
        (b, "packing", Scope.CLUB, 23.5, 8.1, -0.8, 3),
    ]
    write(fresh)
    ids = stored()
    Rating.objects.filter(player_id=b).update(deals=30)
    write(fresh)
    now = stored()
    assert set(now) == set(fresh)
    assert now[fresh[0]] == ids[fresh[0]]
    assert now[fresh[1]] != ids[fresh[1]]


def test_only_the_given_rows_are_compared_and_a_refusal_writes_nothing(players):
    """The rows outside ``rows`` are neither deleted nor rewritten; two calls in one
    transaction work (the replay writes its history, then its ratings); a float one bit
    apart is a difference; a fresh row that collides with a row outside ``rows`` fails
    the call, and in the caller's transaction nothing of it stays (the stale rows it
    deleted come back)."""
    a, b = (p.pk for p in list(players.values())[:2])
    mine = [
        (a, "packing", Scope.CLUB, 26.5, 8.1, 2.2, 3),
        (a, "comp13", Scope.CLUB, 1.0, 2.0, 3.0, 4),
    ]
    theirs = [(b, "packing", Scope.CLUB, 23.5, 8.1, -0.8, 3)]
    write(mine + theirs)
    ids = stored()
    with transaction.atomic():
        write_differences(Rating.objects.filter(player_id=a), KEY, VALUES, mine[:1])
        write_differences(Rating.objects.filter(player_id=a), KEY, VALUES, mine[:1])
    assert stored() == {row: ids[row] for row in mine[:1] + theirs}

    nudged = (a, "packing", Scope.CLUB, math.nextafter(26.5, 30.0), 8.1, 2.2, 3)
    write_differences(Rating.objects.filter(player_id=a), KEY, VALUES, [nudged])
    assert set(stored()) == {nudged, *theirs}
    assert stored()[theirs[0]] == ids[theirs[0]]

    before = stored()
    with pytest.raises(IntegrityError), transaction.atomic():
        write_differences(
            Rating.objects.filter(player_id=a),
            KEY,
            VALUES,
            [mine[1], theirs[0][:3] + (1.0, 1.0, 1.0, 1)],
        )
    assert stored() == before


def test_plain_rows_are_read_in_the_same_transaction_and_fail_as_djangos(players):
    """The rows come from the open transaction (the players made by this test, not yet
    committed), as Django would give them; a failing statement raises Django's error (the
    tasks retry on those), not the driver's."""
    rows = Player.objects.order_by("pk").values_list("pk", "handle", "club_id")
    assert plain_rows(rows) == list(rows) and len(rows) == len(players)
    with pytest.raises(DataError):
        plain_rows(
            Player.objects.order_by().annotate(x=RawSQL("1 / (id - id)", [])).values_list("x")
        )


def test_streamed_rows_come_whole_in_order_from_the_open_transaction(players):
    """A stream longer than the chunks it is taken in gives every row once, in the
    statement's order, from the open transaction (this test's players are not committed);
    read to its end, it leaves the transaction usable (the ratings replay fills missing
    events after one); a failing statement raises Django's error."""
    count = 2 * STREAMED + 7  # more than two chunks
    with streamed_rows(
        "SELECT g, p.handle FROM generate_series(1, %(n)s) g"
        " JOIN tournaments_player p ON p.id = %(player)s ORDER BY g DESC",
        {"n": count, "player": players["aki"].pk},
    ) as rows:
        assert list(rows) == [(g, "aki") for g in range(count, 0, -1)]
    assert Player.objects.filter(pk=players["aki"].pk).exists()  # the same transaction, open
    with (
        pytest.raises(DataError),
        streamed_rows("SELECT 1 / (g - g) FROM generate_series(1, 3) g", {}) as rows,
    ):
        list(rows)


def test_a_stream_left_before_its_end_is_cancelled_not_left_holding_the_connection(players):
    """An error while the rows are read (a replay that fails half-way) leaves the block with
    the statement cancelled: the transaction has failed (the error rolls it back) and the
    connection is free for the rollback, instead of held for ever by a stream nobody
    reads (a worker stuck with its clubs locked)."""
    driver = connection.connection
    with transaction.atomic():
        with pytest.raises(RuntimeError, match="half-way") as caught:
            # More rows than the sockets' buffers hold: the server is still sending when the
            # block is left (100,000 rows fitted on a loaded machine, and nothing was left
            # to cancel).
            with streamed_rows("SELECT g FROM generate_series(1, 1000000) g", {}) as rows:
                next(rows)
                raise RuntimeError("half-way")
        held = not driver.lock.acquire(timeout=2)
        if held:  # let the stream go, so that this test fails rather than waits for ever
            for frame, _line in traceback.walk_tb(caught.tb):
                for value in list(frame.f_locals.values()):
                    if inspect.isgenerator(value):
                        value.close()
        else:
            driver.lock.release()
        assert not held
        assert driver.info.transaction_status == psycopg.pq.TransactionStatus.INERROR
        transaction.set_rollback(True)
    assert Player.objects.filter(pk=players["aki"].pk).exists()  # rolled back to before the block


def test_any_of_selects_the_rows_of_a_subquerys_ids_through_an_array(players, club):
    """``player__any_of`` picks the same rows as ``player__in`` a subquery (here: one club's
    players' ratings, not another club's), PostgreSQL given the ids as one array."""
    other = Club.objects.create(name="Other club", slug="other-club")
    stranger = Player.objects.create(club=other, handle="zed", display_name="Zed")
    for player in [*players.values(), stranger]:
        Rating.objects.create(
            player=player, game="packing", scope=Scope.CLUB, mu=25, sigma=8, rating=1, deals=1
        )
    ours = Player.objects.filter(club=club).order_by().values("pk")
    picked = Rating.objects.filter(player__any_of=ours)
    assert set(picked.values_list("player_id", flat=True)) == {p.pk for p in players.values()}
    assert "= ANY(ARRAY(SELECT" in str(picked.query)


@pytest.mark.parametrize("twin", ["postgresql", "portable"])
def test_update_rows_sets_the_given_rows_alone_twice_in_one_transaction(players, twin):
    """``update_rows`` sets the named columns of the rows by id, JSON and numbers alike,
    leaves every other row and column as it was, and can be called twice in one
    transaction (its temporary table is gone after each call)."""
    a, b, c = (p.pk for p in list(players.values())[:3])
    write_differences(
        Rating.objects.all(),
        KEY,
        VALUES,
        [(p, "packing", Scope.CLUB, 25.0, 8.0, 1.0, 1) for p in (a, b, c)],
    )
    ids = {r.player_id: r.pk for r in Rating.objects.all()}
    with backend.using(twin), transaction.atomic():
        assert update_rows(Rating, ["mu", "deals"], [(ids[a], 30.5, 4)]) == 1
        assert update_rows(Rating, ["sigma"], [(ids[b], 7.25), (ids[a], 6.0)]) == 2
        assert update_rows(Rating, ["mu"], []) == 0
    rows = {r.player_id: (r.mu, r.sigma, r.rating, r.deals) for r in Rating.objects.all()}
    assert rows == {a: (30.5, 6.0, 1.0, 4), b: (25.0, 7.25, 1.0, 1), c: (25.0, 8.0, 1.0, 1)}


@pytest.mark.parametrize("twin", ["postgresql", "portable"])
def test_update_rows_writes_json_as_json(make_match, twin):
    """A JSON column set by ``update_rows`` reads back as the same value (None too)."""
    matches = [make_match("packing", ["aki", "ben"]) for _ in range(3)]
    state = {"deals": [{"a": 1.5, "b": [1, "x"]}], "note": "é"}
    with backend.using(twin):
        update_rows(Match, ["state"], [(matches[0].pk, state), (matches[1].pk, None)])
    assert Match.objects.get(pk=matches[0].pk).state == state
    assert Match.objects.get(pk=matches[1].pk).state is None
    assert Match.objects.get(pk=matches[2].pk).state == matches[2].state


@pytest.mark.django_db(transaction=True)
def test_update_rows_works_outside_a_transaction(make_match):
    """Called in autocommit (no transaction open), the temporary table still lives for the
    whole update: it opens its own."""
    match = make_match("packing", ["aki", "ben"])
    assert not connection.in_atomic_block
    update_rows(Match, ["state"], [(match.pk, {"kept": 1})])
    assert Match.objects.get(pk=match.pk).state == {"kept": 1}


@pytest.mark.parametrize("twin", ["postgresql", "portable"])
def test_a_failed_copy_fails_with_djangos_error_and_writes_nothing(players, twin):
    """A row the database refuses fails ``insert_rows`` and ``update_rows`` with Django's
    error, as any statement does (the tasks retry on Django's ``OperationalError``, and a
    page answers it with a 503), not the driver's; in the caller's transaction nothing of
    it stays."""
    a, b = (p.pk for p in list(players.values())[:2])
    insert_rows(Rating, KEY + VALUES, [(a, "packing", Scope.CLUB, 25.0, 8.0, 1.0, 1)])
    before = stored()
    with backend.using(twin):
        with pytest.raises(IntegrityError), transaction.atomic():
            insert_rows(
                Rating,
                KEY + VALUES,
                [
                    (b, "packing", Scope.CLUB, 1.0, 1.0, 1.0, 1),
                    (a, "packing", Scope.CLUB, 2.0, 2.0, 2.0, 2),
                ],
            )
        with pytest.raises(IntegrityError), transaction.atomic():
            update_rows(Rating, ["deals"], [(before[next(iter(before))], -5)])
    assert stored() == before
