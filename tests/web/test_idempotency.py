"""Exactly once through the API: the Idempotency-Key header (IETF httpapi draft; as
Stripe's API behaves).  A retry with the key and the same record answers the stored
deal; the key with another record is refused; concurrent retries store one deal."""

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

import actions.deals
from tests.conftest import NAPOLEON_FORM, NAPOLEON_SEATS, member_of, napoleon_deal
from tournaments.models import Club, Deal, DealScore, Match, Membership, Seat

pytestmark = pytest.mark.django_db


def post(client, match, record, key=None, **extra):
    headers = {"Idempotency-Key": key} if key is not None else {}
    return client.post(
        f"/api/matches/{match.pk}/deals/",
        {"record": record, **extra},
        format="json",
        headers=headers,
    )


def test_three_posts_with_one_key_store_one_deal_and_answer_it_three_times(scorer_api, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    answers = [post(scorer_api, match, napoleon_deal(), key="phone-7f3a-0001") for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert [a.json()["id"] for a in answers] == [answers[0].json()["id"]] * 3
    assert answers[0].get("Idempotent-Replayed") is None
    assert [a.get("Idempotent-Replayed") for a in answers[1:]] == ["true", "true"]
    assert Deal.objects.filter(match=match).count() == 1
    assert DealScore.objects.filter(deal__match=match).count() == 4


def test_without_a_key_a_repeated_record_is_asked_about_as_the_page_asks(scorer_api, make_match):
    """The API has the entry page's rule: a record exactly like the last deal stores
    nothing until the client says it is the same (``confirm_same``), then a new deal."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    assert post(scorer_api, match, napoleon_deal()).status_code == 201
    again = post(scorer_api, match, napoleon_deal())
    assert again.status_code == 409
    assert [(e["code"], e["path"]) for e in again.json()["errors"]] == [
        ("same_as_previous", "confirm_same")
    ]
    assert again.json()["existing"]["number"] == 1
    assert Deal.objects.filter(match=match).count() == 1
    confirmed = post(scorer_api, match, napoleon_deal(), confirm_same=True)
    assert confirmed.status_code == 201 and confirmed.json()["number"] == 2
    assert Deal.objects.filter(match=match).count() == 2
    # A retry of the confirmed entry with its key is a replay, never a third deal.
    keyed = [post(scorer_api, match, napoleon_deal(), key="k-9", confirm_same=True) for _ in "ab"]
    assert [r.status_code for r in keyed] == [201, 201]
    assert keyed[1].get("Idempotent-Replayed") == "true"
    assert Deal.objects.filter(match=match).count() == 3


def test_the_key_reused_with_another_record_is_refused_and_stores_nothing(scorer_api, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    assert post(scorer_api, match, napoleon_deal(), key="k-1").status_code == 201
    other = napoleon_deal(declarer="ben", adjutant="dai")
    response = post(scorer_api, match, other, key="k-1")
    assert response.status_code == 422
    body = response.json()
    assert [(e["code"], e["path"]) for e in body["errors"]] == [("idempotency_key_reused", "key")]
    assert body["existing"]["number"] == 1
    assert Deal.objects.filter(match=match).count() == 1
    # A new key stores the other record as the next deal.
    assert post(scorer_api, match, other, key="k-2").json()["number"] == 2


def test_a_retry_after_the_deal_finished_the_match_answers_the_deal(scorer_api, make_match):
    match = make_match("comp13", NAPOLEON_SEATS, target=1)
    record = {
        "captured": {"aki": ["SK"], "ben": [], "chika": [], "dai": []},
        "hand_faces": {"aki": [], "ben": [], "chika": [], "dai": []},
    }
    first = post(scorer_api, match, record, key="last-deal")
    assert first.status_code == 201
    again = post(scorer_api, match, record, key="last-deal")
    assert again.status_code == 201 and again.json()["id"] == first.json()["id"]
    # Without the key the finished match refuses it.
    assert post(scorer_api, match, record).status_code == 409


def test_keys_belong_to_their_match(scorer_api, make_match):
    one = make_match("napoleon", NAPOLEON_SEATS)
    two = make_match("napoleon", NAPOLEON_SEATS)
    assert post(scorer_api, one, napoleon_deal(), key="same").status_code == 201
    assert post(scorer_api, two, napoleon_deal(), key="same").status_code == 201
    assert Deal.objects.count() == 2


@pytest.mark.parametrize("key", ["", "x" * 256])
def test_an_empty_or_overlong_key_is_refused(scorer_api, make_match, key):
    match = make_match("napoleon", NAPOLEON_SEATS)
    response = post(scorer_api, match, napoleon_deal(), key=key)
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "key"
    assert not Deal.objects.exists()


def test_the_key_is_part_of_the_action_for_every_caller(make_match, scorer):
    match = make_match("napoleon", NAPOLEON_SEATS)
    first = actions.deals.enter_deal(match, napoleon_deal(), user=scorer, key="a").stored()
    again = actions.deals.enter_deal(match, napoleon_deal(), user=scorer, key="a").stored()
    assert again.pk == first.pk and again.replayed and not first.replayed


def at_once(count: int, send) -> list[int]:
    """``send()`` from ``count`` threads released together (each closes its connection);
    what they returned, sorted."""
    start = threading.Barrier(count)
    statuses: list[int] = []

    def one():
        try:
            start.wait(timeout=10)
            statuses.append(send())
        finally:
            connection.close()

    threads = [threading.Thread(target=one) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return sorted(statuses)


@pytest.mark.django_db(transaction=True)
def test_concurrent_retries_with_one_key_store_one_deal(make_match, scorer):
    match = make_match("napoleon", NAPOLEON_SEATS)
    answers: list[int] = []

    def submit():
        answers.append(post(as_user(scorer), match, napoleon_deal(), key="double-tap").json()["id"])
        return 0

    at_once(4, submit)
    assert len(answers) == 4 and len(set(answers)) == 1
    assert Deal.objects.filter(match=match).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_without_key_or_number_stores_one_deal(make_match, scorer):
    """Eight identical entries at once, with neither a key nor a number (a client that
    sends neither): one is stored, the others answer 409 same_as_previous as one sent
    after it does, never a second copy (five copies were stored)."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    codes: list[list[str]] = []

    def submit():
        got = post(as_user(scorer), match, napoleon_deal())
        codes.append([e["code"] for e in got.json().get("errors", [])])
        return got.status_code

    assert at_once(8, submit) == [201] + [409] * 7
    assert sorted(codes) == [[]] + [["same_as_previous"]] * 7
    assert Deal.objects.filter(match=match).count() == 1


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.django_db(transaction=True)
def test_a_deletion_sent_four_times_at_once_deletes_once(make_match, scorer, club_admin):
    """Each was checked "not deleted yet" before any took the lock: four answered 200 and
    the history kept four deletions.  One deletes, three answer 409 ``deleted``."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    deal = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()

    def delete():
        return as_user(club_admin).delete(f"/api/deals/{deal.pk}/?reason=twice").status_code

    assert at_once(4, delete) == [200, 409, 409, 409]
    assert list(deal.versions.values_list("action", flat=True)) == ["deleted"]


def test_a_correction_sent_again_keeps_one_version(scorer_api, make_match, club_admin):
    """A PUT retried after a lost answer changes nothing the second time: one version in the
    deal's history, not two alike."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    deal = post(scorer_api, match, napoleon_deal()).json()
    changed = {**napoleon_deal(), "point_cards": {"aki": 10, "ben": 2, "chika": 7, "dai": 1}}
    client = APIClient()
    client.force_authenticate(club_admin)
    body = {"record": changed, "reason": "count"}
    answers = [client.put(f"/api/deals/{deal['id']}/", body, format="json") for _ in "ab"]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[1].json()["deal"]["record"] == answers[0].json()["deal"]["record"]
    assert Deal.objects.get(pk=deal["id"]).versions.count() == 1


def test_the_entry_page_answers_a_resent_entry_with_the_deal_it_stored(client, scorer, make_match):
    """Issue 28, 4: the queue's own retry after a lost answer is the same form with its key:
    the stored deal answers it, never "Same as deal N: save again?"."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    client.force_login(scorer)
    form = {
        **NAPOLEON_FORM,
        "discarded": "0",
        "number": "1",
        "key": "phone-queue-1",
    }
    first = client.post(f"/matches/{match.pk}/enter/", form, HTTP_ACCEPT="application/json")
    again = client.post(f"/matches/{match.pk}/enter/", form, HTTP_ACCEPT="application/json")
    assert first.json()["status"] == "stored" and again.json()["status"] == "stored"
    assert again.json()["replayed"] is True and again.json()["number"] == 1
    assert Deal.objects.filter(match=match).count() == 1
    # A new entry of the same values (another key) is still asked about.
    asked = client.post(
        f"/matches/{match.pk}/enter/",
        {**form, "number": "2", "key": "phone-queue-2"},
        HTTP_ACCEPT="application/json",
    )
    assert asked.json()["status"] == "same" and Deal.objects.filter(match=match).count() == 1


def new_match(
    client,
    table,
    players,
    handles=("aki", "ben", "chika", "dai"),
    key=None,
    game="packing",
    **extra,
):
    headers = {"Idempotency-Key": key} if key is not None else {}
    seats = [players[h].pk for h in handles]
    body = {"table": table.pk, "game": game, "players": seats, **extra}
    return client.post("/api/matches/", body, format="json", headers=headers)


def test_a_new_match_sent_three_times_with_one_key_is_stored_once(scorer_api, table, players):
    answers = [new_match(scorer_api, table, players, key="m-1") for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert len({a.json()["id"] for a in answers}) == 1
    assert [a.get("Idempotent-Replayed") for a in answers] == [None, "true", "true"]
    assert Match.objects.filter(table=table).count() == 1
    assert Seat.objects.filter(match__table=table).count() == 4


def test_a_match_key_reused_for_other_players_is_refused_and_stores_nothing(
    scorer_api, table, players
):
    first = new_match(scorer_api, table, players, key="m-1").json()
    other = new_match(scorer_api, table, players, ("ben", "aki", "chika", "dai"), key="m-1")
    assert other.status_code == 422
    assert [(e["code"], e["path"]) for e in other.json()["errors"]] == [
        ("idempotency_key_reused", "key")
    ]
    assert other.json()["existing"]["id"] == first["id"]
    assert Match.objects.filter(table=table).count() == 1


def test_a_match_like_one_the_table_has_not_started_is_asked_about(
    scorer_api, table, players, make_match
):
    """Without a key, a second match of the same game and players in the same order at a
    table whose match has no deal yet is the same request sent again: 409, nothing stored,
    until the client says it means another."""
    first = new_match(scorer_api, table, players).json()
    again = new_match(scorer_api, table, players)
    assert again.status_code == 409
    assert [(e["code"], e["path"]) for e in again.json()["errors"]] == [
        ("same_as_previous", "confirm_same")
    ]
    assert again.json()["existing"]["id"] == first["id"]
    assert str(first["id"]) in again.json()["errors"][0]["message"]
    assert Match.objects.filter(table=table).count() == 1
    # Other players, or the same players told to start another, store a new match.
    assert new_match(scorer_api, table, players, ("ben", "aki", "chika", "dai")).status_code == 201
    assert new_match(scorer_api, table, players, confirm_same=True).status_code == 201
    assert Match.objects.filter(table=table).count() == 3


def test_a_started_match_is_not_asked_about(scorer_api, table, players, scorer):
    """Once the table's match has a deal, the same players' next match is a new one."""
    seats = NAPOLEON_SEATS
    first = Match.objects.get(
        pk=new_match(scorer_api, table, players, seats, game="napoleon").json()["id"]
    )
    actions.deals.enter_deal(first, napoleon_deal(), user=scorer).stored()
    assert new_match(scorer_api, table, players, seats, game="napoleon").status_code == 201


def test_the_match_question_is_in_the_readers_language(scorer_api, table, players):
    new_match(scorer_api, table, players)
    scorer_api.credentials(HTTP_ACCEPT_LANGUAGE="ja")
    message = new_match(scorer_api, table, players).json()["errors"][0]["message"]
    assert "卓" in message and "match" not in message


@pytest.mark.parametrize("key", ["", "k" * 256])
def test_an_empty_or_overlong_match_key_is_refused(scorer_api, table, players, key):
    response = new_match(scorer_api, table, players, key=key)
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "key"
    assert not Match.objects.filter(table=table).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("key", [None, "one-key"])
def test_new_matches_sent_at_once_store_one(table, players, scorer, key):
    """Six identical new matches at once: one stored; with a key each answers it, without
    one the others are asked about (409) as one sent after it is."""
    ids: list[int] = []

    def submit():
        got = new_match(as_user(scorer), table, players, key=key)
        if got.status_code == 201:
            ids.append(got.json()["id"])
        return got.status_code

    statuses = at_once(6, submit)
    assert statuses == ([201] * 6 if key else [201] + [409] * 5)
    assert len(set(ids)) == 1
    assert Match.objects.filter(table=table).count() == 1


def test_a_match_key_answers_nobody_who_may_not_seat_the_table(
    scorer_api, member, table, players, django_user_model
):
    """The key replays a match only to someone who may seat that table: another club's
    administrator, or a member who does not score it, sending the same request and key
    is refused as without a key (the table "does not exist" for them), nothing shown."""
    assert new_match(scorer_api, table, players, key="m-1").status_code == 201
    other = Club.objects.create(name="Other", slug="other")
    stranger = member_of(other, django_user_model, "stranger", Membership.Role.ADMIN)
    for user in (stranger, member):
        again = new_match(as_user(user), table, players, key="m-1")
        assert again.status_code in (400, 403), again.json()
        assert "existing" not in again.json() and "seats" not in again.json()
        assert again.get("Idempotent-Replayed") is None
    assert Match.objects.filter(table=table).count() == 1
