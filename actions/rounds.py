"""A club night played in rounds (issue 25): each round a draw of the present players
onto tables with its matches; the next round once every match of this one has finished.

- :func:`propose` draws a round (``tournaments.round_draw``: balanced, Swiss or a final
  table) without writing anything; :func:`seat` writes a proposal (changed or not) as
  the night's next round; :func:`draw_next_round` does both in one transaction (the
  API), in the order of the standings; :func:`seat_round` seats the page's confirmed
  proposal (a final nobody qualified for asked first).
- Under the night's row lock, a round is seated only while every match of the current
  one has finished (else a conflict, 409), and only as the number the caller saw: the
  same proposal confirmed twice (a double tap, two administrators) makes one round.
- In a season that asks for confirmation, a round is finished only once its deals are
  confirmed (``tournaments.round_state.waiting``): the next round's Swiss order and final table come from
  confirmed standings, never from the zeros of deals that wait.  The rounds page lists
  what waits and confirms it from there.
- A round's length: ``deals`` for an open-ended game (Napoleon, Rettler: each match is
  given that many deals as its target and ends by itself); the game's own end for the
  others (Comp-13's 12 deals, Packing's target).  :func:`end_early` ends a round's
  unfinished matches as they stand, with the reason in each match's history.
- Each table of a round is kept by the first of its players (in seat order) whose
  account may keep the club's tables (``actions.seating.seated_scorer``); a table with
  none is kept from its phone link.
- Players arrive late and leave between rounds: each round takes the players given (by
  default everyone of the round before, seated or sitting out).
- The Swiss order and the final's top players are the night's standings so far (on a
  season's final night, the season's leaderboard: ``scoring.finals.draw_order``), which
  :func:`check_next_round` and :func:`draw_next_round` read and pass to :func:`propose`
  as ``order``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

import actions.deals
import actions.matches
import engine
from actions import corrections, seating
from actions.after import announce
from scoring import finals
from tournaments import divisions, draw_history, draw_plan, errors, round_draw
from tournaments.draw import NoDraw
from tournaments.errors import Rejection, error, refusal
from tournaments.games import league_game
from tournaments.models import (
    ClubNight,
    Match,
    Player,
    Round,
    Table,
)
from tournaments.round_draw import Seating
from tournaments.round_state import current, open_ended, present_by_default, unfinished, waiting

METHODS = tuple(Round.Method.values)
MOST_PLAYERS = 1000
"""More than a club night seats: a longer list is refused before anything is read."""
LARGEST_ID = 2**63 - 1
"""No row id is larger (PostgreSQL's bigint): a larger one names no player."""
UNFINISHED = gettext_noop(
    "round %(number)s has unfinished matches (%(open)s): finish them or end the round first"
)
NO_TABLES = gettext_noop(
    "the players here (%(n)s) cannot make the tables of this round: %(game)s takes %(sizes)s players a table"
)
DRAWN = gettext_noop("round %(number)s was drawn meanwhile")
WAITING = gettext_noop(
    "round %(number)s has deals waiting for confirmation (%(waiting)s): confirm them first"
)
NO_TABLES_IN = gettext_noop(
    "division %(division)s: the players here (%(n)s) cannot make the tables of this round: %(game)s takes "
    "%(sizes)s players a table (or draw the divisions together)"
)
NO_SIZE = gettext_noop("tables of this size: %(game)s takes %(sizes)s players a table")
NOT_IN_SEASON = gettext_noop("%(game)s is not a game of this season")
NO_LENGTH = gettext_noop("this game ends by its own rules: a round of it takes no number of deals")


@dataclass(frozen=True)
class Proposal:
    """A round as drawn, before it is seated."""

    number: int
    game: str
    method: str
    deals: int | None
    seating: Seating
    plans: tuple[draw_plan.Plan, ...] = ()
    """Designs the round starts following (``tournaments.draw_plan``), kept when seated."""
    designs: tuple[tuple[str, int, int], ...] = ()
    """The known designs the round follows: (name, which round of it, of how many)."""


def _finished(last: Round) -> None:
    """Refuse the next round while ``last`` has open matches or deals that wait."""
    if late := unfinished(last):
        raise _unfinished(last.number, len(late))
    if pending := waiting(last):
        problem = error("round_unconfirmed", "", WAITING, number=last.number, waiting=len(pending))
        raise Rejection((problem,), conflict=True)


def _unfinished(number: int, open_matches: int) -> Rejection:
    problem = error("round_unfinished", "", UNFINISHED, number=number, open=open_matches)
    return Rejection((problem,), conflict=True)


def _check(
    night: ClubNight, game: str, method: str, players: Sequence[int], deals: int | None
) -> None:
    if game not in night.season.games or game not in engine.GAMES:
        raise refusal("invalid_choice", "game", NOT_IN_SEASON, game=game)
    if method not in METHODS:
        raise refusal(
            "invalid_choice", "method", gettext_noop("the method is balanced, swiss or final")
        )
    if not players:
        raise errors.missing("players", gettext_noop("Say who plays this round."))
    if len(players) > MOST_PLAYERS:
        raise errors.too_many(
            "players", gettext_noop("a round takes at most %(n)s players"), n=MOST_PLAYERS
        )
    ids = [p for p in players if isinstance(p, int) and 0 < p <= LARGEST_ID]
    known = set(
        Player.objects.filter(club_id=night.season.club_id, pk__in=ids).values_list("pk", flat=True)
    )
    if unknown := [p for p in players if p not in known]:
        raise refusal(
            "not_found", "players", gettext_noop("no player %(id)s in this club"), id=unknown[0]
        )
    if len(set(players)) != len(players):
        raise refusal("duplicate_player", "players", gettext_noop("a player is listed twice"))
    if deals is not None and not open_ended(game):
        raise refusal("not_allowed", "deals", NO_LENGTH)
    if deals is not None and not 1 <= deals <= 100:
        raise refusal("out_of_range", "deals", gettext_noop("a round is 1 to 100 deals"))


def propose(
    night: ClubNight,
    *,
    game: str,
    method: str,
    players: Sequence[int] | None = None,
    deals: int | None = None,
    size: int | None = None,
    others: str = "balanced",
    order: Sequence[int] = (),
    seed: int | None = None,
    mixed: bool = False,
) -> Proposal:
    """Draw the night's next round (nothing written).  ``order``: the night's standings
    so far (player ids, first first), for a Swiss round and a final.  ``size``: every
    table's size (the final table's, in a final; default the night's table size, else
    the draw chooses).  In a season with divisions each division is drawn at tables of
    its own, top division first (and its players without one after them), unless
    ``mixed``.  The search takes ``round_draw.SECONDS`` at most in all."""
    chosen = list(players) if players else present_by_default(night)
    _check(night, game, method, chosen, deals)
    rules = engine.GAMES[game]
    sizes, best, dealer = sorted(rules.player_counts), rules.best_players, rules.has_dealer
    if size is not None and size not in sizes:
        raise refusal(
            "invalid_choice", "size", NO_SIZE, game=league_game(game).label, sizes=_listed(sizes)
        )
    table_size = night.table_size if night.table_size in sizes else None
    rng = random.Random(seed if seed is not None else random.SystemRandom().randrange(2**31))
    place = {p: i for i, p in enumerate(order)}
    known = draw_history.known(night, game)
    tables: list[list[int]] = []
    sat_out: list[int] = []
    plans: list[draw_plan.Plan] = []
    designs: list[tuple[str, int, int]] = []
    groups = [(None, chosen)] if mixed else divisions.groups(night.season, chosen)
    end = time.monotonic() + round_draw.SECONDS
    for i, (division, group) in enumerate(groups):
        deadline = time.monotonic() + (end - time.monotonic()) / (len(groups) - i)
        ranked = sorted(group, key=lambda p: (place.get(p, len(place)), p))
        try:
            if method == Round.Method.SWISS:
                drawn = round_draw.swiss(
                    ranked, sizes, best, known, rng, size=size or table_size, dealer=dealer
                )
            elif method == Round.Method.FINAL:
                drawn = round_draw.final(
                    ranked,
                    size or best,
                    others,
                    sizes,
                    best,
                    known,
                    rng,
                    others_size=table_size,
                    deadline=deadline,
                    dealer=dealer,
                )
            else:
                planned = draw_history.planned(night, group, known, size or table_size, rng)
                if planned is not None:
                    drawn = Seating(planned.tables, [])
                    plans += [planned.plan] if planned.new else []
                    designs.append((planned.plan.design, planned.number, len(planned.plan.rounds)))
                else:
                    drawn = round_draw.balanced(
                        group,
                        sizes,
                        best,
                        known,
                        rng,
                        size=size or table_size,
                        deadline=deadline,
                        dealer=dealer,
                    )
        except NoDraw:
            where = {"game": league_game(game).label, "sizes": _listed(sizes)}
            if division is None:
                raise refusal("no_draw", "players", NO_TABLES, n=len(group), **where) from None
            raise refusal(
                "no_draw", "players", NO_TABLES_IN, n=len(group), division=division.name, **where
            ) from None
        tables += drawn.tables
        sat_out += drawn.sat_out
    seating = Seating(tables, sat_out)
    last = current(night)
    number = (last.number if last else 0) + 1
    return Proposal(number, game, method, deals, seating, tuple(plans), tuple(designs))


def _listed(sizes: Sequence[int]) -> str:
    return ", ".join(map(str, sizes))


def seat(night: ClubNight, proposal: Proposal, user: Any = None) -> Round:
    """Write ``proposal`` as the night's next round: its tables, matches and sit-outs,
    all or nothing (see the module docstring).  The proposal is checked as a drawn one is
    (the page sends it back changed by hand, so it may say anything): the season's game,
    a method, the club's own players each once, a length the game takes, at least one
    table (each table's size is checked as its match is made)."""
    everyone = proposal.seating.seated + list(proposal.seating.sat_out)
    if len(set(everyone)) != len(everyone):
        raise refusal("duplicate_player", "tables", gettext_noop("a player is seated twice"))
    _check(night, proposal.game, proposal.method, everyone, proposal.deals)
    if not proposal.seating.tables:
        raise refusal("no_table", "tables", gettext_noop("seat at least one table"))
    with transaction.atomic():
        ClubNight.objects.select_for_update().filter(pk=night.pk).exists()
        last = current(night)
        if last is not None:
            _finished(last)
        expected = (last.number if last else 0) + 1
        if proposal.number != expected:
            drawn = error("round_exists", "", DRAWN, number=proposal.number)
            raise Rejection((drawn,), conflict=True)
        made = Round.objects.create(
            club_night=night,
            number=expected,
            game=proposal.game,
            method=proposal.method,
            deals=proposal.deals,
            created_by=user,
        )
        players = Player.objects.filter(club_id=night.season.club_id).in_bulk(everyone)
        may_score = seating.scorers_at(night.season.club_id, list(players.values()))
        for i, table in enumerate(proposal.seating.tables, 1):
            scorer = seating.seated_scorer([players[p] for p in table], may_score)
            seated = Table.objects.create(
                club_night=night, round=made, name=f"Table {i}", scorer_id=scorer
            )
            try:
                actions.matches.create_match(
                    seated,
                    proposal.game,
                    [players[p] for p in table],
                    target=proposal.deals,
                )
            except Rejection as rejection:
                placed = (
                    {**e, "path": f"tables[{i - 1}].{e['path']}".rstrip(".")}
                    for e in rejection.errors
                )
                raise Rejection(tuple(placed)) from None
        made.sat_out.set([players[p] for p in proposal.seating.sat_out])
        if proposal.plans:  # a design begun: later rounds follow it while the night does
            kept = [
                p
                for p in draw_plan.stored(night.draw_plan)
                if not any(p.players & q.players for q in proposal.plans)
            ]
            night.draw_plan = draw_plan.to_store([*kept, *proposal.plans])
            night.save(update_fields=["draw_plan"])
        announce("round.drawn", round=made.pk)
    return made


def next_round_choices(night: ClubNight) -> dict[str, Any]:
    """What the next round is drawn with unless the administrator says otherwise: the
    round before's game and length; a Swiss round after round 1 (unless the night plays
    a planned number of rounds), the final first on the season's final night; the
    night's table size; everyone present."""
    last = current(night)
    method = "swiss" if last and not night.rounds_planned else "balanced"
    if night.final and not night.rounds.filter(method=Round.Method.FINAL).exists():
        method = Round.Method.FINAL
    return {
        "game": last.game if last else (night.season.games or [""])[0],
        "method": str(method),
        "deals": (last.deals if last else None) or night.deals_per_match or 8,
        "size": night.table_size,
        "others": "balanced",
        "players": present_by_default(night),
        "mixed": False,
    }


@dataclass(frozen=True)
class Drawn:
    """A round drawn and seated, with its final's seeds (``scoring.finals``)."""

    round: Round
    seeding: finals.Seeding
    proposal: Proposal


def check_next_round(night: ClubNight, **draw: Any) -> Proposal:
    """The dry run of :func:`draw_next_round`: the proposal, in the order of the
    standings so far (:func:`scoring.finals.draw_order`), nothing written."""
    return propose(night, order=finals.draw_order(night, draw.get("game", "")), **draw)


def draw_next_round(
    night: ClubNight,
    *,
    user: Any = None,
    order: Sequence[int] | None = None,
    confirm_unqualified: bool = False,
    **draw: Any,
) -> Drawn:
    """Draw and seat the next round in one transaction (the API): in the order of the
    standings (Swiss pairs, a final's seats; ``order`` given instead in a test), a final
    nobody at its table qualified for refused unless ``confirm_unqualified``."""
    with transaction.atomic():
        ClubNight.objects.select_for_update().filter(pk=night.pk).exists()
        last = current(night)
        if last is not None:
            _finished(last)
        if order is None:
            order = finals.draw_order(night, draw.get("game", ""))
        proposal = propose(night, order=order, **draw)
        return seat_round(
            night,
            proposal,
            user,
            mixed=draw.get("mixed", False),
            confirm_unqualified=confirm_unqualified,
        )


def seat_round(
    night: ClubNight,
    proposal: Proposal,
    user: Any = None,
    *,
    mixed: bool = False,
    confirm_unqualified: bool = False,
) -> Drawn:
    """Seat ``proposal`` (drawn, or changed by hand on the page) as the next round; a
    final nobody at its table qualified for is refused unless ``confirm_unqualified``
    (``scoring.finals.vet``)."""
    tables, out = proposal.seating.tables, proposal.seating.sat_out
    found = finals.seeding(night, proposal.game, proposal.method, tables, out, mixed=mixed)
    finals.vet(found, confirm_unqualified)
    return Drawn(seat(night, proposal, user), found, proposal)


def end_early(round_: Round, user: Any, reason: str) -> list[Match]:
    """End the round's unfinished matches as they stand (each with the reason in its
    history); the next round can then be drawn."""
    text = corrections.reason_given(reason, gettext_noop("say why the round ends early"))
    ended = []
    with transaction.atomic():
        for match in unfinished(round_):
            ended.append(corrections.end_match(match, user, text))
        Round.objects.filter(pk=round_.pk).update(
            ended_early_at=timezone.now(), ended_early_reason=text[:500]
        )
    return ended
