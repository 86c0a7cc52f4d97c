"""URLs: the pages, the exports, the admin, the REST API and its schema."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from scoring import views as scoring_views
from tournaments import api, views
from tournaments.signin import LimitedLoginView

router = DefaultRouter()
router.register("clubs", api.ClubViewSet)
router.register("players", api.PlayerViewSet)
router.register("seasons", api.SeasonViewSet)
router.register("club-nights", api.ClubNightViewSet)
router.register("tables", api.TableViewSet)
router.register("matches", api.MatchViewSet, basename="match")
router.register("deals", api.DealViewSet, basename="deal")

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("", views.home, name="home"),
    path("seasons/<int:pk>/", views.season_detail, name="season"),
    re_path(
        r"^seasons/(?P<pk>\d+)/standings\.(?P<fmt>csv|xlsx|pdf)$",
        scoring_views.season_export,
        name="season_export",
    ),
    path("nights/<int:pk>/", views.club_night_detail, name="club_night"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/enter/", views.deal_entry, name="deal_entry"),
    re_path(
        r"^matches/(?P<pk>\d+)/sheet\.(?P<fmt>csv|xlsx|pdf)$",
        scoring_views.match_export,
        name="match_export",
    ),
    path("sheets/blank-<str:game>.pdf", scoring_views.blank_sheet, name="blank_sheet"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("deals/<int:pk>/confirm/", views.confirm_deal, name="confirm_deal"),
    path("accounts/login/", LimitedLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/standings/", api.StandingsView.as_view(), name="standings"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include(router.urls)),
    path("api-auth/", include("rest_framework.urls")),
]
