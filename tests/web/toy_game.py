"""A ninth game that exists only in the tests: one engine module's worth and one web
module's worth, registered at run time, to show that nothing else names a game.

Toy: two to four players; the deal record names the winner, who takes one point
from every other player.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from engine.game import Game, Scored
from engine.problems import Checker
from tournaments.games.base import EntryForm, LeagueGame, player_choices


class Toy(Game):
    name = "toy"
    player_counts = frozenset({2, 3, 4})
    deal_keys = frozenset({"winner"})
    best_players = 3

    def score_deal(
        self, record: Mapping[str, Any], players: list[str], rules: dict[str, Any], checker: Checker
    ) -> Scored | None:
        winner = record.get("winner")
        if winner not in players:
            checker.add("unknown_player", "winner", f"{winner!r} is not a player of this deal")
            return None
        scores = {p: len(players) - 1 if p == winner else -1 for p in players}
        return Scored(scores, (winner,), {"winner": winner})


class ToyLeague(LeagueGame):
    name = "toy"
    name_en = "Toy"
    name_ja = "トイ"
    label = "トイ Toy"
    hint = "Who won the toy deal."
    tie_break = "toy tie-break: most points"
    blank_rows = 7

    def add_fields(self, form: EntryForm) -> None:
        form.fields["toy_winner"] = forms.ChoiceField(
            label="Toy winner", choices=player_choices(form)
        )

    def record(self, form: EntryForm, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"winner": data["toy_winner"]}

    def initial(self, record: Mapping[str, Any], handles: list[str]) -> dict[str, Any]:
        return {"toy_winner": record.get("winner")}

    def field_for(self, head: str, player: str) -> str | None:
        return "toy_winner" if head == "winner" else None

    def note(self, details: Mapping[str, Any], names: Mapping[str, str]) -> str:
        return f"toy won by {details['winner']}"
