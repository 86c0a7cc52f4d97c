"""The web side of Bhabhi (バビ): who was left holding cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.games.base import (
    DemoMatch,
    EntryForm,
    LeagueGame,
    PlannedMatch,
    chips,
    demo_deals,
)


class BhabhiLeague(LeagueGame):
    name = "bhabhi"
    name_en = "Bhabhi"
    name_ja = "バビ"
    label = "バビ Bhabhi"
    hint = _("Who was left holding cards: the bhabhi.")
    tie_break = _("fewest times bhabhi (−1 each)")
    federation = (PlannedMatch(5, target=5), PlannedMatch(4, {"take_hand": "left"}, target=5))

    def add_fields(self, form: EntryForm) -> None:
        form.fields["bhabhi"] = chips(form, _("Bhabhi (バビ)"))

    def record(self, form: EntryForm, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"bhabhi": data["bhabhi"]}

    def initial(self, record: Mapping[str, Any], handles: list[str]) -> dict[str, Any]:
        return {"bhabhi": record.get("bhabhi")}

    def field_for(self, head: str, player: str) -> str | None:
        return "bhabhi" if head == "bhabhi" else None

    def note(self, details: Mapping[str, Any], names: Mapping[str, str]) -> str:
        who = details.get("bhabhi")
        return gettext("bhabhi: %(name)s") % {
            "name": names.get(who, who) if isinstance(who, str) else who
        }

    def demo_matches(self) -> list[DemoMatch]:
        seated = ["aki", "ben", "chika", "dai", "emi"]
        # Seed 2028: three games with three different bhabhis.
        deals = demo_deals(self, 2028, seated, target=3)
        return [DemoMatch(2, "Table 3", seated, deals, target=3)]
