"""The web side of Comp-13 (コンプ・イチサン): captured face cards, tapped on a card pad."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine.cards import parse_card
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
from tournaments.games.fields import card_field, codes
from tournaments.games.statistics import Played, Statistic

CARD_PAD = [s + r for s in "SHDC" for r in ("A", "10", "J", "Q", "K")] + ["JK"]
"""The cards a Comp-13 entry names, in the pad's order: the twenty face cards and the joker
(the pad shows those of the match's deck: the joker only where it plays with jokers)."""


class Comp13League(LeagueGame):
    name = "comp13"
    name_en = "Comp-13"
    name_ja = "コンプ・イチサン"
    hint = _("Tap a field, then the cards (A 10 J Q K and the joker).")
    hint_no_joker = _("Tap a field, then the cards (A 10 J Q K).")
    tie_break = _("ties: more deals won")
    record_words = {"captured": _("captured"), "hand_faces": _("face cards in hand")}
    blank_rows = 12
    federation = (PlannedMatch(4, target=12), PlannedMatch(3, target=12))
    variants = (
        Variant(
            "jokers",
            _("Jokers in the deck"),
            (
                (0, _("none: 52 cards")),
                (1, _("1 joker: 53 cards (captured +3, in hand −2)")),
                (2, _("2 jokers: 54 cards (captured +3, in hand −2)")),
                (3, _("3 jokers: 55 cards (captured +3, in hand −2)")),
            ),
        ),
    )

    def add_fields(self, form: EntryForm) -> None:
        for p in form.players:
            form.fields[f"cap_{p.handle}"] = card_field(
                _("%(name)s: captured (取札)") % {"name": p.shown_name}, required=False
            )
            form.fields[f"hand_{p.handle}"] = card_field(
                _("%(name)s: face cards left in hand") % {"name": p.shown_name}, required=False
            )

    def sections(self, form: EntryForm) -> list[Section]:
        deck = self.deck(form)
        pad = [code for code in CARD_PAD if code in deck]
        hint = self.hint if "JK" in pad else self.hint_no_joker
        return [Section(form.game_field_names, hint=hint, pad=pad)]

    def record(self, form: EntryForm, data: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "captured": {h: codes(data.get(f"cap_{h}", "")) for h in form.handles},
            "hand_faces": {h: codes(data.get(f"hand_{h}", "")) for h in form.handles},
        }

    def initial(self, record: Mapping[str, Any], handles: list[str]) -> dict[str, Any]:
        values = {}
        for h in handles:
            values[f"cap_{h}"] = " ".join(record.get("captured", {}).get(h, []))
            values[f"hand_{h}"] = " ".join(record.get("hand_faces", {}).get(h, []))
        return values

    def field_for(self, head: str, player: str) -> str | None:
        return {"captured": f"cap_{player}", "hand_faces": f"hand_{player}"}.get(head)

    def note(self, details: Mapping[str, Any], names: Mapping[str, str]) -> str:
        return winner_note(details, names)

    counts = ("faces", "jokers", "fours", "four_kings", "penalty", "clean", "place_sum", "last")
    statistics = (
        Statistic(
            "faces",
            _("Face cards per deal"),
            _("Face cards (A 10 J Q K) the player captured, per deal."),
            "faces",
            "deals",
        ),
        Statistic("jokers", _("Jokers captured"), _("Jokers the player captured."), "jokers"),
        Statistic(
            "fours",
            _("Four of a kind"),
            _("Bonuses for four cards of a rank other than kings captured."),
            "fours",
        ),
        Statistic(
            "four_kings", _("Four kings"), _("Bonuses for the four kings captured."), "four_kings"
        ),
        Statistic(
            "penalty",
            _("Penalty per deal"),
            _("Points lost for face cards and jokers left in hand, per deal."),
            "penalty",
            "deals",
        ),
        Statistic(
            "clean",
            _("Clean hands"),
            _("Deals ended with no face card or joker in hand, of all played."),
            "clean",
            "deals",
            percent=True,
        ),
        Statistic(
            "deal_place",
            _("Average place in a deal"),
            _("The mean of 1 + the players who scored more than the player in a deal."),
            "place_sum",
            "deals",
            places=2,
        ),
        Statistic(
            "deal_last",
            _("Last in a deal"),
            _("Deals the player scored least in (alone or level), of all played."),
            "last",
            "deals",
            percent=True,
        ),
    )

    def player_numbers(
        self, deals: Sequence[Played], handle: str, match: Mapping[str, Any]
    ) -> dict[str, int]:
        """From each deal's captured cards (a full play's, replayed, or the summary's), the
        penalties and the deal's scores: places by score alone, level scores sharing one
        (the deal's own tie-breaks need the order of play, which a summary may not give)."""
        n = dict.fromkeys(self.counts, 0)
        for record, details, score, scores in deals:
            given = details.get("captured", record.get("captured", {})).get(handle, [])
            captured = [parse_card(c) for c in given]  # checked: each is a card
            ranks = [c.rank for c in captured if not c.is_joker]
            n["faces"] += len(ranks)
            n["jokers"] += len(captured) - len(ranks)
            n["fours"] += sum(1 for r in set(ranks) if r != "K" and ranks.count(r) == 4)
            n["four_kings"] += ranks.count("K") == 4
            n["penalty"] += details.get("penalties", {}).get(handle, 0)
            n["clean"] += details.get("penalties", {}).get(handle, 0) == 0
            n["place_sum"] += 1 + sum(1 for x in scores.values() if x > score)
            n["last"] += score == min(scores.values()) < max(scores.values())
        return n

    def demo_matches(self) -> list[DemoMatch]:
        seated = ["aki", "ben", "chika", "dai"]
        rules = {"jokers": 1}
        first = demo_deals(self, 2026, seated, rules, most=1)
        return [DemoMatch(1, "Table 1", seated, [*first, *DEALS], rules)]


DEALS: list[dict[str, Any]] = [
    {
        "captured": {
            "aki": ["SK", "HK", "DK", "CK", "SA"],
            "ben": ["HA", "D10", "JK"],
            "chika": ["SQ", "HQ"],
            "dai": ["CA", "S10"],
        },
        "hand_faces": {"aki": [], "ben": [], "chika": ["CQ"], "dai": ["DJ"]},
    },
    {
        "captured": {
            "aki": ["S10", "H10"],
            "ben": ["SJ", "HJ", "DJ", "CJ", "DA"],
            "chika": ["SK", "JK", "HA"],
            "dai": ["DQ", "CQ", "C10"],
        },
        "hand_faces": {"aki": ["SA", "HK"], "ben": [], "chika": [], "dai": ["CK"]},
    },
    {
        "captured": {
            "aki": ["SQ", "HQ", "DQ", "CQ"],
            "ben": ["SA"],
            "chika": ["HK", "DK", "D10"],
            "dai": ["JK", "CA", "H10", "S10"],
        },
        "hand_faces": {"aki": ["HA"], "ben": ["SJ", "CK"], "chika": [], "dai": []},
    },
    {
        "captured": {
            "aki": ["CK"],
            "ben": ["HA", "SA", "H10"],
            "chika": ["SJ", "DJ"],
            "dai": ["SK", "HK", "DA"],
        },
        "hand_faces": {"aki": ["JK", "CJ"], "ben": [], "chika": ["HQ"], "dai": ["C10"]},
    },
]
