"""URLs: the pages, the exports, the admin, the REST API and its schema."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.generic.base import RedirectView
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from web import downloads
from web.api import league as league_api
from web.api import matches as match_api
from web.api import sheets as sheet_api
from web.api import standings as standings_api
from web.pages import (
    accounts,
    calendars,
    clubs,
    corrections,
    divisions,
    draw,
    entry,
    exports,
    head_to_head,
    league,
    live,
    my_night,
    night_setup,
    pairs,
    pins,
    previews,
    push,
    rounds,
    setup,
    sheets,
    tables,
    webhooks,
)

FORM = ["GET", "POST", "HEAD"]
"""The methods of Django's own form views (they would take PUT as POST)."""

router = DefaultRouter()
router.include_format_suffixes = False
"""No ``.json``/``.api`` twin of every route: the API answers JSON (``Accept`` chooses,
as ``?format=`` does), and a twin is a route the access table must also ask."""
router.register("clubs", league_api.ClubViewSet)
router.register("players", league_api.PlayerViewSet)
router.register("seasons", league_api.SeasonViewSet)
router.register("club-nights", league_api.ClubNightViewSet)
router.register("tables", league_api.TableViewSet)
router.register("matches", match_api.MatchViewSet, basename="match")
router.register("deals", match_api.DealViewSet, basename="deal")

urlpatterns = [
    path("healthz", league.healthz, name="healthz"),
    path("readyz", league.readyz, name="readyz"),
    path("sw.js", entry.service_worker, name="service_worker"),
    path("manifest.webmanifest", entry.web_manifest, name="web_manifest"),
    path(
        "favicon.ico",
        require_safe(RedirectView.as_view(url="/static/clubscore/favicon.svg", permanent=True)),
        name="favicon",
    ),
    path("", league.home, name="home"),
    path("seasons/<int:pk>/", league.season_detail, name="season"),
    # Link previews' images of a public season and night (web.pages.previews).
    path("seasons/<int:pk>/preview.png", previews.season_image, name="season_preview"),
    path("nights/<int:pk>/preview.png", previews.night_image, name="night_preview"),
    re_path(
        rf"^seasons/(?P<pk>\d+)/standings\.(?P<fmt>{downloads.FORMATS})$",
        downloads.season_export,
        name="season_export",
    ),
    re_path(
        rf"^seasons/(?P<pk>\d+)/statistics\.(?P<fmt>{downloads.FORMATS})$",
        downloads.season_statistics,
        name="season_statistics",
    ),
    path("nights/<int:pk>/", league.club_night_detail, name="club_night"),
    path("matches/<int:pk>/", league.match_detail, name="match"),
    path("matches/<int:pk>/enter/", entry.deal_entry, name="deal_entry"),
    re_path(
        rf"^matches/(?P<pk>\d+)/sheet\.(?P<fmt>{downloads.FORMATS})$",
        downloads.match_export,
        name="match_export",
    ),
    path("sheets/blank-<str:game>.pdf", downloads.blank_sheet, name="blank_sheet"),
    path("players/<int:pk>/", league.player_detail, name="player"),
    path("players/<int:pk>/push/", push.player_push, name="player_push"),
    path("players/<int:pk>/head-to-head/", head_to_head.head_to_head, name="head_to_head"),
    # A club's page and the calendars of its nights (docs/calendars.md).
    path("clubs/<slug:slug>/", clubs.club_page, name="club_page"),
    path("clubs/<slug:slug>/calendar.ics", calendars.club_feed, name="club_feed"),
    path("clubs/<slug:slug>/calendar/", calendars.my_calendar, name="my_calendar"),
    path("calendars/<str:token>.ics", calendars.member_feed, name="member_feed"),
    path("players/<int:pk>/calendar.ics", calendars.player_feed, name="player_feed"),
    # A league administrator's own pages: the club, its players, members, seasons and nights.
    path("clubs/<slug:slug>/setup/", setup.club_setup, name="club_setup"),
    # The club's webhooks for its own tools (docs/webhooks.md).
    path("clubs/<slug:slug>/webhooks/", webhooks.club_webhooks, name="club_webhooks"),
    path("clubs/<slug:slug>/settings/", setup.club_settings, name="club_settings"),
    path("clubs/<slug:slug>/players/<int:pk>/", setup.player_edit, name="player_edit"),
    path("clubs/<slug:slug>/players/list/", setup.players_from_list, name="players_from_list"),
    path("clubs/<slug:slug>/players/<int:pk>/merge/", setup.player_merge, name="player_merge"),
    path("clubs/<slug:slug>/members/", setup.members, name="club_members"),
    path("clubs/<slug:slug>/import/", sheets.sheet_import, name="sheet_import"),
    path("clubs/<slug:slug>/exports/<str:kind>/", exports.club_export, name="club_export"),
    path("exports/<int:pk>/", exports.export_status, name="export"),
    path("exports/<int:pk>/file", exports.export_file, name="export_file"),
    path("clubs/<slug:slug>/import/<int:pk>/", sheets.sheet_preview, name="sheet_preview"),
    re_path(
        r"^sheets/template-(?P<game>[a-z0-9]+)-(?P<language>en|ja)(?P<example>-example)?"
        r"\.(?P<fmt>csv|xlsx)$",
        sheets.sheet_template,
        name="sheet_template",
    ),
    path("clubs/<slug:slug>/seasons/new/", setup.season_edit, name="season_new"),
    path("clubs/<slug:slug>/seasons/<int:pk>/", setup.season_edit, name="season_edit"),
    path("seasons/<int:pk>/nights/new/", setup.night_new, name="night_new"),
    path("nights/<int:pk>/edit/", night_setup.night_edit, name="night_edit"),
    path("nights/<int:pk>/cancel/", night_setup.night_cancel, name="night_cancel"),
    path("nights/<int:pk>/restore/", night_setup.night_restore, name="night_restore"),
    path("seasons/<int:pk>/divisions/", divisions.season_divisions, name="season_divisions"),
    path("seasons/<int:pk>/close/", divisions.season_close, name="season_close"),
    path("nights/<int:pk>/draw/", draw.night_draw, name="night_draw"),
    path("nights/<int:pk>/tables/", draw.night_tables, name="night_tables"),
    path("nights/<int:pk>/rounds/", rounds.night_rounds, name="night_rounds"),
    path("nights/<int:pk>/pairs/", pairs.night_pairs, name="night_pairs"),
    path("nights/<int:pk>/live/", live.night_live, name="night_live"),
    path("nights/<int:pk>/me/", my_night.my_night, name="my_night"),
    path("nights/<int:pk>/push/", push.night_push, name="night_push"),
    re_path(
        rf"^nights/(?P<pk>\d+)/standings\.(?P<fmt>{downloads.FORMATS})$",
        downloads.night_export,
        name="night_export",
    ),
    re_path(
        rf"^nights/(?P<pk>\d+)/seating\.(?P<fmt>{downloads.FORMATS})$",
        downloads.night_seating,
        name="night_seating",
    ),
    path("matches/<int:pk>/paper.pdf", draw.paper_sheet, name="paper_sheet"),
    path("nights/<int:pk>/paper.pdf", draw.night_paper, name="night_paper"),
    path("nights/<int:pk>/slips/", pins.pin_slips_page, name="pin_slips"),
    # Corrections from the match page.
    path("deals/<int:pk>/correct/", corrections.correct_deal, name="correct_deal"),
    path("deals/<int:pk>/delete/", corrections.delete_deal, name="delete_deal"),
    path("deals/<int:pk>/restore/", corrections.restore_deal, name="restore_deal"),
    path("matches/<int:pk>/reopen/", corrections.reopen_match, name="reopen_match"),
    path("matches/<int:pk>/end/", corrections.end_match, name="end_match"),
    path("deals/<int:pk>/confirm/", entry.confirm_deal, name="confirm_deal"),
    path(
        "accounts/login/", require_http_methods(FORM)(auth_views.LoginView.as_view()), name="login"
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/sign-up/", accounts.sign_up, name="sign_up"),
    path(
        "accounts/password/",
        require_http_methods(FORM)(accounts.PasswordForgotten.as_view()),
        name="password_reset",
    ),
    path(
        "accounts/password/sent/",
        require_safe(auth_views.PasswordResetDoneView.as_view()),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        require_http_methods(FORM)(accounts.NewPassword.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/club/<uidb64>/<token>/",
        require_http_methods(FORM)(accounts.MemberNewPassword.as_view()),
        name="member_password_reset",
    ),
    path(
        "accounts/reset/done/",
        require_safe(auth_views.PasswordResetCompleteView.as_view()),
        name="password_reset_complete",
    ),
    path("join/<str:token>/", accounts.join, name="join"),
    path("clubs/<slug:slug>/invitations/", accounts.invite, name="invite"),
    path(
        "clubs/<slug:slug>/invitations/<int:pk>/revoke/",
        accounts.revoke_invitation,
        name="revoke_invitation",
    ),
    path("clubs/<slug:slug>/members/<int:pk>/reset-link/", accounts.reset_link, name="reset_link"),
    # Scoring by table link (no account) and confirmation at the table with a PIN.
    path("t/<str:token>/", tables.follow_link, name="table_link"),
    path("tables/<int:pk>/", tables.table_page, name="table"),
    path("tables/<int:pk>/link/", tables.table_link_change, name="table_link_change"),
    path("tables/<int:pk>/scorer/", tables.table_scorer, name="table_scorer"),
    path("tables/<int:pk>/who/", pins.table_who, name="table_who"),
    path("deals/<int:pk>/pin/", pins.confirm_with_pin, name="confirm_with_pin"),
    path("tables/<int:pk>/own-pin/", pins.own_pin, name="own_pin"),
    path("players/<int:pk>/pin/", pins.player_pin, name="player_pin"),
    path("i18n/setlang/", require_POST(set_language), name="set_language"),
    path("admin/", admin.site.urls),
    path("api/standings/", standings_api.StandingsView.as_view(), name="standings"),
    path(
        "api/clubs/<slug:slug>/score-sheets/",
        sheet_api.ScoreSheetsView.as_view(),
        name="score_sheets",
    ),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api_docs.html"),
        name="api-docs",
    ),
    path("api/", include(router.urls)),
    path("api-auth/", include("web.api.auth_urls")),
]

handler400 = "web.pages.errors.bad_request"
handler403 = "web.pages.errors.permission_denied"
handler404 = "web.pages.errors.page_not_found"
handler500 = "web.pages.errors.server_error"
