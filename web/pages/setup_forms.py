"""The league administrator's forms: the club, players, members, attendance (a season's
form is `season_form`, a night's `night_form`)."""

from __future__ import annotations

import unicodedata
import zoneinfo
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from actions import members as club_members
from actions import pins, renames
from tournaments.errors import Rejection
from tournaments.games import LEAGUE_GAMES
from tournaments.messages import localize
from tournaments.models import Club, ClubNight, Membership, Player
from tournaments.names import (
    found_by,
    guessed_reading,
    look_alike,
    reading_order,
    unique_handle,
    unspaced,
)


def _account(username: str) -> Any:
    if not username:
        return None
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise forms.ValidationError(_("No account is called “%(name)s”.") % {"name": username})
    return user


class PlayerForm(forms.ModelForm):
    """A player of the club: the handle is made from the name unless one is typed."""

    handle = forms.CharField(
        label=_("Handle"),
        required=False,
        max_length=40,
        help_text=_("How deal records name the player; made from the name when left empty."),
    )
    account = forms.CharField(
        label=_("Account (user name)"),
        required=False,
        help_text=_("The player's own sign-in, if any: they may then confirm their deals."),
    )
    another = forms.BooleanField(
        label=_("Another person of this name"),
        required=False,
        widget=forms.HiddenInput,  # shown (a checkbox) once the name is asked about
        help_text=_("Tick only when the club has a player of this name who is someone else."),
    )
    new_pin = forms.CharField(
        label=_("New PIN (4 to 8 digits)"),
        required=False,
        max_length=8,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "new-password"}),
        help_text=_("For confirming deals at the table; empty keeps the PIN as it is."),
    )

    class Meta:
        model = Player
        fields = ["display_name", "name_ja", "reading", "handle"]
        labels = {"display_name": _("Name"), "name_ja": _("Name in Japanese")}

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        if self.instance.pk and self.instance.user:
            self.fields["account"].initial = self.instance.user.get_username()
        if self.instance.pk and not self.instance.reading:  # the guess the lists sort by
            if guess := guessed_reading(self.instance.shown_name):
                self.fields["reading"].widget.attrs["placeholder"] = guess
        if self.instance.pk:  # the question is for a new player only
            del self.fields["another"]
        else:  # a PIN is set once the player exists (their page, or edit)
            del self.fields["new_pin"]

    def clean_handle(self) -> str:
        typed = self.cleaned_data.get("handle", "").strip()
        others = Player.objects.filter(club=self.club).exclude(pk=self.instance.pk)
        if not typed:
            if self.instance.pk:
                return self.instance.handle
            name = self.data.get(self.add_prefix("display_name"), "")
            if not self.errors.get("reading"):  # romaji from the reading typed, not a guess
                name = unicodedata.normalize("NFKC", self.cleaned_data.get("reading") or name)
            return unique_handle(name, set(others.values_list("handle", flat=True)))
        if slugify(typed) != typed:
            raise forms.ValidationError(
                _("Use small letters, digits and hyphens, e.g. %(example)s.")
                % {"example": slugify(typed) or "lena-ito"}
            )
        if others.filter(handle=typed).exists():
            raise forms.ValidationError(_("Another player of the club has this handle."))
        return typed

    def clean_account(self) -> Any:
        """A member of the club, and no other player's account in it."""
        account = _account(self.cleaned_data.get("account", "").strip())
        if problem := club_members.account_problem(self.club.pk, account, self.instance.pk):
            raise forms.ValidationError(localize(problem))
        return account

    def clean_new_pin(self) -> str:
        pin = self.cleaned_data.get("new_pin", "").strip()
        if pin and not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8):
            raise forms.ValidationError(_("A PIN is 4 to 8 digits."))
        return pin

    def clean(self) -> dict[str, Any]:
        """A name the club has already is a question, not a second player: the same person?"""
        data = super().clean() or {}
        if self.instance.pk or data.get("another"):
            return data
        typed = {look_alike(data.get("display_name") or ""), look_alike(data.get("name_ja") or "")}
        typed -= {""}
        for player in Player.objects.filter(club=self.club):
            if typed & ({look_alike(player.display_name), look_alike(player.name_ja)} - {""}):
                self.add_error(
                    "display_name",
                    _(
                        "%(name)s is a player of the club already (%(handle)s): the same person? Nothing was added. If it is someone else, tick “Another person of this name”."
                    )
                    % {"name": player.display_name, "handle": player.handle},
                )
                self.fields["another"].widget = forms.CheckboxInput()
                break
        return data

    def save(self, commit: bool = True) -> Player:
        player: Player = super().save(commit=False)
        player.club = self.club
        player.user = self.cleaned_data.get("account")
        if commit:
            renames.save_player(player)
            if self.cleaned_data.get("new_pin"):
                pins.set_pin(player, self.cleaned_data["new_pin"])
        return player

    def saved(self) -> Player | None:
        """The player stored, or ``None`` with the refusal on the form: a new handle the
        stored records cannot take; a handle or account another request stored at the
        same moment (a double tap): the form checked again, as if it had come second."""
        try:
            return self.save()
        except Rejection as refused:
            self.add_error("handle", "; ".join(localize(e) for e in refused.errors))
        except ValidationError as taken:
            stored = (
                Player.objects.filter(pk=self.instance.pk).first() if self.instance.pk else None
            )
            again = type(self)(self.data, instance=stored, club=self.club, prefix=self.prefix)
            if again.is_valid():
                self.add_error(None, taken.messages)
            for field, problems in again.errors.items():
                self.add_error(field if field in self.fields else None, problems)
        return None


class MemberForm(forms.Form):
    username = forms.CharField(label=_("Account (user name)"))
    # The least role first and chosen: making someone a league administrator is a choice.
    role = forms.ChoiceField(
        label=_("Role"),
        choices=list(reversed(Membership.Role.choices)),
        initial=Membership.Role.MEMBER,
    )

    def clean_username(self) -> Any:
        return _account(self.cleaned_data["username"].strip())


def time_zones() -> list[str]:
    """The IANA time zones a club may meet in (``Area/City`` names; not the legacy
    aliases ``Japan``, ``US/Pacific``, nor ``Etc/GMT+9``, whose sign is reversed)."""
    areas = {"Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe"}
    areas |= {"Indian", "Pacific"}
    return sorted(z for z in zoneinfo.available_timezones() if z.split("/")[0] in areas)


class ClubForm(forms.ModelForm):
    """The club's own settings: its time zone (calendars read its nights' times there).
    Typed with the zones offered as suggestions; any IANA name is taken, checked by the
    model's validator."""

    class Meta:
        model = Club
        fields = ["time_zone"]
        labels = {"time_zone": _("Time zone")}
        help_texts = {
            "time_zone": _(
                "Where the club meets, as Area/City (Asia/Tokyo, Europe/London): calendars "
                "show its nights' times there."
            )
        }
        widgets = {
            "time_zone": forms.TextInput(
                attrs={"list": "time-zones", "autocomplete": "off", "spellcheck": "false"}
            )
        }


class PlayerLabel(str):
    """A player's name as a choice's label, with what else finds them in a long list
    (``also``: ``tournaments.names.found_by``), which the box to find a name reads
    (``web.templatetags.clubscore.name_finder``)."""

    also = ""

    @classmethod
    def of(cls, player: Player) -> PlayerLabel:
        label = cls(player.shown_name)
        label.also = found_by(player)
        return label


class AttendanceForm(forms.Form):
    """Who came, guests added on the spot, and the games of the night."""

    present = forms.MultipleChoiceField(
        label=_("Who came"), widget=forms.CheckboxSelectMultiple, required=False
    )
    guests = forms.CharField(
        label=_("Guests (one name per line)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Each becomes a player of the club."),
    )
    games = forms.MultipleChoiceField(
        label=_("Games of the night"), widget=forms.CheckboxSelectMultiple
    )
    divisions = forms.MultipleChoiceField(
        label=_("Divisions"),
        choices=[("together", _("draw the divisions together"))],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("Otherwise each division plays at tables of its own."),
    )

    def __init__(self, *args: Any, night: ClubNight, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.night = night
        players = reading_order(Player.objects.filter(club_id=night.season.club_id))
        present, games = self.fields["present"], self.fields["games"]
        assert isinstance(present, forms.ChoiceField) and isinstance(games, forms.ChoiceField)
        present.choices = [(str(p.pk), PlayerLabel.of(p)) for p in players]
        present.initial = [str(pk) for pk in night.present.values_list("pk", flat=True)]
        games.choices = [
            (g, LEAGUE_GAMES[g].label) for g in night.season.games if g in LEAGUE_GAMES
        ]
        if len(games.choices) <= 2:  # a season of one or two games: tonight's, ticked
            games.initial = [g for g, _label in games.choices]
        if not night.season.divisions.exists():
            del self.fields["divisions"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        names = [n.strip() for n in data.get("guests", "").splitlines() if n.strip()]
        known = {
            unspaced(name): p.display_name
            for p in Player.objects.filter(club=self.night.season.club_id)
            for name in (p.display_name, p.name_ja)
            if name
        }
        for name in names:
            if unspaced(name) in known:
                self.add_error(
                    "guests",
                    _("%(name)s is a player of the club: tick them among those who came.")
                    % {"name": known[unspaced(name)]},
                )
        longest = Player._meta.get_field("display_name").max_length or 100
        too_long = [n for n in names if len(n) > longest]
        if too_long:
            self.add_error(
                "guests",
                _("A name is at most %(n)s characters: %(name)s…")
                % {"n": longest, "name": too_long[0][:20]},
            )
        data["guest_names"] = names
        if not data.get("present") and not names:
            raise forms.ValidationError(_("Tick who came."))
        return data
