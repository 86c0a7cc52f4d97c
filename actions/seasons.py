"""A season's settings, stored by one action that every page, the API and the admin use.

A season's standings and its club's ratings are derived from some of its settings: whether
it is public, whether its deals need a second person's confirmation, its games, and how it
ranks (``tournaments.ranking``: re-ranked from the stored match lines, no deal replayed).  When
one of them changes, the derived rows are made again once the change commits
(``actions.after.seasons_changed``: ``scoring`` rebuilds the season and its club's
ratings); a change of confirmation changes what counts in every match, so each of them is
checked again (its ``version`` moves on).

**Closing.** A season's moves are proposed by its rule (``scoring.divisions.lines``)
from its standings, which :func:`close_season` first brings up to date under its locks
(a deal whose refresh has not run yet still counts).  :func:`close_season` stores the administrator's list (the proposal, changed or not) in the
next season — a season of the given name and of this one's visibility, made like this
one when the club has none — as its placements, and each player's move in the player's
history, under the locks it names (one closing of a club at a time, both seasons' rows
in the order of their ids).  A second confirmation finds the season closed and returns
the moves made the first time, changing nothing.

The proposal and the moves list every player, for the club's administrators; other
readers see only the players they may see (``tournaments.divisions.shown``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

import engine
from actions import after
from actions.unique import taken_meanwhile
from dbtools import locks
from scoring.divisions import Line, lines, made
from scoring.rebuild import standings_up_to_date
from tournaments import errors
from tournaments.divisions import CLOSED
from tournaments.errors import Rejection, error, problems, refusal
from tournaments.games import label
from tournaments.messages import localize
from tournaments.models import Division, Match, Move, Placement, Season
from tournaments.names import normal
from tournaments.ranking import BEST

RANKING = ("ranking", "best_of", "qualify_by", "qualify_minimum")
"""How the season ranks (``tournaments.ranking``): a change re-ranks its stored lines."""

DERIVED_FROM = ("public", "require_confirmation", "games", *RANKING)
"""A season's settings that its standings and its club's ratings are derived from."""


def rules_problem(season: Season) -> str:
    """Why the season's ``rules`` cannot be the variants of its games, in the reader's
    words ("" when they can): an object by game, each a game of the season, with rules
    its engine takes (checked as a match's are).  Every way a season is stored asks it
    (:func:`save_season`, a club's backup restored)."""
    if not isinstance(season.rules, dict):
        return str(_('The rules are an object by game, e.g. {"1234": {"scoring": "chips"}}.'))
    for game, rules in season.rules.items():
        if game not in (season.games or []) or game not in engine.GAMES:
            return str(_("%(game)s is not a game of this season.") % {"game": game})
        size = engine.GAMES[game].best_players
        record = {"game": game, "players": [f"p{i}" for i in range(size)], "rules": rules}
        checked = engine.check_match({**record, "deals": []}).errors
        if found := [p for p in checked if p.path.startswith("rules")]:
            return f"{label(game)}: {localize(problems(found)[0])}"
    return ""


def games_kept_problem(season: Season) -> str:
    """Why the season cannot leave out a game it dropped, in the reader's words ("" when
    it can): a game with matches in the season stays in it, said by the game's name
    ("Napoleon, Twenty-Two have matches…", never the record's ``twentytwo``)."""
    if not season.pk:
        return ""
    played = season.games_with_matches() - set(season.games)
    if not played:
        return ""
    names = ", ".join(sorted(label(g) for g in played))
    return ngettext(
        "%(games)s has matches in this season: a game with matches stays in its season.",
        "%(games)s have matches in this season: games with matches stay in their season.",
        len(played),
    ) % {"games": names}


def check_season(season: Season) -> None:
    """Refuse a season that cannot be stored as it is (Django's ``ValidationError``, by
    field, in the reader's language): its model's checks, its rules, the games it keeps.
    :func:`save_season` asks it, and the admin's form before its save."""
    season.full_clean()
    if unfit := rules_problem(season):
        raise ValidationError({"rules": ValidationError(unfit, code="rules")})
    if kept := games_kept_problem(season):
        raise ValidationError({"games": ValidationError(kept, code="game_has_matches")})


def save_season(season: Season) -> Season:
    """Store a new or changed season; what derives from a changed setting is made again
    once the change commits (a new season has no match yet: nothing to make).

    The season is checked first (``Season.clean`` and its fields): a page, the API, the
    admin and the divisions' next season are refused alike, in the reader's language, and
    a refused season stores nothing (Django's ``ValidationError``, by field)."""
    check_season(season)
    with taken_meanwhile(season), transaction.atomic():
        before = (
            Season.objects.select_for_update(no_key=True)
            .filter(pk=season.pk)
            .values(*DERIVED_FROM)
            .first()
            if season.pk
            else None
        )
        season.save()
        if before is None or all(before[name] == getattr(season, name) for name in DERIVED_FROM):
            return season
        if before["require_confirmation"] != season.require_confirmation:
            Match.objects.filter(table__club_night__season_id=season.pk).update(
                version=F("version") + 1
            )
        after.seasons_changed([season.pk])
    return season


def best_of_kept(ranking: str, best_of: int | None, given: bool) -> int | None:
    """A season's best N once a request ranked it by ``ranking``: a method that counts no
    best N drops the N the season had when the request gave none (the page's field left
    as it was, the API's left out); a best N the request gave stays, for ``Season.clean``
    to refuse with a method that counts none (``{"ranking": "total", "best_of": 5}``)."""
    return best_of if given or ranking in BEST else None


NAME_LENGTH = 200
FILLED = gettext_noop("season %(name)s has its divisions already")
CHANGED = gettext_noop("season %(name)s was renamed meanwhile: name the next season again")
INTO_PUBLIC = gettext_noop(
    "season %(name)s is public and this season is private: close this season into a "
    "private season, or change Public on one of the two first"
)
INTO_PRIVATE = gettext_noop(
    "season %(name)s is private and this season is public: close this season into a "
    "public season, or change Public on one of the two first"
)


@dataclass(frozen=True)
class Closed:
    season: Season
    next_season: Season
    moves: list[Move]
    again: bool
    """The season was closed already: nothing was changed."""


def _wanted(name: Any) -> str:
    """The next season's name as given, checked."""
    return errors.text(
        name,
        "next_season",
        most=NAME_LENGTH,
        missing_words=gettext_noop("name the next season"),
        too_long_words=gettext_noop("a season's name is at most %(n)s characters"),
    )


def _named(club_id: int, name: str) -> Season | None:
    """The club's season of this name, as names are compared (``Spring`` = ``SPRING``)."""
    return next(
        (s for s in Season.objects.filter(club_id=club_id) if normal(s.name) == normal(name)),
        None,
    )


def _made_like(season: Season, name: str) -> Season:
    """A new season made like ``season`` (its games, visibility, ranking, rules and
    closing rule)."""
    made = Season(
        club_id=season.club_id,
        name=name,
        games=list(season.games),
        require_confirmation=season.require_confirmation,
        public=season.public,
        ranking=season.ranking,
        best_of=season.best_of,
        qualify_by=season.qualify_by,
        qualify_minimum=season.qualify_minimum,
        moves_by=season.moves_by,
        moves=season.moves,
    )
    try:
        made.full_clean()
    except ValidationError as refused:
        first = next(iter(refused.messages), "")
        raise refusal("invalid", "next_season", "%(reason)s", reason=first) from None
    return save_season(made)


def _one_closing_at_a_time(club_id: int) -> None:
    """Wait for any other closing of the club's seasons to commit (PostgreSQL: a lock on
    the club's closings, held to the end of the transaction, that nothing else takes;
    SQLite writes one transaction at a time anyway).  Not the club's row: accepting an
    invitation locks a player, then the club, and a closing's rows refer to players."""
    locks.until_commit(f"closing seasons of club {club_id}")


def _locked(*pks: int) -> dict[int, Season]:
    """The seasons ``pks`` locked in one statement, in the order of their ids: the order in
    which the seasons' rebuild (``scoring.season_totals``) locks them too, so that two
    transactions never wait for each other's seasons in a circle."""
    rows = Season.objects.select_for_update(no_key=True).filter(pk__in=pks).order_by("pk")
    return {s.pk: s for s in rows}


def _check_next(season: Season, following: Season, name: str) -> None:
    """Refuse a next season that is this one, was renamed meanwhile, has its divisions
    filled already (or is closed), or is not of this season's visibility."""
    if following.pk == season.pk:
        raise refusal("invalid", "next_season", gettext_noop("the next season is another season"))
    if normal(following.name) != normal(name):  # renamed after it was looked up
        raise refusal("conflict", "next_season", CHANGED, name=following.name)
    if following.closed_at is not None or Placement.objects.filter(season=following).exists():
        raise refusal("conflict", "next_season", FILLED, name=following.name)
    if following.public != season.public:
        raise refusal(
            "visibility",
            "next_season",
            INTO_PUBLIC if following.public else INTO_PRIVATE,
            name=following.name,
        )


def close_season(
    season: Season, next_name: Any, choices: Mapping[Any, Any] | None = None
) -> Closed:
    """Close ``season``: its players placed in the next season as ``choices`` say
    (player id → a division's name, ``""`` for none; a player left out goes as
    proposed), every move kept.  Closed already: the moves made then, nothing changed.

    **Only into a season of the same visibility.**  A public season closes into a public
    one and a private season into a private one; the next season named is refused
    otherwise (400, saying which season is which), and nothing is stored.  A club expects
    its whole ladder to carry on into the next season: leaving out the players the other
    side may not see would drop people from the ladder without anyone noticing (and
    closing a private season into a public one would publish its players), while a next
    season of the other visibility is almost always a box forgotten on the season's
    form.  The administrator makes the two alike (**Public** on either season's form)
    and closes again.
    A next season made by the closing is made like this one, so of its visibility.

    **Locks, in one order.**  A closing first waits for any other closing of the club
    (:func:`_one_closing_at_a_time`: two closings into one new season make it once),
    then locks the closing season and the next one in one statement, in the order of
    their ids (:func:`_locked`), and checks both again under those locks.  Closing A into
    B while B closes into A, or two seasons into one C, at the same moment: one closes,
    the other is refused (400: the season it names has its divisions already), never a
    deadlock, and the refused one writes nothing."""
    choices = choices or {}
    if not isinstance(choices, Mapping):
        raise refusal("invalid", "moves", gettext_noop("say each player's next division"))
    with transaction.atomic():
        _one_closing_at_a_time(season.club_id)
        # Only a closing changes ``closed_at``, and no other closing of the club runs now.
        current = Season.objects.select_related("next_season").get(pk=season.pk)
        if current.closed_at is not None and current.next_season is not None:
            return Closed(current, current.next_season, made(current), True)
        if current.closed_at is not None:  # its next season was deleted since
            raise Rejection((error("closed", "", CLOSED),), conflict=True)
        name = _wanted(next_name)
        following = _named(season.club_id, name) or _made_like(current, name)
        locked = _locked(season.pk, following.pk)
        closing, following = locked[season.pk], locked[following.pk]
        _check_next(closing, following, name)
        standings_up_to_date(closing.pk)
        proposal = lines(closing)
        if not proposal:
            raise refusal(
                "no_divisions",
                "",
                gettext_noop("the season has no divisions to move players between"),
            )
        listed = {str(line.player.pk): line for line in proposal}
        for key in choices:
            if str(key) not in listed:
                raise refusal(
                    "not_found",
                    "moves",
                    gettext_noop("player %(id)s is not in this season's divisions"),
                    id=str(key)[:20],
                )
        divisions = list(following.divisions.order_by("order"))
        if not divisions:
            divisions = [
                Division.objects.create(season=following, name=d.name, order=d.order)
                for d in closing.divisions.order_by("order")
            ]
        at = {normal(d.name): d for d in divisions}
        chosen: dict[str, Line] = {}
        for key, line in listed.items():
            going = choices.get(key, choices.get(line.player.pk, line.going))
            if going not in ("", None) and (not isinstance(going, str) or normal(going) not in at):
                raise refusal(
                    "invalid_choice",
                    f"moves.{key}",
                    gettext_noop("no division %(name)s in season %(season)s"),
                    name=str(going)[:20],
                    season=following.name,
                )
            target = at[normal(going)].name if going else ""
            chosen[key] = replace(line, going=target, kind=_kind(line.division, target, at))
        Placement.objects.bulk_create(
            Placement(season=following, division=at[normal(x.going)], player=x.player)
            for x in chosen.values()
            if x.going
        )
        Move.objects.bulk_create(
            Move(
                season=closing,
                next_season=following,
                player=x.player,
                kind=x.kind,
                division=x.division.name if x.division else "",
                rank=x.rank,
                next_division=x.going,
            )
            for x in chosen.values()
        )
        closing.closed_at, closing.next_season = timezone.now(), following
        closing.save(update_fields=["closed_at", "next_season"])
        after.announce("season.closed", season=closing.pk)
    return Closed(closing, following, made(closing), False)


def _kind(division: Division | None, going: str, at: Mapping[str, Division]) -> str:
    if not going:
        return Move.Kind.LEFT.value
    if division is None:
        return Move.Kind.NEW.value
    order = at[normal(going)].order
    if order < division.order:
        return Move.Kind.UP.value
    return Move.Kind.DOWN.value if order > division.order else Move.Kind.STAY.value
