"""The web side of Comp-13 (コンプ・イチサン): captured face cards, tapped on a card pad."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments.games.base import (
    DemoMatch,
    EntryForm,
    LeagueGame,
    PlannedMatch,
    Section,
    card_field,
    codes,
    demo_deals,
    winner_note,
)

CARD_PAD = [s + r for s in "SHDC" for r in ("A", "10", "J", "Q", "K")] + ["JK"]
"""The cards a Comp-13 entry needs: the twenty face cards and the joker."""


class Comp13League(LeagueGame):
    name = "comp13"
    name_en = "Comp-13"
    name_ja = "コンプ・イチサン"
    label = "コンプ・イチサン Comp-13"
    hint = _("Tap a field, then the cards (A 10 J Q K and the joker).")
    tie_break = _("ties: more deals won")
    blank_rows = 12
    federation = (PlannedMatch(4, target=12), PlannedMatch(3, target=12))

    def add_fields(self, form: EntryForm) -> None:
        for p in form.players:
            form.fields[f"cap_{p.handle}"] = card_field(
                _("%(name)s: captured (取札)") % {"name": p.display_name}, required=False
            )
            form.fields[f"hand_{p.handle}"] = card_field(
                _("%(name)s: face cards left in hand") % {"name": p.display_name}, required=False
            )

    def sections(self, form: EntryForm) -> list[Section]:
        return [Section(form.game_field_names, hint=self.hint, pad=CARD_PAD)]

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
