"""A ninth game that exists only in the tests, written by the steps of "Adding a game"
(docs/architecture.md) that code can take: its rules (step 1), its web side (5), its
statistics and their direct count (6) and its words in Japanese (7, :data:`JAPANESE`).
``tests/recipes/test_adding_a_game.py`` registers it at test time.

Toy: two to four players; a deal's record names its winner, who takes one point from
every other player; a match is four deals.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from engine.game import Game, Scored
from engine.match import MatchState
from engine.problems import Checker
from tournaments.games.base import EntryForm, LeagueGame
from tournaments.games.fields import player_choices
from tournaments.games.statistics import Played, Statistic

# -- step 1: the rules --------------------------------------------------------------------


class Toy(Game):
    name = "toy"
    player_counts = frozenset({2, 3, 4})
    deal_keys = frozenset({"winner"})
    best_players = 3
    default_target = 4
    accepts_target = True

    def score_deal(
        self, record: Mapping[str, Any], players: list[str], rules: dict[str, Any], checker: Checker
    ) -> Scored | None:
        winner = record.get("winner")
        if winner not in players:
            checker.add(
                "unknown_player", "winner", gettext_noop("%(who)s is not a player"), who=winner
            )
            return None
        scores = {p: len(players) - 1 if p == winner else -1 for p in players}
        return Scored(scores, (winner,), {"winner": winner})

    def is_finished(
        self, side_totals: Sequence[int], deals_played: int, target: int | None
    ) -> bool:
        return target is not None and deals_played >= target

    def random_deal(self, rng: random.Random, state: MatchState) -> dict[str, Any] | None:
        return {
            "game": self.name,
            "players": list(state.players),
            "winner": rng.choice(state.players),
        }


# -- steps 5 and 6: the web side and its statistics ------------------------------------------


class ToyLeague(LeagueGame):
    name = "toy"
    name_en = "Toy"
    name_ja = "トイ"
    hint = _("Who won the toy deal.")
    tie_break = _("toy tie-break: most points")
    record_words = {"winner": _("toy winner")}
    blank_rows = 7

    def add_fields(self, form: EntryForm) -> None:
        form.fields["toy_winner"] = forms.ChoiceField(
            label=_("Toy winner"), choices=player_choices(form)
        )

    def record(self, form: EntryForm, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"winner": data["toy_winner"]}

    def initial(self, record: Mapping[str, Any], handles: list[str]) -> dict[str, Any]:
        return {"toy_winner": record.get("winner")}

    def field_for(self, head: str, player: str) -> str | None:
        return "toy_winner" if head == "winner" else None

    def note(self, details: Mapping[str, Any], names: Mapping[str, str]) -> str:
        return gettext("toy won by %(name)s") % {"name": names.get(details["winner"], "?")}

    counts = ("again", "first_won")
    statistics = (
        Statistic("again", _("Won twice running"), _("Toy deals won right after a win."), "again"),
        Statistic(
            "first_won",
            _("First deals won"),
            _("Matches whose first toy deal the player won, of all played."),
            "first_won",
            "matches",
            percent=True,
        ),
    )

    def player_numbers(
        self, deals: Sequence[Played], handle: str, match: Mapping[str, Any]
    ) -> dict[str, int]:
        won = [d.details["winner"] == handle for d in deals]
        return {
            "again": sum(1 for before, now in zip(won, won[1:], strict=False) if before and now),
            "first_won": int(bool(won) and won[0]),
        }


def direct_count(deals: list[tuple], matches: list[tuple]) -> dict[str, int | None]:
    """Step 6's direct count (``tests/scoring/test_statistics.py``'s ``GAMES``): the toy's
    figures from the checked deals of each match (``matches``' last item)."""
    n: dict[str, int] = defaultdict(int)
    for match in matches:
        won = [outcome.details["winner"] == handle for _record, outcome, handle in match[6]]
        n["again"] += sum(1 for i in range(1, len(won)) if won[i - 1] and won[i])
        n["first_won"] += won[0]
    return {"again": n["again"], "first_won": round(100 * n["first_won"] / len(matches))}


# -- step 7: its words in Japanese ------------------------------------------------------------

JAPANESE = {
    "Who won the toy deal.": "トイの勝者を選びます。",
    "toy tie-break: most points": "トイの同点：得点の多い順",
    "toy winner": "トイの勝者",
    "Toy winner": "トイの勝者",
    "toy won by %(name)s": "トイの勝者：%(name)s",
    "Won twice running": "連勝",
    "Toy deals won right after a win.": "勝った直後のトイのディールにも勝った回数。",
    "First deals won": "初回の勝利",
    "Matches whose first toy deal the player won, of all played.": "最初のトイのディールに勝った対戦の割合。",
}
"""The entries step 7 appends to locale/ja/LC_MESSAGES/django.po for the toy."""


def po_entries() -> str:
    """:data:`JAPANESE` as a catalogue's entries, as they are appended by hand."""
    quoted = [(k.replace('"', '\\"'), v.replace('"', '\\"')) for k, v in JAPANESE.items()]
    return "".join(f'\nmsgid "{k}"\nmsgstr "{v}"\n' for k, v in quoted)
