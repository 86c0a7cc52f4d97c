"""The browsable API's sign-in and sign-out (its "Log in" link names ``rest_framework:``):
the site's own sign-in page, under the same password limit and the same policy."""

from django.contrib.auth import views as auth_views
from django.urls import path
from django.views.decorators.http import require_http_methods

app_name = "rest_framework"
urlpatterns = [
    path(
        "login/",
        require_http_methods(["GET", "POST", "HEAD"])(auth_views.LoginView.as_view()),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
