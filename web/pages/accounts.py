"""Accounts in the app's own pages (issue 29, 1): sign-up with a new club, joining by an
invitation link, a forgotten password.  Django's own auth forms and views do the work
(``UserCreationForm``, the password reset views); every password check still goes
through django-axes (``web.pages.signin``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from actions import accounts, invitations, reset_links
from tournaments import access
from tournaments.errors import Rejection, error
from tournaments.messages import localize
from tournaments.models import Invitation, Membership
from tournaments.textfile import whole_number
from web.caching import private
from web.pages.getters import administered_club
from web.pages.signin import client_address

BACKEND = "django.contrib.auth.backends.ModelBackend"


NAME_TAKEN = gettext_lazy("This user name cannot be used: choose another.")


class AccountForm(UserCreationForm):
    """A new account: a user name, an e-mail address for password resets (optional), and
    the password twice (Django's validators)."""

    email = forms.EmailField(
        label=gettext_lazy("E-mail (optional: for a forgotten password)"), required=False
    )

    class Meta:
        model = User
        fields = ("username", "email")
        labels = {"username": gettext_lazy("User name")}
        error_messages = {"username": {"unique": NAME_TAKEN}}

    def clean_username(self) -> str:
        """A name taken, or one that looks like a taken one, is refused alike: the form
        says no more about who holds it."""
        username = self.cleaned_data.get("username") or ""
        if invitations.name_looks_taken(username):
            raise forms.ValidationError(NAME_TAKEN, code="unique")
        return username

    FIELDS = {"username": "username", "email": "email", "password": "password2"}
    """Where a refusal of :func:`actions.accounts.make_account` (by its path) is shown."""

    def save_once(self) -> User:
        """The account (``actions.accounts.make_account``, which checks it all again), or
        the name refused when another sign-up took it a moment ago."""
        data = self.cleaned_data
        user: User = accounts.make_account(
            data["username"], data.get("email") or "", data["password1"]
        )
        return user


class ClubForm(forms.Form):
    club = forms.CharField(label=gettext_lazy("Your club's name"), max_length=200)


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    """A new account and its club (``ALLOW_SIGN_UP``); a signed-in person names only the
    club.  The account is the club's league administrator."""
    if not settings.ALLOW_SIGN_UP:
        raise Http404(_("This site does not take new clubs: ask its operator."))
    signed_in = request.user.is_authenticated
    account = None if signed_in else AccountForm(request.POST or None, prefix="account")
    club_form = ClubForm(request.POST or None, prefix="club")
    if (
        request.method == "POST"
        and club_form.is_valid()
        and (account is None or account.is_valid())
    ):
        try:
            with transaction.atomic():
                user = access.signed_in(request.user) if account is None else account.save_once()
                club = invitations.start_club(
                    user, club_form.cleaned_data["club"], client_address(request)
                )
        except Rejection as refused:
            for problem in refused.errors:
                if account is not None and problem["path"] in AccountForm.FIELDS:
                    account.add_error(AccountForm.FIELDS[problem["path"]], localize(problem))
                else:
                    club_form.add_error("club", localize(problem))
        else:
            if account is not None:
                login(request, user, backend=BACKEND)
            messages.success(
                request,
                _("%(club)s is ready: add its players, then a season and a club night.")
                % {"club": club.name},
            )
            return redirect("club_setup", slug=club.slug)
    return render(request, "registration/sign_up.html", {"account": account, "club": club_form})


@private  # the invitation's link alone opens it
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """Follow an invitation: make an account (or sign in first), then join the club."""
    invitation = invitations.usable(token)
    if invitation is None:
        if (
            request.user.is_authenticated
            and Invitation.objects.filter(token=token, used_by=request.user).exists()
        ):
            return redirect("home")  # followed again by who used it
        return render(
            request,
            "error.html",
            {
                "title": _("This link no longer works"),
                "explanation": _(
                    "This invitation link has been used, revoked or has expired: ask the club for a new one."
                ),
            },
            status=410,
        )
    account = None
    if not request.user.is_authenticated:
        if invitation.account_id is not None:  # for an existing account: sign in as it
            return redirect_to_login(request.get_full_path())
        account = AccountForm(request.POST or None, prefix="account")
    if request.method == "POST" and (account is None or account.is_valid()):
        try:
            with transaction.atomic():
                user = access.signed_in(request.user) if account is None else account.save_once()
                membership = invitations.accept(token, user)
        except Rejection as refused:
            messages.error(request, "; ".join(localize(e) for e in refused.errors))
            return redirect("home")
        if account is not None:
            login(request, user, backend=BACKEND)
        messages.success(
            request,
            _("Welcome to %(club)s: you are %(role)s.")
            % {"club": invitation.club.name, "role": membership.get_role_display()},
        )
        if membership.role == Membership.Role.SCORER:  # straight to the tables to score
            return redirect(reverse("home") + "#scorer-home")
        return redirect("home")
    return render(
        request,
        "registration/join.html",
        {"invitation": invitation, "account": account, "token": token},
    )


class NewPassword(auth_views.PasswordResetConfirmView):
    """A reset link's page (Django's view).  Setting the password ends the account's
    sessions (Django: they carry a hash of the password) and its API tokens."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        accounts.password_set(form.user)
        return response


class MemberNewPassword(NewPassword):
    """A reset link a league administrator made (``actions.reset_links``): checked
    again, maker's right included, when it is opened and when the password is set."""

    token_generator = reset_links.links


class PasswordForgotten(auth_views.PasswordResetView):
    """Django's reset by e-mail where mail is set up; otherwise the page says whom to ask."""

    email_template_name = "registration/password_reset_email.txt"  # plain text

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.EMAIL_HOST:
            return render(request, "registration/password_ask.html")
        return super().dispatch(request, *args, **kwargs)


@login_required
@require_POST
def invite(request: HttpRequest, slug: str) -> HttpResponse:
    club = administered_club(request, slug)
    player = None
    try:
        if request.POST.get("player"):
            player = club.players.filter(pk=whole_number(request.POST["player"]) or 0).first()
            if player is None:
                raise Rejection((error("not_found", "player", invitations.NO_SUCH_PLAYER),))
        made = invitations.invite(
            club,
            request.user,
            request.POST.get("role", Membership.Role.MEMBER),
            player,
            meant_for=request.POST.get("meant_for", ""),
        )
    except Rejection as refused:
        for problem in refused.errors:
            messages.error(request, localize(problem))
    else:
        messages.success(
            request,
            _(
                "Invitation made: send this link to the person (it works once, for %(days)s days): %(link)s"
            )
            % {
                "days": invitations.VALID_DAYS,
                "link": request.build_absolute_uri(reverse("join", args=[made.token])),
            },
        )
    return redirect(reverse("club_setup", kwargs={"slug": club.slug}) + "#members")


@login_required
@require_POST
def revoke_invitation(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = administered_club(request, slug)
    invitations.revoke(get_object_or_404(Invitation, club=club, pk=pk))
    messages.success(request, _("Invitation revoked: its link no longer works."))
    return redirect(reverse("club_setup", kwargs={"slug": club.slug}) + "#members")


@login_required
@require_POST
def reset_link(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A one-time password reset link for a member (``actions.reset_links``: checked
    again when used, ended by any change of the account's rights or password, at most
    ``RESET_LINK_SECONDS``)."""
    club = administered_club(request, slug)
    account = get_object_or_404(Membership, club=club, pk=pk).user
    if not invitations.may_reset(request.user, account):
        messages.error(
            request,
            _(
                "%(user)s belongs to a club you do not administer: their password is reset by e-mail or by the site operator."
            )
            % {"user": account.get_username()},
        )
    else:
        link = request.build_absolute_uri(
            reverse(
                "member_password_reset",
                kwargs={
                    "uidb64": urlsafe_base64_encode(force_bytes(account.pk)),
                    "token": reset_links.links.make_token(account, request.user),
                },
            )
        )
        messages.success(
            request,
            _("Reset link for %(user)s (works once, for %(hours)s hours): %(link)s")
            % {
                "user": account.get_username(),
                "link": link,
                "hours": max(1, settings.RESET_LINK_SECONDS // 3600),
            },
        )
    return redirect(reverse("club_setup", kwargs={"slug": club.slug}) + "#members")
