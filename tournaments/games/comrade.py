"""The web side of Comrade (カムレッド), the cooperative game: the dealer, and each
player's bids and tricks won as suit letter and count (``S4 C1``).

Not rated (the engine's ``rated``): everyone wins or loses together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from engine.cards import SUIT_ALIASES
from engine.games.comrade_play import SUIT_NAME
from tournaments.games.base import DemoMatch, EntryForm, LeagueGame, PlannedMatch, demo_deals
from tournaments.games.fields import codes, dealer_field, text_field
from tournaments.games.statistics import Played, Statistic
from tournaments.textfile import whole_number

LETTER = {name: letter for letter, name in SUIT_NAME.items()}
FAILURES = {
    "short": _("a bid not met"), "wrong_suit": _("a trick of an unbid suit"),
    "too_many": _("a trick beyond a bid"), "bidding": _("the bidding failed"),
    "bid_over": _("the bids passed the total"), "bid_short": _("the bids fell short"),
    "three_passes": _("three passes in a row"), "stuck": _("no bid card within reach"),
}  # fmt: skip
TITLES = {"Excellent": _("Excellent"), "Great": _("Great"), "Good": _("Good"),
          "Average": _("Average"), "Bad": _("Bad"), "Low": _("Low")}  # fmt: skip


def suit_counts(text: str) -> dict[str, Any]:
    """``"S4 C1"`` → ``{"spades": 4, "clubs": 1}``; what is not that is passed on for the
    engine to name (an unknown suit, a count that is not a number)."""
    counts: dict[str, Any] = {}
    for token in codes(text):
        letter = SUIT_ALIASES.get(token[:1].upper())
        suit = SUIT_NAME[letter] if letter is not None else token[:1]
        count = token[1:]
        number = whole_number(count)
        counts[suit] = count if number is None else number
    return counts


def suit_text(counts: Mapping[str, Any]) -> str:
    """The inverse of :func:`suit_counts`: ``{"spades": 4}`` → ``"S4"``."""
    return " ".join(f"{LETTER.get(suit, suit)}{n}" for suit, n in counts.items())


class ComradeLeague(LeagueGame):
    name = "comrade"
    name_en = "Comrade"
    name_ja = "カムレッド"
    hint = _("Bids and tricks won per player as suit letter and count, e.g. S4 C1.")
    tie_break = _("cooperative: games won give the title")
    record_words = {"bids": _("bids"), "tricks_won": _("tricks won")}
    blank_rows = 5
    federation = (PlannedMatch(3), PlannedMatch(4), PlannedMatch(5))

    def add_fields(self, form: EntryForm) -> None:
        form.fields["dealer"] = dealer_field(form)
        for p in form.players:
            # Suit letters and counts: no pad fits, the phone's keyboard does.
            form.fields[f"bids_{p.handle}"] = text_field(
                _("%(name)s: bids") % {"name": p.shown_name}, required=False
            )
            form.fields[f"won_{p.handle}"] = text_field(
                _("%(name)s: tricks won") % {"name": p.shown_name}, required=False
            )

    def record(self, form: EntryForm, data: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "dealer": data["dealer"],
            "bids": {h: suit_counts(data.get(f"bids_{h}", "")) for h in form.handles},
            "tricks_won": {h: suit_counts(data.get(f"won_{h}", "")) for h in form.handles},
        }

    def initial(self, record: Mapping[str, Any], handles: list[str]) -> dict[str, Any]:
        values: dict[str, Any] = {"dealer": record.get("dealer")}
        for h in handles:
            values[f"bids_{h}"] = suit_text(record.get("bids", {}).get(h, {}))
            values[f"won_{h}"] = suit_text(record.get("tricks_won", {}).get(h, {}))
        return values

    def field_for(self, head: str, player: str) -> str | None:
        if head in ("bids", "tricks_won"):
            return f"{'bids' if head == 'bids' else 'won'}_{player}"
        return "dealer" if head == "dealer" else None

    def note(self, details: Mapping[str, Any], names: Mapping[str, str]) -> str:
        if details.get("success"):
            return gettext("all win")
        how = FAILURES.get(str(details.get("outcome")), str(details.get("outcome")))
        return gettext("lost (%(how)s)") % {"how": how}

    def outcome(self, details: Mapping[str, Any], finished: bool, names: Mapping[str, str]) -> str:
        if "won" not in details or "games" not in details:
            return ""
        line = ngettext(
            "%(won)s of %(games)s game won", "%(won)s of %(games)s games won", details["games"]
        ) % {
            "won": details["won"],
            "games": details["games"],
        }
        title = TITLES.get(str(details.get("title")), details.get("title"))
        return f"{line}: {title}" if finished else line

    counts = (
        "bids",
        "bids_met",
        "tricks",
        "dealt",
        "dealt_won",
        "short",
        "wrong_suit",
        "too_many",
        "bidding",
        "titled",
    )
    statistics = (
        Statistic(
            "bids", _("Bids per game"), _("Tricks the player bid, per game."), "bids", "deals"
        ),
        Statistic(
            "bids_met",
            _("Own bids met"),
            _("Games the player won exactly the tricks they bid in, of all played."),
            "bids_met",
            "deals",
            percent=True,
        ),
        Statistic(
            "tricks", _("Tricks per game"), _("Tricks the player won, per game."), "tricks", "deals"
        ),
        Statistic(
            "dealt_won",
            _("Won as dealer"),
            _("Games the player dealt that the table won, of those they dealt."),
            "dealt_won",
            "dealt",
            percent=True,
        ),
        Statistic(
            "short",
            _("Lost to a bid not met"),
            _("Games lost because a bid was not met, of all played."),
            "short",
            "deals",
            percent=True,
        ),
        Statistic(
            "wrong_suit",
            _("Lost to an unbid suit"),
            _("Games lost to a trick of a suit nobody bid, of all played."),
            "wrong_suit",
            "deals",
            percent=True,
        ),
        Statistic(
            "too_many",
            _("Lost beyond a bid"),
            _("Games lost to a trick beyond a bid, of all played."),
            "too_many",
            "deals",
            percent=True,
        ),
        Statistic(
            "bidding",
            _("Lost in the bidding"),
            _("Games lost before play, in the bidding, of all played."),
            "bidding",
            "deals",
            percent=True,
        ),
        Statistic(
            "titled",
            _("Excellent or Great"),
            _(
                "Finished series the table ended with the title Excellent or Great, of all finished."
            ),
            "titled",
            "finished_matches",
            percent=True,
        ),
    )

    def player_numbers(
        self, deals: Sequence[Played], handle: str, match: Mapping[str, Any]
    ) -> dict[str, int]:
        """From each game's bids, tricks and outcome, and the series' title."""
        n = dict.fromkeys(self.counts, 0)
        for record, details, _score, _scores in deals:
            bids = {s: k for s, k in details.get("bids", {}).get(handle, {}).items() if k}
            won = {s: k for s, k in details.get("tricks_won", {}).get(handle, {}).items() if k}
            outcome = details.get("outcome")
            dealt = record.get("dealer") == handle
            n["bids"] += sum(bids.values())
            n["bids_met"] += bids == won
            n["tricks"] += sum(won.values())
            n["dealt"] += dealt
            n["dealt_won"] += dealt and bool(details.get("success"))
            if outcome in ("short", "wrong_suit", "too_many"):
                n[str(outcome)] += 1
            elif outcome != "success":
                n["bidding"] += 1
        n["titled"] = int(match.get("title") in ("Excellent", "Great"))
        return n

    def demo_matches(self) -> list[DemoMatch]:
        seated = ["gen", "hana", "ito"]
        first = demo_deals(self, 2026, seated, most=1)
        return [DemoMatch(2, "Table 4", seated, [*first, *WON])]


WON = [
    {"dealer": "hana", "bids": {"ito": {"spades": 4, "clubs": 1}, "gen": {"hearts": 4}, "hana": {"diamonds": 3}},
     "tricks_won": {"ito": {"spades": 4, "clubs": 1}, "gen": {"hearts": 4}, "hana": {"diamonds": 3}}},
    {"dealer": "ito", "bids": {"gen": {"clubs": 4}, "hana": {"spades": 3, "hearts": 2}, "ito": {"diamonds": 3}},
     "tricks_won": {"gen": {"clubs": 3}, "hana": {"spades": 3, "hearts": 2}, "ito": {"diamonds": 3, "clubs": 1}}},
]  # fmt: skip
"""Comrade games two and three, as summaries: one won, one lost (a trick of an unbid suit)."""
