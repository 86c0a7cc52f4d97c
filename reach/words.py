"""What a player is told, in the language of the subscription it is sent to.

Each function returns ``words()``: called under ``translation.override`` for each
subscription, it gives the notification's title and body in that language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

from scoring.finals import ordinal
from tournaments.games import label
from tournaments.models import Move
from tournaments.names import night_label, table_label

Words = Callable[[], tuple[str, str]]


def _round(number: int | None) -> str:
    return gettext("Round %(n)s") % {"n": number} if number else gettext("Tonight's draw")


def drawn(number: int | None, table: str, seat: int, others: list[Any]) -> Words:
    """Where the player sits, and with whom: ``others`` are the other players (their
    names said in the subscription's language: ``Player.shown_name``)."""

    def words() -> tuple[str, str]:
        title = gettext("%(round)s: %(table)s, seat %(seat)s") % {
            "round": _round(number),
            "table": table_label(table),
            "seat": seat,
        }
        names = gettext(", ").join(p.shown_name for p in others)
        body = gettext("With %(names)s.") % {"names": names} if others else ""
        return title, body

    return words


def sits_out(number: int | None) -> Words:
    def words() -> tuple[str, str]:
        return _round(number), gettext("You sit out this round.")

    return words


def waiting(number: int, table: str, score: int) -> Words:
    def words() -> tuple[str, str]:
        title = gettext("Deal %(number)s at %(table)s waits for your PIN") % {
            "number": number,
            "table": table_label(table),
        }
        return title, gettext("Your score: %(score)+d. Open to confirm it.") % {"score": score}

    return words


def corrected(number: int, game: str, effect: dict[str, Any]) -> Words:
    def words() -> tuple[str, str]:
        title = gettext("A correction of deal %(number)s (%(game)s)") % {
            "number": number,
            "game": label(game),
        }
        body = gettext("Your total %(before)s → %(after)s.") % {
            "before": effect["total_before"],
            "after": effect["total_after"],
        }
        if effect["rank_before"] != effect["rank_after"]:
            body += " " + gettext("Your place %(before)s → %(after)s.") % {
                "before": ordinal(effect["rank_before"]) if effect["rank_before"] else "–",
                "after": ordinal(effect["rank_after"]) if effect["rank_after"] else "–",
            }
        return title, body

    return words


def placed(kind: str, number: int | None, rank: int, everyone: int) -> Words:
    def words() -> tuple[str, str]:
        if kind == "round.closed":
            title = gettext("Round %(n)s is over") % {"n": number}
        else:
            title = gettext("Tonight is over")
        body = ngettext(
            "You are %(place)s of %(count)s player tonight.",
            "You are %(place)s of %(count)s players tonight.",
            everyone,
        ) % {"place": ordinal(rank), "count": everyone}
        return title, body

    return words


MOVES = {
    Move.Kind.UP: gettext_noop("You go up to %(division)s."),
    Move.Kind.DOWN: gettext_noop("You go down to %(division)s."),
    Move.Kind.STAY: gettext_noop("You stay in %(division)s."),
    Move.Kind.NEW: gettext_noop("You are placed in %(division)s."),
}


def moved(season: str, kind: str, division: str) -> Words:
    def words() -> tuple[str, str]:
        title = gettext("%(season)s is closed") % {"season": season}
        said = MOVES.get(Move.Kind(kind)) if kind in Move.Kind.values else None
        if said is None or not division:
            return title, gettext("See the final standings.")
        return title, gettext(said) % {"division": division}

    return words


def champion(season: str) -> Words:
    def words() -> tuple[str, str]:
        return gettext("%(season)s is closed") % {"season": season}, gettext(
            "You are the champion!"
        )

    return words


def _of_night(title: str, body: str, season: str, night: Any) -> Words:
    def words() -> tuple[str, str]:
        return gettext(title) % {"night": night_label(night)}, gettext(body) % {"season": season}

    return words


def called_off(season: str, night: Any) -> Words:
    return _of_night(
        gettext_noop("Called off: %(night)s"),
        gettext_noop("%(season)s: this club night does not take place."),
        season,
        night,
    )


def held_after_all(season: str, night: Any) -> Words:
    return _of_night(
        gettext_noop("Held after all: %(night)s"),
        gettext_noop("%(season)s: this club night takes place after all."),
        season,
        night,
    )
