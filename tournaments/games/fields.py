"""The entry form's fields as the games' modules build them: a player chosen by tapping
their name, cards typed by the card pads, numbers on the number pad, the odd code on the
phone's own keyboard, and the sections that put a pad beside the fields it types into.
Every game module builds its form (:meth:`~tournaments.games.base.LeagueGame.add_fields`,
:meth:`~tournaments.games.base.LeagueGame.sections`) from these."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.games.base import EntryForm, Section, Text


def codes(text: str) -> list[str]:
    """Card codes typed with spaces or commas: ``"SA, HK"`` → ``["SA", "HK"]``."""
    return [c for c in text.replace(",", " ").split() if c]


def player_choices(form: EntryForm) -> list[tuple[str, str]]:
    return [(p.handle, p.shown_name) for p in form.players]


def chips(form: EntryForm, label: Text, **kwargs: Any) -> forms.ChoiceField:
    """Choose one player by tapping their name."""
    return forms.ChoiceField(
        label=label, choices=player_choices(form), widget=forms.RadioSelect, **kwargs
    )


def _typed(label: Text, required: bool, **attrs: str) -> forms.CharField:
    """A short line of codes (cards, bids) typed by a pad or a keyboard, as ``attrs`` say."""
    widget = forms.TextInput(attrs={"autocomplete": "off", **attrs})
    return forms.CharField(label=label, required=required, max_length=200, widget=widget)


def card_field(label: Text, required: bool = True) -> forms.CharField:
    """Cards typed by the card pad: the phone's keyboard stays down (inputmode none)."""
    return _typed(label, required, **{"class": "cards", "inputmode": "none"})


def suit_pad(deck: Mapping[str, int]) -> dict[str, Any]:
    """A section's pad for the cards of ``deck``: the suit pad with the deck's suits and
    ranks, and a button of its own for each other card (a joker, Rettler's bridge)."""
    plain = [c for c in deck if c not in off_the_suit_pad(deck)]
    return {
        "suit_pad": True,
        "suits": [s for s in SUITS if any(c[:1] == s for c in plain)],
        "ranks": [r for r in RANKS if any(c[1:] == r for c in plain)],
        "pad": off_the_suit_pad(deck),
    }


def suit_pad_sections(
    names: Sequence[str], cards: Sequence[str], deck: Mapping[str, int], hint: Text = ""
) -> list[Section]:
    """The fields ``names`` in order, the card fields ``cards`` among them in a section of
    their own under the pad of ``deck``'s cards (:func:`suit_pad`), so that the pad stands
    next to the fields it types into."""
    names = list(names)
    first = names.index(cards[0]) if cards else len(names)
    before = [n for n in names[:first] if n not in cards]
    after = [n for n in names[first:] if n not in cards]
    out = [Section(before, hint=hint)] if before else []
    out.append(Section(list(cards), hint="" if before else hint, pop_up=True, **suit_pad(deck)))
    return out + ([Section(after)] if after else [])


def text_field(label: Text, required: bool = True) -> forms.CharField:
    """Letters and digits no pad fits (Comrade's ``S4 C1``): the phone's own keyboard, in
    capitals."""
    return _typed(label, required, autocapitalize="characters", spellcheck="false")


SUITS = "SHDC"
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


def off_the_suit_pad(deck: Mapping[str, int]) -> list[str]:
    """The cards of ``deck`` the suit pad cannot type (jokers and the like)."""
    return [c for c in deck if not (c[:1] in SUITS and c[1:] in RANKS)]


def number_field(
    label: Text, css: str = "points", hint: str | None = None, **kwargs: Any
) -> forms.IntegerField:
    """A number typed on the phone's number pad; the page moves on to the next such field
    as soon as no further digit could follow (``max_value`` reached in digits).  Its range
    (``min_value`` to ``max_value``, the engine's) is said by the field before Save (``hint``
    says it otherwise) and set as the input's ``min`` and ``max``."""
    attrs = {"inputmode": "numeric", "class": css, "data-advance": "1", "autocomplete": "off"}
    low, high = kwargs.get("min_value"), kwargs.get("max_value")
    if high is not None:
        attrs["data-max"] = str(high)
    if hint is None and low is not None and high is not None:
        hint = range_hint(low, high)
    widget = forms.NumberInput(attrs=attrs)
    return forms.IntegerField(label=label, widget=widget, help_text=hint or "", **kwargs)


def range_hint(low: int, high: int) -> str:
    """``14–20``: the numbers a field takes, in the reader's language."""
    return gettext("%(low)s–%(high)s") % {"low": low, "high": high}


def dealer_field(form: EntryForm) -> forms.ChoiceField:
    return chips(form, _("Dealer (親)"), initial=form.next_deal.get("dealer"))
