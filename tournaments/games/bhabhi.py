"""The web side of Bhabhi (バビ): who was left holding cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.games.bhabhi import FULL_PLAY_KEYS
from tournaments.games.base import DemoMatch, EntryForm, LeagueGame, PlannedMatch, demo_deals
from tournaments.games.fields import chips
from tournaments.games.statistics import Played, Statistic


class BhabhiLeague(LeagueGame):
    name = "bhabhi"
    name_en = "Bhabhi"
    name_ja = "バビ"
    hint = _("Who was left holding cards: the bhabhi.")
    tie_break = _("fewest times bhabhi (−1 each)")
    record_words = {"bhabhi": _("bhabhi"), "out": _("out")}
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

    counts = ("bhabhi", "first_out", "place_sum", "again", "clean_matches", "ordered")
    statistics = (
        Statistic(
            "bhabhi", _("Times bhabhi"), _("Games the player was left holding cards in."), "bhabhi"
        ),
        Statistic(
            "bhabhi_rate",
            _("Bhabhi rate"),
            _("Games the player was bhabhi in, of all played."),
            "bhabhi",
            "deals",
            percent=True,
        ),
        Statistic(
            "first_out",
            _("First out"),
            _(
                "Games the player got rid of their cards first in, of those whose order out was kept."
            ),
            "first_out",
            "ordered",
            percent=True,
        ),
        Statistic(
            "place",
            _("Average place out"),
            _(
                "The mean of the player's places in going out (the bhabhi last), where the order was kept."
            ),
            "place_sum",
            "ordered",
            places=2,
        ),
        Statistic(
            "again",
            _("Bhabhi twice running"),
            _("Games the player was bhabhi in right after being bhabhi."),
            "again",
        ),
        Statistic(
            "clean_matches",
            _("Matches never bhabhi"),
            _("Matches the player was never bhabhi in, of all played."),
            "clean_matches",
            "matches",
            percent=True,
        ),
    )

    def player_numbers(
        self, deals: Sequence[Played], handle: str, match: Mapping[str, Any]
    ) -> dict[str, int]:
        """From each game's bhabhi and, where the record keeps it (a full play, or ``out``:
        the entry form asks only for the bhabhi), the order the others went out in."""
        n = dict.fromkeys(self.counts, 0)
        before = False
        for record, details, _score, _scores in deals:
            out = details.get("out", [])
            bhabhi = details.get("bhabhi") == handle
            n["bhabhi"] += bhabhi
            if "out" in record or not FULL_PLAY_KEYS.isdisjoint(record):
                n["ordered"] += 1
                n["first_out"] += bool(out) and out[0] == handle
                n["place_sum"] += out.index(handle) + 1 if handle in out else len(out) + 1
            n["again"] += bhabhi and before
            before = bhabhi
        n["clean_matches"] = int(n["bhabhi"] == 0)
        return n

    def demo_matches(self) -> list[DemoMatch]:
        seated = ["aki", "ben", "chika", "dai", "emi"]
        # Seed 2028: three games with three different bhabhis.
        deals = demo_deals(self, 2028, seated, target=3)
        return [DemoMatch(2, "Table 3", seated, deals, target=3)]
