"""schemathesis fuzzes every API operation from its OpenAPI schema: never a 500."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error

from config.wsgi import application

pytestmark = pytest.mark.slow


@pytest.fixture
def wsgi_in_the_test(db):
    """Called as a WSGI app, Django closes the connection after each request; the test's
    transaction needs it open (Django's own test client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def api_schema(wsgi_in_the_test):
    """The API's OpenAPI schema, read when the test runs: each operation's cases are made
    once, by the process that runs the test, not by every process while it collects."""
    return schemathesis.openapi.from_wsgi("/api/schema/", application)


schema = schemathesis.pytest.from_fixture("api_schema")

STAFF = ("fuzz-admin", "fuzz-password-1")


@pytest.fixture
def staff_auth(wsgi_in_the_test, django_user_model, make_match):
    staff = django_user_model.objects.create_user(
        STAFF[0], "", STAFF[1], is_staff=True, is_superuser=True
    )
    make_match("napoleon", ["aki", "ben", "chika", "dai"])  # something for the operations to find
    return {"Authorization": f"Token {Token.objects.create(user=staff).key}"}


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_operation_answers_with_a_server_error(case, staff_auth):
    case.call_and_validate(headers=staff_auth, checks=[not_a_server_error])
