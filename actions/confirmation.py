"""Who may confirm which deal: the one rule that every way of confirming calls.

In a season that asks for confirmation a deal counts once a second person confirms it.
There are two ways to confirm, and both end in :func:`confirm`:

- **by account**: the match page's Confirm button, ``POST /api/deals/{id}/confirm/``.
  Open to a site operator, a league administrator or scorer of the club, and a member
  seated in the match (``access.can_confirm``).
- **by PIN**: a seated player picks their name on the table's phone and types their PIN
  (``actions.pins`` checks the PIN; the phone is the one that scores the table).

Whoever decided the result never confirms it.  That is, never:

- the account that entered the deal, or made its current version (a correction or a
  restore), whether it acted as itself or through the table's link (a signed-in person
  who follows a link is recorded as the enterer, marked "at table N");
- the phone that entered or changed it through the table's link (its session's holder
  id, ``tournaments.table_links.holder``), even once someone signs in on it, by page or
  API with that session;
- a seated player whose account is one of those accounts;
- the seated player who scores on the phone that entered or changed it through the
  link (``actions.table_links.bind``: they proved it with their PIN before the
  phone could enter), neither by PIN nor by account, on that phone or any other;
- on the phone that entered or changed it, anyone by PIN but another seated player
  than the phone's scorer.

A PIN proves which seated player typed it, not that someone else agreed: an anonymous
phone must therefore say who scores on it (in a season that asks for confirmation it
cannot enter until it does). A deal entered or changed anonymously by a phone that
never said so (stored before that rule, or before the season asked for confirmation)
has an unknown author among the seated players: none of them confirms it, and a
scorer or league administrator of the club does.

A deleted deal, and a deal confirmed already, cannot be confirmed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from actions import after
from tournaments import access, table_links
from tournaments.errors import Rejection, error
from tournaments.models import Deal, Match, Player

NOT_ALLOWED = gettext_noop(
    "only a scorer or administrator of the club, or a player seated in the match, confirms"
)
NOT_SEATED = gettext_noop("only a player seated at the table confirms its deals")
SAME_PERSON = gettext_noop(
    "the deal must be confirmed by someone other than who entered or changed it"
)
UNKNOWN_SCORER = gettext_noop(
    "nobody said who entered this deal at the table: a scorer or league administrator of "
    "the club confirms it"
)
DELETED = gettext_noop("deal %(number)s is deleted: it cannot be confirmed")
CONFIRMED = gettext_noop("deal %(number)s is confirmed already")

FORBIDDEN = frozenset({"not_allowed", "not_seated"})
"""The codes of a refusal for who the confirmer is (403), not for the deal's state."""


@dataclass(frozen=True)
class Confirmer:
    """Who confirms: an account (page, API), or a seated player by their PIN; ``holder``
    is the request's link-holder id (``table_links.holder``), ``""`` when none."""

    user: Any = None
    player: Player | None = None
    holder: str = ""

    def accounts(self) -> set[int]:
        ids = {getattr(self.user, "pk", None)}
        if self.player is not None:
            ids.add(self.player.user_id)
        return {i for i in ids if i is not None}


Scorers = dict[str, list[tuple[int, int | None]]]
"""The players bound to each link-holder id of a table (``table_links.scorers``)."""


def refusal(deal: Deal, who: Confirmer) -> dict[str, Any] | None:
    """Why ``who`` may not confirm ``deal`` now (an error), or ``None``: they may."""
    match = deal.match
    return _not_at_the_table(match, who) or _not_a_second_person(
        deal, who, _scorers(match, [deal]), _seated_accounts(match)
    )


def may_confirm(deal: Deal, who: Confirmer) -> bool:
    """Whether to offer ``who`` the deal (a name on the PIN page)."""
    return refusal(deal, who) is None


def confirmable(match: Match, deals: Iterable[Deal], who: Confirmer) -> set[int]:
    """The ids of those of ``match``'s ``deals`` that ``who`` may confirm now (the
    match page's Confirm buttons): :func:`refusal`, the role and the scorers read once."""
    if _not_at_the_table(match, who) is not None:
        return set()
    deals = list(deals)
    scorers, seated = _scorers(match, deals), _seated_accounts(match)
    return {d.pk for d in deals if _not_a_second_person(d, who, scorers, seated) is None}


def _phones(deal: Deal) -> set[str]:
    return {deal.entered_by_holder, deal.revised_by_holder} - {""}


def _scorers(match: Match, deals: Iterable[Deal]) -> Scorers:
    holders = set().union(*(_phones(d) for d in deals))
    return table_links.scorers(match.table_id, holders) if holders else {}


def _seated_accounts(match: Match) -> set[int]:
    return {u for u in match.seats.values_list("player__user_id", flat=True) if u is not None}


def _not_at_the_table(match: Match, who: Confirmer) -> dict[str, Any] | None:
    if who.player is not None:
        if not match.seats.filter(player=who.player).exists():
            return error("not_seated", "player", NOT_SEATED)
    elif who.user is None or not access.can_confirm(who.user, match):
        return error("not_allowed", "", NOT_ALLOWED)
    return None


def deciders(deal: Deal) -> set[int]:
    """The accounts that decided the deal's current version: they never confirm it."""
    return {i for i in (deal.entered_by_id, deal.revised_by_id) if i is not None}


def _not_a_second_person(
    deal: Deal, who: Confirmer, scorers: Scorers, seated: set[int]
) -> dict[str, Any] | None:
    phones = _phones(deal)
    bound = [p for phone in phones for p in scorers.get(phone, [])]
    players = {player for player, _ in bound}
    accounts = deciders(deal) | {account for _, account in bound if account is not None}
    if (
        who.accounts() & accounts
        or (who.player is not None and who.player.pk in players)
        or (who.player is None and who.holder in phones)
    ):
        return error("same_person", "", SAME_PERSON)
    unknown = any(
        holder and by is None and holder not in scorers
        for holder, by in (
            (deal.entered_by_holder, deal.entered_by_id),
            (deal.revised_by_holder, deal.revised_by_id),
        )
    )
    if unknown and (who.player is not None or who.accounts() & seated):
        return error("unknown_scorer", "", UNKNOWN_SCORER)
    if deal.deleted_at is not None:
        return error("deleted", "", DELETED, number=deal.number)
    if deal.confirmed_at is not None:
        return error("already_confirmed", "", CONFIRMED, number=deal.number)
    return None


def confirm(deal: Deal, who: Confirmer) -> Deal:
    """``who`` confirms ``deal``: checked again with the deal's row locked, then stored
    once (a second confirmation is a conflict that names the stored one)."""
    with transaction.atomic():
        # The match before its deal, as a correction and an entry take them: a
        # confirmation and a correction of one deal wait for each other, never in a circle.
        Match.objects.select_for_update(of=("self",)).filter(pk=deal.match_id).exists()
        locked = (
            Deal.objects.select_for_update(of=("self",)).select_related("match").get(pk=deal.pk)
        )
        problem = refusal(locked, who)
        if problem is not None:
            conflict = problem["code"] in ("already_confirmed", "deleted")
            raise Rejection((problem,), conflict=conflict, existing=locked if conflict else None)
        locked.confirmed_by = who.user if who.player is None else who.player.user
        locked.confirmed_by_player = who.player
        locked.confirmed_at = timezone.now()
        locked.save(update_fields=["confirmed_by", "confirmed_by_player", "confirmed_at"])
        after.match_edited(
            locked.match_id,
            deals_changed=False,
            announcing=("deal.confirmed", {"deal": locked.pk}),
        )
    return locked
