"""Seating players at a new match: the dry run every form shows first, then the match
stored with its seats in one transaction, once however often it is sent (a client's
key, and a match like one still waiting for its first deal asked about)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

import engine
from actions.deals import check_key
from tournaments.errors import Rejection, error, problems
from tournaments.models import Match, Player, Seat, Table

SAME_AS = gettext_noop(
    "match %(number)s at this table has this game and these players and no deal yet: say "
    "it is the same to start another"
)
"""A new match like one the table has not started: most likely the same request sent
twice, refused at the field that says it is not."""

RULES_NOT_AN_OBJECT = gettext_noop(
    "the rules are an object of the game's rule names and their values, e.g. {}"
)
KEY_REUSED = gettext_noop("this key was used for another match: make a new key for a new match")


def check_new_match(
    table: Table,
    game: str,
    players: Sequence[Player],
    *,
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
) -> None:
    """The dry run of :func:`create_match`: raise its :class:`Rejection`, write nothing."""
    errors: list[dict[str, str]] = []
    season = table.club_night.season
    if rules is not None and not isinstance(rules, Mapping):
        raise Rejection((error("rules_not_an_object", "rules", RULES_NOT_AN_OBJECT),))
    if game not in engine.GAMES:
        raise Rejection(
            (error("unknown_game", "game", gettext_noop("unknown game %(game)s"), game=repr(game)),)
        )
    if game not in season.games:
        errors.append(
            error(
                "game_not_in_season",
                "game",
                gettext_noop("%(season)s does not count %(game)s"),
                season=season,
                game=game,
            )
        )
    for i, player in enumerate(players):
        if player.club_id != season.club_id:
            errors.append(
                error(
                    "not_a_member",
                    f"players[{i}]",
                    gettext_noop("%(player)s is not a player of %(club)s"),
                    player=player,
                    club=season.club,
                )
            )
    record: dict[str, Any] = {
        "game": game,
        "players": [p.handle for p in players],
        "rules": dict(rules or {}),
        "deals": [],
    }
    if target is not None:
        record["target"] = target
    errors.extend(problems(engine.check_match(record).errors))
    if errors:
        raise Rejection(tuple(errors))


def create_match(
    table: Table,
    game: str,
    players: Sequence[Player],
    *,
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
    key: str | None = None,
    ask_if_same: bool = False,
) -> Match:
    """Seat ``players`` (in order of play) at a new match of ``game``.

    Exactly once, as a deal is entered (``actions.deals.enter_deal``), under the table's
    row lock, so that requests sent at once answer as if sent one after the other:

    - ``key`` is the client's own name for this match (the API's ``Idempotency-Key``),
      stored with it: the key again with the same match answers the match stored the
      first time (``replayed`` set); with another match it is refused
      (``idempotency_key_reused``).
    - ``ask_if_same``: a match of the same game, players in the same order, rules and
      target that the table has open with no deal yet is refused (``same_as_previous``,
      the match as ``existing``): a table plays one match at a time, so a second one
      just like it is the request sent again.  A caller that means another one sends
      it again without asking (the API's ``confirm_same``)."""
    if rules is None:  # the season's variants of the game, if it chose any
        rules = table.club_night.season.rules.get(game) or {}
    rules_of_game = engine.GAMES.get(game)
    if (
        target is None
        and rules_of_game is not None
        and rules_of_game.accepts_target
        and rules_of_game.default_target is None
    ):  # an open-ended game: the night's number of deals, if it has one
        target = table.club_night.deals_per_match
    check_new_match(table, game, players, rules=rules, target=target)
    check_key(key)
    wanted = Match(
        table=table,
        game=game,
        rules=dict(rules or {}),
        target=target if target is not None else engine.GAMES[game].default_target,
        idempotency_key=key or "",
    )
    seated = [p.pk for p in players]
    with transaction.atomic():
        if key is not None or ask_if_same:  # one new match at a table at a time
            Table.objects.select_for_update(no_key=True).filter(pk=table.pk).first()
        if key is not None and (before := _keyed(wanted, seated)) is not None:
            return before
        if ask_if_same and (same := _waiting_like(wanted, seated)) is not None:
            problem = error("same_as_previous", "confirm_same", SAME_AS, number=same.pk)
            raise Rejection((problem,), conflict=True, existing=same)
        wanted.save()
        Seat.objects.bulk_create(
            Seat(match=wanted, player=player, position=i) for i, player in enumerate(players)
        )
    return wanted


def _same(match: Match, wanted: Match, seated: list[int]) -> bool:
    """``match`` has ``wanted``'s game, rules, target and players in order."""
    return (match.game, match.rules, match.target) == (
        wanted.game,
        wanted.rules,
        wanted.target,
    ) and list(match.seats.order_by("position").values_list("player_id", flat=True)) == seated


def _keyed(wanted: Match, seated: list[int]) -> Match | None:
    """The match stored before at the table with ``wanted``'s key (``replayed``); a refusal
    when it is another match; ``None`` when the key is new."""
    before = Match.objects.filter(table=wanted.table, idempotency_key=wanted.idempotency_key)
    match = before.first()
    if match is None:
        return None
    if not _same(match, wanted, seated):
        raise Rejection((error("idempotency_key_reused", "key", KEY_REUSED),), existing=match)
    match.replayed = True
    return match


def _waiting_like(wanted: Match, seated: list[int]) -> Match | None:
    """An open match of the table like ``wanted`` that has no deal yet."""
    waiting = Match.objects.filter(
        table=wanted.table, game=wanted.game, status=Match.Status.OPEN, deals__isnull=True
    )
    return next((m for m in waiting.order_by("pk") if _same(m, wanted, seated)), None)
