"""URLs: the pages, the admin, the REST API and its schema."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from tournaments import api, views

router = DefaultRouter()
router.register("clubs", api.ClubViewSet)
router.register("players", api.PlayerViewSet)
router.register("seasons", api.SeasonViewSet)
router.register("club-nights", api.ClubNightViewSet)
router.register("tables", api.TableViewSet)
router.register("matches", api.MatchViewSet, basename="match")
router.register("deals", api.DealViewSet, basename="deal")

urlpatterns = [
    path("", views.home, name="home"),
    path("admin/", admin.site.urls),
    path("api/standings/", api.StandingsView.as_view(), name="standings"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include(router.urls)),
    path("api-auth/", include("rest_framework.urls")),
]
