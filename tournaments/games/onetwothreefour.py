"""The web side of 1234: the dealer, the winner, the order of the drop-outs and the
cards left in every hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.games.onetwothreefour import OneTwoThreeFour
from tournaments.games.base import (
    DemoMatch,
    EntryForm,
    LeagueGame,
    PlannedMatch,
    Section,
    Variant,
    demo_deals,
    winner_note,
)
from tournaments.games.fields import (
    card_field,
    chips,
    codes,
    dealer_field,
    number_field,
    suit_pad_sections,
)
from tournaments.games.statistics import Played, Statistic

CHIPS = {"scoring": "chips", "limit": 100}


class OneTwoThreeFourLeague(LeagueGame):
    name = "1234"
    name_en = "1234"
    name_ja = "1234"
    aliases = ("ヌン・ソーン・サーム・シィー", "1234 ヌン・ソーン・サーム・シィー")
    """The Thai words of its name (the rulebook's title is 「1234」)."""
    hint = _(
        "The winner, the order of the drop-outs (1, 2, …; empty for the winner and whoever "
        "played on), and the cards left in every hand."
    )
    tie_break = _("highest total after the games played")
    record_words = {
        "winner": _("winner"),
        "dropped": _("dropped out"),
        "hands_left": _("cards left"),
    }
    federation = (PlannedMatch(3, CHIPS, target=3), PlannedMatch(4, target=5))
    variants = (
        Variant(
            "scoring",
            _("Scoring"),
            (
                ("winner_plus", _("method 1: the winner scores the others' hands")),
                ("loser_minus", _("method 2: each other player loses their hand")),
                ("chips", _("method 3, chips: the others pay the winner their hands")),
            ),
        ),
    )

    def add_fields(self, form: EntryForm) -> None:
        form.fields["dealer"] = dealer_field(form)
        form.fields["winner"] = chips(form, _("Winner"))
        rules = self.rules
        assert isinstance(rules, OneTwoThreeFour)
        for p in form.players:
            form.fields[f"drop_{p.handle}"] = number_field(
                _("%(name)s: dropped out as number") % {"name": p.shown_name},
                required=False,
                min_value=1,
                max_value=rules.most_dropped(len(form.players)),
            )
            form.fields[f"left_{p.handle}"] = card_field(
                _("%(name)s: cards left") % {"name": p.shown_name}, required=False
            )

    def sections(self, form: EntryForm) -> list[Section]:
        lefts = [f"left_{h}" for h in form.handles]
        drops = [n for n in form.game_field_names if n not in lefts]
        deck = self.deck(form)
        return suit_pad_sections([*drops, *lefts], lefts, deck, hint=self.hint)

    def record(self, form: EntryForm, data: Mapping[str, Any]) -> dict[str, Any]:
        order = sorted((data[f"drop_{h}"], h) for h in form.handles if data.get(f"drop_{h}"))
        return {
            "dealer": data["dealer"],
            "winner": data["winner"],
            "dropped": [h for _n, h in order],
            "hands_left": {h: codes(data.get(f"left_{h}", "")) for h in form.handles},
        }

    def initial(self, record: Mapping[str, Any], handles: list[str]) -> dict[str, Any]:
        dropped = list(record.get("dropped", []))
        values: dict[str, Any] = {"dealer": record.get("dealer"), "winner": record.get("winner")}
        for h in handles:
            values[f"drop_{h}"] = dropped.index(h) + 1 if h in dropped else None
            values[f"left_{h}"] = " ".join(record.get("hands_left", {}).get(h, []))
        return values

    def field_for(self, head: str, player: str) -> str | None:
        if head == "hands_left":
            return f"left_{player}"
        return {"dealer": "dealer", "winner": "winner", "dropped": "winner"}.get(head)

    def note(self, details: Mapping[str, Any], names: Mapping[str, str]) -> str:
        return winner_note(details, names)

    def outcome(self, details: Mapping[str, Any], finished: bool, names: Mapping[str, str]) -> str:
        if "chips" not in details:
            return ""
        chips = ", ".join(f"{names[h]} {n}" for h, n in details["chips"].items())
        return gettext("Chips: %(chips)s") % {"chips": chips}

    counts = ("dropped", "first_dropped", "cards_left", "hand_value", "dealt", "dealt_won", "pot")
    statistics = (
        Statistic(
            "dropped",
            _("Dropped out"),
            _("Games the player dropped out of, of all played."),
            "dropped",
            "deals",
            percent=True,
        ),
        Statistic(
            "first_dropped",
            _("First to drop out"),
            _("Games the player was the first to drop out of."),
            "first_dropped",
        ),
        Statistic(
            "cards_left",
            _("Cards left per game"),
            _("Cards left in the player's hand at the end, per game."),
            "cards_left",
            "deals",
        ),
        Statistic(
            "hand_value",
            _("Hand value per game"),
            _("The worth of the cards left in the player's hand, per game."),
            "hand_value",
            "deals",
        ),
        Statistic(
            "dealt_won",
            _("Won as dealer"),
            _("Games the player dealt and won, of those they dealt."),
            "dealt_won",
            "dealt",
            percent=True,
        ),
        Statistic(
            "pot",
            _("Pot per win"),
            _("The points the player took as winner, per game won."),
            "pot",
            "deals_won",
        ),
    )

    def player_numbers(
        self, deals: Sequence[Played], handle: str, match: Mapping[str, Any]
    ) -> dict[str, int]:
        """From each game's winner, drop-outs and the hands left."""
        n = dict.fromkeys(self.counts, 0)
        for record, details, score, _scores in deals:
            dropped = details.get("dropped", [])
            won = details.get("winner") == handle
            dealt = record.get("dealer") == handle
            n["dropped"] += handle in dropped
            n["first_dropped"] += bool(dropped) and dropped[0] == handle
            n["cards_left"] += len(details.get("hands_left", {}).get(handle, []))
            n["hand_value"] += details.get("hand_sums", {}).get(handle, 0)
            n["dealt"] += dealt
            n["dealt_won"] += dealt and won
            n["pot"] += score if won else 0
        return n

    def demo_matches(self) -> list[DemoMatch]:
        seated = ["emi", "fumi", "jun"]
        deals = demo_deals(self, 2026, seated, CHIPS, target=3)
        return [DemoMatch(2, "Table 2", seated, deals, dict(CHIPS), target=3)]
