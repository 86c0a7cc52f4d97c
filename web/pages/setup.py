"""Setting a club up from its own pages (a league administrator of the club, no staff
rights needed): players, members and roles, seasons, club nights."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from actions import calendars, invitations, roster
from actions import members as club_members
from actions.merge import merge
from scoring import jobs
from tournaments import access
from tournaments.errors import Rejection
from tournaments.messages import localize
from tournaments.models import Club, ClubNight, Membership, Player, Season
from tournaments.names import guessed_reading, night_label, reading_order
from tournaments.textfile import whole_number
from web.pages.getters import administered, administered_club
from web.pages.night_form import ClubNightForm
from web.pages.season_form import SeasonForm
from web.pages.setup_forms import (
    ClubForm,
    MemberForm,
    PlayerForm,
    time_zones,
)


@login_required
@require_http_methods(["GET", "POST"])
def club_setup(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's players (and a form to add one), members and roles, seasons and nights."""
    club = administered_club(request, slug)
    form = PlayerForm(request.POST or None, club=club, prefix="player")
    if request.method == "POST" and form.is_valid() and (player := form.saved()) is not None:
        messages.success(
            request,
            _("%(name)s added (handle %(handle)s).")
            % {"name": player.shown_name, "handle": player.handle},
        )
        return redirect("club_setup", slug=club.slug)
    return _club_page(request, club, form=form)


def _club_page(
    request: HttpRequest,
    club: Club,
    pasted: str = "",
    *,
    form: PlayerForm | None = None,
    status: int = 200,
    paste_problems: list[str] | None = None,
) -> HttpResponse:
    """The club's page: a player's form as sent (``form``) or a new one, names pasted and
    refused (``pasted``) in their box."""
    if form is None:
        form = PlayerForm(club=club, prefix="player")
    players = reading_order(club.players.select_related("user"))
    for player in players:  # where the list put a name in kanji with no reading typed
        player.guess = "" if player.reading else guessed_reading(player.shown_name)
    return render(
        request,
        "pages/setup/club.html",
        {
            "club": club,
            "form": form,
            "pasted": pasted,
            "paste_problems": paste_problems or [],
            "players": players,
            "guessed": any(p.guess for p in players),
            "memberships": club.memberships.select_related("user").order_by("user__username"),
            "member_form": MemberForm(prefix="member"),
            "invitations": club.invitations.select_related("player", "used_by", "account")[:30],
            "invite_roles": list(reversed(Membership.Role.choices)),
            "roles": Membership.Role.choices,
            "seasons": club.seasons.prefetch_related("club_nights").order_by("-starts_on", "name"),
            "export_kinds": [(name, kind.ask) for name, kind in jobs.KINDS.items()],
            "exports": club.exports.defer("data").order_by("-requested_at")[:5],
        },
        status=status,
    )


LIST_COLUMNS = {
    "name": gettext_lazy("Name"),
    "name_ja": gettext_lazy("Name in Japanese"),
    "reading": gettext_lazy("Reading"),
    "handle": gettext_lazy("Handle"),
}


def _where(path: str) -> str:
    """``row 3.name`` as the reader says it: "Row 3, Name"."""
    row, _dot, column = path.partition(".")
    if not row.startswith("row "):
        return ""
    label = LIST_COLUMNS.get(column)
    where = _("Row %(row)s") % {"row": row.removeprefix("row ")}
    return f"{where}, {label}" if label else where


@login_required
@require_POST
def players_from_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Add the players of an uploaded CSV list, or of names pasted a line each
    (``actions.roster``): all or none.  Pasted names refused are shown again in their box,
    with what to correct, so that nothing typed is lost."""
    club = administered_club(request, slug)
    upload = request.FILES.get("list")
    pasted = request.POST.get("names", "")
    if (upload is None) == (not pasted.strip()):  # both, or neither
        if upload is None:
            messages.error(request, _("Choose a CSV file with the players' names, or paste them."))
            return redirect("club_setup", slug=club.slug)
        messages.error(request, _("Give a CSV file or pasted names, not both."))
        return _club_page(request, club, pasted, status=400)
    try:
        added = roster.add_players(
            club, pasted if upload is None else upload.read(roster.MAX_BYTES + 1)
        )
    except Rejection as rejection:
        problems = [
            f"{where}: {localize(problem)}"
            if (where := _where(problem["path"]))
            else localize(problem)
            for problem in rejection.errors
        ]
        messages.error(
            request,
            _("Nothing was added. Correct the list and upload it again:")
            if upload is not None
            else _("Nothing was added. Correct the names below and add them again:"),
        )
        for problem_text in problems:
            messages.error(request, problem_text)
        if upload is not None:
            return redirect("club_setup", slug=club.slug)
        # Pasted: shown again in their box, the problems beside it, where the page opens.
        return _club_page(request, club, pasted, status=400, paste_problems=problems)
    messages.success(
        request,
        ngettext(
            "%(added)s player added; %(skipped)s already in the club.",
            "%(added)s players added; %(skipped)s already in the club.",
            len(added.new),
        )
        % {"added": len(added.new), "skipped": len(added.skipped)},
    )
    if added.skipped:  # which names, so that a look-alike taken for a player is seen
        messages.info(
            request,
            _("Already in the club, not added again: %(names)s")
            % {"names": ", ".join(added.skipped)},
        )
    return redirect("club_setup", slug=club.slug)


@login_required
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = administered_club(request, slug)
    player = get_object_or_404(Player, club=club, pk=pk)
    form = PlayerForm(request.POST or None, instance=player, club=club)
    if request.method == "POST" and form.is_valid() and form.saved() is not None:
        messages.success(request, _("%(name)s saved.") % {"name": player.shown_name})
        return redirect("club_setup", slug=club.slug)
    others = reading_order(club.players.exclude(pk=player.pk))
    return render(
        request,
        "pages/setup/form.html",
        {
            "club": club,
            "form": form,
            "title": player.shown_name,
            "merge": player,
            "others": others,
        },
    )


@login_required
@require_POST
def player_merge(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Merge this player into another of the club (the same person entered twice)."""
    club = administered_club(request, slug)
    gone = get_object_or_404(Player, club=club, pk=pk)
    kept = club.players.filter(pk=whole_number(request.POST.get("into")) or 0).first()
    if kept is None:
        messages.error(request, _("Choose the player to keep."))
        return redirect("player_edit", slug=club.slug, pk=gone.pk)
    name = gone.shown_name
    try:
        merge(kept, gone)
    except Rejection as refused:
        for problem in refused.errors:
            messages.error(request, localize(problem))
        return redirect("player_edit", slug=club.slug, pk=gone.pk)
    messages.success(
        request,
        _("%(gone)s is now part of %(kept)s: seats, deals, ratings and history moved.")
        % {"gone": name, "kept": kept.shown_name},
    )
    return redirect("club_setup", slug=club.slug)


@login_required
@require_POST
def members(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a member with a role, change a member's role, or remove a member."""
    club = administered_club(request, slug)
    try:
        if "remove" in request.POST or "role" in request.POST and "membership" in request.POST:
            number = whole_number(request.POST.get("membership"))
            membership = get_object_or_404(Membership, club=club, pk=number or 0)
            name = membership.user.get_username()
            if "remove" in request.POST:
                club_members.remove(membership)
                messages.success(request, _("%(user)s removed.") % {"user": name})
            else:
                changed = club_members.set_role(club, membership.user, request.POST.get("role", ""))
                messages.success(
                    request,
                    _("%(user)s is now %(role)s.")
                    % {"user": name, "role": changed.get_role_display()},
                )
            return redirect("club_setup", slug=club.slug)
        form = MemberForm(request.POST, prefix="member")
        if form.is_valid():
            account, role = form.cleaned_data["username"], form.cleaned_data["role"]
            if Membership.objects.filter(club=club, user=account).exists():
                club_members.set_role(club, account, role)
                messages.success(
                    request, _("%(user)s is a member.") % {"user": account.get_username()}
                )
            else:  # their consent: a link only they can accept
                made = invitations.invite(club, request.user, role, account=account)
                messages.success(
                    request,
                    _(
                        "%(user)s joins once they accept: send them this link (it works for their account only, for %(days)s days): %(link)s"
                    )
                    % {
                        "user": account.get_username(),
                        "days": invitations.VALID_DAYS,
                        "link": request.build_absolute_uri(reverse("join", args=[made.token])),
                    },
                )
        else:
            for errors in form.errors.values():
                for e in errors:
                    messages.error(request, str(e))
    except Rejection as refused:
        for problem in refused.errors:
            messages.error(request, localize(problem))
    return redirect("club_setup", slug=club.slug)


@login_required
@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, slug: str, pk: int | None = None) -> HttpResponse:
    club = administered_club(request, slug)
    season = get_object_or_404(Season, club=club, pk=pk) if pk else None
    form = SeasonForm(request.POST or None, instance=season, club=club)
    saved = form.saved() if request.method == "POST" and form.is_valid() else None
    if saved is not None:
        messages.success(request, _("Season %(name)s saved.") % {"name": saved.name})
        return redirect("club_setup", slug=club.slug)
    title = season.name if season else _("New season")
    return render(request, "pages/setup/form.html", {"club": club, "form": form, "title": title})


@login_required
@require_http_methods(["GET", "POST"])
def night_new(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(
        access.visible(Season.objects.select_related("club"), request.user), pk=pk
    )
    administered(request, season)
    # A club meets where it met last (its latest night's venue and hours, of any season).
    last = dict(
        ClubNight.objects.filter(season__club_id=season.club_id)
        .order_by("-date", "-pk")
        .values("venue", "starts_at", "ends_at")
        .first()
        or {}
    )
    form = ClubNightForm(
        request.POST or None,
        instance=ClubNight(season=season),  # checked in its season (one final a season)
        initial={"date": timezone.localdate(), **last},
    )
    night = form.saved() if request.method == "POST" and form.is_valid() else None
    if night is not None:
        messages.success(request, _("Club night %(date)s added.") % {"date": night_label(night)})
        return redirect("night_draw", pk=night.pk)
    return render(
        request,
        "pages/setup/form.html",
        {
            "club": season.club,
            "form": form,
            "title": _("New club night of %(season)s") % {"season": season.name},
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's own settings: its time zone (the calendars' times)."""
    club = administered_club(request, slug)
    form = ClubForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        calendars.set_time_zone(club, form.cleaned_data["time_zone"])
        messages.success(
            request,
            _("Time zone of %(club)s: %(zone)s.") % {"club": club.name, "zone": club.time_zone},
        )
        return redirect("club_setup", slug=club.slug)
    return render(
        request,
        "pages/setup/form.html",
        {"club": club, "form": form, "title": _("Club settings"), "time_zones": time_zones()},
    )
