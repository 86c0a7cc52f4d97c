"""What entering a deal comes to (``actions.deals.Entry``): stored, replayed, the same as
the previous deal, its number taken, refused; each answered alike by the page and the
API, and each storing exactly what it says (nothing, or one deal)."""

from __future__ import annotations

import pytest

import actions.deals
from actions.deals import Outcome
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.errors import Rejection
from tournaments.models import Deal, Match

pytestmark = pytest.mark.django_db


def _enter(match, record, **how):
    return actions.deals.enter_deal(Match.objects.get(pk=match.pk), record, **how)


def test_each_outcome_stores_what_it_says(make_match, scorer):
    match = make_match("napoleon", NAPOLEON_SEATS)
    first = _enter(match, napoleon_deal(), user=scorer, key="k1")
    assert first.outcome == Outcome.STORED and first.deal.number == 1
    assert first.stored() == first.deal

    again = _enter(match, napoleon_deal(), user=scorer, key="k1")  # the same key: a retry
    assert again.outcome == Outcome.REPLAYED and again.deal.pk == first.deal.pk

    same = _enter(match, napoleon_deal(), user=scorer, key="k2", ask_if_same=True)
    assert same.outcome == Outcome.SAME_AS and same.deal.pk == first.deal.pk
    assert same.rejection.errors[0]["code"] == "same_as_previous"
    assert same.rejection.conflict and same.rejection.existing.pk == first.deal.pk
    assert Deal.objects.filter(match=match).count() == 1  # asked, nothing stored

    confirmed = _enter(match, napoleon_deal(), user=scorer, key="k2")  # "save again"
    assert confirmed.outcome == Outcome.STORED and confirmed.deal.number == 2

    taken = _enter(match, napoleon_deal(declarer="ben"), user=scorer, number=2)
    assert taken.outcome == Outcome.NUMBER_TAKEN and taken.deal.number == 2
    assert not taken.mine  # the deal stored under 2 is another record
    mine = _enter(match, napoleon_deal(), user=scorer, number=2, ask_if_same=True)
    assert mine.outcome == Outcome.NUMBER_TAKEN and mine.mine  # a resend without its key

    refused = _enter(match, napoleon_deal(count=99), user=scorer)
    assert refused.outcome == Outcome.REFUSED and refused.deal is None
    with pytest.raises(Rejection) as raised:
        refused.stored()
    assert raised.value is refused.rejection
    assert Deal.objects.filter(match=match).count() == 2


def test_the_same_record_is_asked_about_only_after_the_deal_it_repeats(make_match, scorer):
    """A record like an earlier deal but not the last one is simply stored."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    _enter(match, napoleon_deal(), user=scorer).stored()
    _enter(match, napoleon_deal(declarer="ben"), user=scorer).stored()
    third = _enter(match, napoleon_deal(), user=scorer, ask_if_same=True)
    assert third.outcome == Outcome.STORED and third.deal.number == 3
    repeat = _enter(match, napoleon_deal(), user=scorer, ask_if_same=True)
    assert repeat.outcome == Outcome.SAME_AS and repeat.deal.number == 3
