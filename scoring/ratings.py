"""Skill ratings per game, from the deal records alone (issue 7).

The model is OpenSkill's Plackett-Luce with the library's defaults (mu 25, sigma 25/3);
the displayed rating is its ordinal, mu - 3 sigma, so a new player starts at 0 and
climbs as the system grows sure of them.  The update is the engine's own
(``engine.skill``, compiled: several times the library's speed, its numbers within
1e-9); ``RATING_MODEL=openskill`` rates with the ``openskill`` package instead.  Every counting
deal (not deleted; confirmed where the season asks for it) is one rated event,
whose teams the game's web module forms (``LeagueGame.rating_teams``):

- by default the engine's sides (every player alone, or Packing's partnerships)
  ranked by their deal score, equal scores equal ranks; only the players with a
  score in the deal take part (Twenty-Two: those already out have none);
- Napoleon and Rettler: the army against the coalition, weighted and staked by
  the deal's multiplier (``tournaments.games.declarer``).

Ratings are kept in two scopes, so that nobody sees anything derived from a season
they may not read (``access.visible``): ``Scope.CLUB`` counts every season of the
club and is what the club's members (and site operators) see; ``Scope.PUBLIC`` counts
the club's public seasons alone and is what everyone else sees, on the player pages,
the public leaderboards and exports and the API (:func:`scope_for`).  A club with no
private season has the same numbers in both (one replay writes both); one with no
public season has no public ratings.  A season made public or private replays the
club's ratings (``scoring.apps``).

Games the engine marks as not ``rated`` (the cooperative Comrade) have no
ratings: everyone wins or loses together, so there is nobody to be ranked against.

Ratings are per club and game, in a fixed order of the deals: club night (by date,
then by id: two nights on one date are two nights), match start, match id, deal
number.  ``rebuild_ratings`` replays a club's deals of one game from a given night
on, starting from each player's rating at the end of the night before; a rebuild
from scratch gives the same numbers as the incremental updates, whatever order the
deals were entered in.

The replay reads each deal's rated event as it was stored with the deal, a match's
events at a time (``scoring.rating_events``), and keeps per player only the rating at
the end of each club night (``RatingHistory``): what the plot draws and where a later
replay starts.  It writes only the rows that differ from those stored (a replay of
unchanged deals writes nothing; new rows with COPY).
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
from django.conf import settings
from django.db import transaction
from django.db.models import F, FilteredRelation, OuterRef, Q, QuerySet, Subquery

import engine
from dbtools.bulk import plain_plans, write_differences
from engine import skill
from scoring import fingerprints, rating_events
from scoring.models import Rating, RatingHistory, Scope, SeasonStanding
from scoring.rating_events import Since
from scoring.sheets import SeasonChart, Series
from tournaments import access
from tournaments.models import Club, ClubNight, Match, Player, Season

MU = skill.MU

State = skill.Rated
"""Player id → (mu, sigma, deals rated)."""


def library() -> skill.Rate | None:
    """The library's update where ``RATING_MODEL`` chooses it; ``None``: the engine's own
    (``engine.skill.rate_into``, called by the compiled replay directly)."""
    return _rate_with_library if settings.RATING_MODEL == "openskill" else None


def _rate_with_library(
    state: State,
    teams: list[list[int]],
    ranks: list[float],
    weights: list[list[float]] | None,
    stake: float,
) -> None:
    """The same update by the ``openskill`` package (``RATING_MODEL=openskill``)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    before = [[state.get(pid, skill.NEW) for pid in team] for team in teams]
    rated = model.rate(
        [[model.rating(mu=mu, sigma=sigma) for mu, sigma, _n in team] for team in before],
        ranks=ranks,
        weights=weights,
    )
    for team, old, new in zip(teams, before, rated, strict=True):
        for pid, (mu, _sigma, n), after in zip(team, old, new, strict=True):
            state[pid] = (mu + stake * (after.mu - mu), after.sigma, n + 1)


def scope_for(user: Any, club_id: int) -> str:
    """The ratings ``user`` may read of a club's players: made of every season for those
    who read every season of the club (its members, site operators), of its public
    seasons alone for everyone else (``access.visible``)."""
    if access.is_operator(user) or access.role(user, club_id) is not None:
        return Scope.CLUB
    return Scope.PUBLIC


@contextmanager
def _without_gc() -> Iterator[None]:
    """The replay makes many small objects and no cycles: with the cyclic garbage collector
    off meanwhile it runs a third faster (reference counting frees everything)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def rebuild_ratings(club_id: int, game: str, since: Since | None = None) -> int:
    """Replay the club's ratings in ``game`` from the night ``since`` (its date and id;
    ``None``: from the first deal); returns the number of deals rated."""
    with transaction.atomic():
        plain_plans()
        if not Club.objects.select_for_update().filter(pk=club_id).exists():
            return 0
        return _replay([club_id], [game], since)


def rebuild_club_ratings(club_id: int, *, every: bool = False) -> int:
    """Every game of the club from scratch (a full rebuild); see :func:`rebuild_clubs_ratings`."""
    return rebuild_clubs_ratings([club_id], every=every)


def rebuild_clubs_ratings(club_ids: list[int], *, every: bool = False) -> int:
    """Every game of these clubs from scratch (a full rebuild): the same statements for one
    club or several, one game or all of them, so that a rebuild's fixed cost is paid once
    for a batch of clubs.  A club is skipped when nothing its ratings are made of changed
    since its last full replay (:mod:`scoring.fingerprints`), unless ``every``.  Returns
    the deals rated."""
    with transaction.atomic():
        plain_plans()
        # Locked in the order of their ids, as every batch does: two batches may wait for
        # each other, never in a circle.
        locked = list(
            Club.objects.select_for_update()
            .filter(pk__in=club_ids)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if fingerprints.taken():
            # Taken before the replay, so that deals committed meanwhile make a difference
            # next time.
            now = fingerprints.of_clubs_ratings(locked)
            before = fingerprints.kept(fingerprints.RATINGS, locked)
            locked = [c for c in locked if every or before.get(c) != now[c]]
            fingerprints.keep(fingerprints.RATINGS, {c: now[c] for c in locked})
        if not locked:
            return 0
        return _replay(locked, sorted(engine.GAMES), None)


def _replay(club_ids: list[int], games: list[str], since: Since | None) -> int:
    """Replay the (locked) clubs' ratings in ``games`` from the night ``since``, each player
    starting from their rating at the end of the night before, in each scope: every season
    (``Scope.CLUB``), and the public seasons alone (``Scope.PUBLIC``; the same numbers
    when the club has no private season, none when it has no public one).  Returns the
    deals rated in the clubs' scope.

    Several clubs replay as one: a player belongs to one club and plays in its matches
    alone (a match seats only its club's players: ``actions.deals``), so the clubs'
    deals taken together in rating order give each player the events of their own
    club's order."""
    games = [g for g in games if engine.GAMES[g].rated]
    if not games:
        return 0
    public: dict[int, set[bool]] = {c: set() for c in club_ids}
    for club_id, is_public in Season.objects.filter(club_id__in=club_ids).values_list(
        "club_id", "public"
    ):
        public[club_id].add(is_public)
    both = [c for c in club_ids if False not in public[c]]  # nothing private: one replay
    private = [c for c in club_ids if True not in public[c] and False in public[c]]
    mixed = [c for c in club_ids if public[c] == {True, False}]
    rated = 0
    with _without_gc():
        if both:
            rated += _replay_scopes(both, games, since, [Scope.CLUB, Scope.PUBLIC], False)
        if private:  # nothing public: no public ratings (any there are deleted)
            rated += _replay_scopes(private, games, since, [Scope.CLUB], False, (Scope.PUBLIC,))
        if mixed:
            rated += _replay_scopes(mixed, games, since, [Scope.CLUB], False)
            _replay_scopes(mixed, games, since, [Scope.PUBLIC], True)
    return rated


def _replay_scopes(
    club_ids: list[int],
    games: list[str],
    since: Since | None,
    scopes: list[str],
    public_only: bool,
    emptied: tuple[str, ...] = (),
) -> int:
    """One replay, its rows written for each of ``scopes``; the rows of the ``emptied``
    scopes deleted."""
    players = Player.objects.filter(club_id__in=club_ids).order_by().values("pk")
    history = RatingHistory.objects.filter(
        player__any_of=players, game__in=games, scope__in=[*scopes, *emptied]
    )
    while True:
        states = _starting(history, club_ids, games, since, scopes[0])
        try:
            with rating_events.of_matches(club_ids, games, since, public_only) as events:
                rated, rows = skill.replay(events, states, orjson.loads, scopes, library())
            break
        except rating_events.Unfilled:
            # Filled, then replayed again from the start.  Each time some deals get their
            # event, so this ends; where none is found to fill (the deal deleted since),
            # this replay fails and the deletion's own replays the club again.
            if not rating_events.fill(club_ids, games, since):
                raise
    write_differences(
        history if since is None else history.filter(_from_night(since)),
        ["player", "game", "club_night", "scope"],
        ["mu", "sigma", "rating", "deals"],
        rows,
    )
    write_differences(
        Rating.objects.filter(
            player__any_of=players, game__in=games, scope__in=[*scopes, *emptied]
        ),
        ["player", "game", "scope"],
        ["mu", "sigma", "rating", "deals"],
        [
            (pid, game, scope, mu, sigma, skill.ordinal(mu, sigma), n)
            for scope in scopes
            for game, state in states.items()
            for pid, (mu, sigma, n) in state.items()
        ],
    )
    return rated


def _starting(
    history: QuerySet[RatingHistory],
    club_ids: list[int],
    games: list[str],
    since: Since | None,
    scope: str,
) -> dict[str, State]:
    """Each game's ratings where a replay from the night ``since`` starts: each player's
    at the end of the last night before it they played (none from the first night)."""
    states: dict[str, State] = {g: {} for g in games}
    if since is None:
        return states
    for game in games:
        last = (
            history.filter(player=OuterRef("pk"), game=game, scope=scope)
            .exclude(_from_night(since))
            .order_by("-club_night__date", "-club_night_id")
        )
        players = Player.objects.filter(club_id__in=club_ids).annotate(
            mu=Subquery(last.values("mu")[:1]),
            sigma=Subquery(last.values("sigma")[:1]),
            n=Subquery(last.values("deals")[:1]),
        )
        for pid, mu, sigma, n in players.filter(mu__isnull=False).values_list(
            "pk", "mu", "sigma", "n"
        ):
            states[game][pid] = (mu, sigma, n)
    return states


def _from_night(since: Since) -> Q:
    """History rows of the night ``since`` and of the nights after it, in rating order."""
    day, night = since
    return Q(club_night__date__gt=day) | Q(club_night__date=day, club_night_id__gte=night)


def refresh_match_ratings(match_id: int) -> None:
    """After a change to a match's deals: replay its club's ratings from the match's night."""
    match = (
        Match.objects.filter(pk=match_id)
        .values_list(
            "game",
            "table__club_night__date",
            "table__club_night_id",
            "table__club_night__season__club_id",
        )
        .first()
    )
    if match is not None:
        game, day, night, club_id = match
        rebuild_ratings(club_id, game, since=(day, night))


def with_ratings(standings: QuerySet[SeasonStanding], scope: str) -> QuerySet[SeasonStanding]:
    """Season standings, each with its player's current ``rating`` in its game as the
    reader may see it (:func:`scope_for`; ``None``: not rated), the ratings joined (a
    player has one a game and scope).  Joined, not a subquery a line: on a thousand
    players' season the subquery's estimate passed PostgreSQL's JIT threshold (compiling
    took longer than the query)."""
    own = Q(player__ratings__game=F("game"), player__ratings__scope=scope)
    return standings.annotate(
        rated=FilteredRelation("player__ratings", condition=own), rating=F("rated__rating")
    )


def by_rating(standings: QuerySet[SeasonStanding], scope: str) -> QuerySet[SeasonStanding]:
    return with_ratings(standings, scope).order_by(
        "game", F("rating").desc(nulls_last=True), "rank"
    )


def ratings_of(player: Player, scope: str) -> QuerySet[Rating]:
    """The player's current ratings, one per game, as the reader may see them."""
    return Rating.objects.filter(player=player, scope=scope).order_by("game")


def rating_charts(player: Player, scope: str) -> dict[str, SeasonChart]:
    """Per game, the player's rating at the end of each club night they played it, against
    the deals they had played by then (one query for every game, one point per night)."""
    rows = (
        RatingHistory.objects.filter(player=player, scope=scope)
        .select_related("club_night")
        .order_by("game", "club_night__date", "club_night_id")
    )
    points: dict[str, list[tuple[int, float]]] = defaultdict(lambda: [(0, 0.0)])  # new: 0
    nights: dict[str, list[tuple[int, ClubNight]]] = defaultdict(list)
    for row in rows:
        points[row.game].append((row.deals, round(row.rating, 1)))
        nights[row.game].append((row.deals, row.club_night))
    return {
        game: SeasonChart(series=[Series(player, line)], deals=line[-1][0], nights=nights[game])
        for game, line in points.items()
    }
