"""The access table of every route (``web.routes``), checked in a world of two clubs
(``tests.web.access_world``): every route of the URL resolver is in the table; every
route, method and role answers as declared, never 5xx, and never shows an outsider a
hidden player, a private season or another club's account; every write refuses hostile
values in words and stores nothing for those not allowed."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.db import transaction
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve, reverse

from tests.web.access_world import SECRETS_OF_A, SECRETS_OF_B, World, build
from web.routes import ROUTES, Access, Role

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
OUTSIDERS_OF_A = (Role.ANONYMOUS, Role.STRANGER, Role.OTHER_ADMIN)
TRIED: Counter[str] = Counter()
"""Requests tried, by role (docs/security.md and docs/testing.md report them)."""


@dataclass(frozen=True)
class Pattern:
    """One URL pattern of the resolver: its route's name in the access table (the admin's
    all as ``admin:``), its URL arguments, and the resolvers it sits in."""

    name: str
    args: tuple[str, ...]
    leaf: URLPattern
    parents: tuple[URLResolver, ...]

    def reverse(self, kwargs: dict[str, Any]) -> str:
        """This pattern's URL (not another pattern's of the same name, as ``reverse``
        would give): the pattern alone in the resolvers it sits in."""
        node: URLPattern | URLResolver = self.leaf
        for parent in reversed(self.parents):
            node = URLResolver(parent.pattern, (node,))
        return reverse(self.leaf.name, urlconf=(node,), kwargs=kwargs)


def resolver_patterns() -> list[Pattern]:
    """Every URL pattern of the resolver, each asked on its own: two patterns under one
    name (a format-suffix twin, say) are two routes to try."""
    found: list[Pattern] = []

    def walk(patterns: list[Any], parents: tuple[URLResolver, ...], namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, (*parents, pattern), pattern.namespace or namespace)
                continue
            if namespace == "admin":
                if not any(p.name == "admin:" for p in found):
                    found.append(Pattern("admin:", (), pattern, parents))
                continue
            assert pattern.name, (
                f"an unnamed route: {pattern.pattern} (name it, and add it to web.routes)"
            )
            name = f"{namespace}:{pattern.name}" if namespace else pattern.name
            args = tuple(pattern.pattern.regex.groupindex)
            for parent in parents:
                args = (*parent.pattern.regex.groupindex, *args)
            found.append(Pattern(name, args, pattern, parents))

    walk(get_resolver().url_patterns, (), "")
    return sorted(found, key=lambda p: (p.name, str(p.leaf.pattern)))


def resolver_routes() -> dict[str, list[str]]:
    """Every named route of the resolver with the names of its URL arguments."""
    return {p.name: list(p.args) for p in resolver_patterns()}


def test_every_route_is_in_the_access_table_and_only_those():
    routes = resolver_routes()
    assert sorted(set(routes) - set(ROUTES)) == [], "routes missing from web.routes"
    assert sorted(set(ROUTES) - set(routes)) == [], "web.routes names routes that do not exist"


def test_no_api_route_has_a_format_suffix_twin():
    """``/api/matches/1/deals.json`` once answered 500 to anyone: the router's suffix twins
    passed a ``format`` argument that the API's actions do not take."""
    suffixed = [p for p in resolver_patterns() if "format" in p.args]
    assert suffixed == []
    assert resolve_or_none("/api/seasons/1/divisions.json") is None
    assert resolve_or_none("/api/seasons/1/divisions/") is not None


def resolve_or_none(url: str) -> Any:
    try:
        return resolve(url)
    except Resolver404:
        return None


def url_of(world: World, pattern: Pattern) -> str:
    route = ROUTES[pattern.name]
    kwargs = world.kwargs([a for a in pattern.args if a != "format"], route.obj)
    if "format" in pattern.args:
        kwargs["format"] = "json"
    url = pattern.reverse(kwargs)
    if pattern.name == "standings":
        url += f"?season={world.season.pk}"
    return url


def send(world: World, role: Role, method: str, url: str, body: Any = None, form: bool = False):
    """One request as ``role``; whatever it writes is rolled back."""
    TRIED[role.value] += 1
    client = world.client(role)
    call = getattr(client, method.lower())
    with transaction.atomic():
        if form and method == "POST":
            response = call(url, body or {})
        else:
            payload = json.dumps(body) if body is not None else ""
            response = call(url, payload, content_type="application/json")
        transaction.set_rollback(True)
    return response


def status(response: Any) -> int:
    """302 to a sign-in page counts as 302; any other redirect as the 200 it leads to."""
    code = response.status_code
    if code == 302 and "/login/" not in response.get("Location", ""):
        return 200
    return code


def text(response: Any) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode("utf-8", "replace")
    return response.content.decode("utf-8", "replace")


def leaks(world: World, role: Role, body: str) -> list[str]:
    """What ``role`` may not read that ``body`` shows."""
    if role is Role.OPERATOR:
        return []
    secrets = list(SECRETS_OF_B) if role is not Role.OTHER_ADMIN else []
    if role in OUTSIDERS_OF_A:
        secrets += SECRETS_OF_A
    return [s for s in secrets if s in body]


def expected(access: Access | None, role: Role, url: str) -> set[int] | None:
    """The statuses ``role`` may get; ``None``: allowed (anything but a refusal)."""
    if access is None:  # a method the route does not take
        if role in (Role.ANONYMOUS, Role.LINK):  # asked to sign in (pages) or refused (API)
            return {405, 403} if url.startswith("/api/") else {405, 302}
        return {405}
    code = access.answer(role)
    return None if code is None else {code}


REFUSALS = {302, 401, 403, 404, 405}


def test_every_route_answers_each_role_as_declared(settings):
    settings.ALLOW_SIGN_UP = True
    world = build()
    wrong: list[str] = []
    for pattern in resolver_patterns():
        name = pattern.name
        if name == "admin:":
            continue  # below
        url = url_of(world, pattern)
        declared = ROUTES[name].methods
        undeclared = [m for m in METHODS if m not in declared][:1]
        for method in [*declared, *undeclared]:
            for role in Role:
                response = send(world, role, method, url, form=not url.startswith("/api/"))
                got, body = status(response), text(response)
                allowed = expected(declared.get(method), role, url)
                if got >= 500:
                    wrong.append(f"{method} {url} as {role.value}: {got}")
                elif allowed is None and got in REFUSALS:
                    wrong.append(f"{method} {url} as {role.value}: {got}, declared allowed")
                elif allowed is not None and got not in allowed:
                    wrong.append(f"{method} {url} as {role.value}: {got}, declared {allowed}")
                wrong += [
                    f"{method} {url} as {role.value} shows {s!r}" for s in leaks(world, role, body)
                ]
    admin = [reverse("admin:index")] + [
        reverse(f"admin:{m._meta.app_label}_{m._meta.model_name}_changelist")
        for m in apps.get_models()
        if f"admin:{m._meta.app_label}_{m._meta.model_name}_changelist" in _admin_names()
    ]
    for url in admin:
        for role in Role:
            got = status(send(world, role, "GET", url))
            want = expected(ROUTES["admin:"].methods["GET"], role, url)
            if (want is None and got in REFUSALS) or (want is not None and got not in want):
                wrong.append(f"GET {url} as {role.value}: {got}, declared {want or 'allowed'}")
    assert wrong == [], "\n".join(wrong)


def test_head_answers_as_get_and_never_writes(settings):
    """HEAD is GET without the body (RFC 9110): a route answering both from one function
    must not take HEAD for its write (Django and DRF check no CSRF token on HEAD, so such a
    HEAD stored a deal and closed a season with a session cookie alone).  Every route that
    reads, as every role, with a write's body: HEAD answers as GET does (or is refused),
    without a body, and stores nothing."""
    settings.ALLOW_SIGN_UP = True
    world = build()
    before = counts()
    wrong = []
    for pattern in resolver_patterns():
        if pattern.name == "admin:" or "GET" not in ROUTES[pattern.name].methods:
            continue
        url = url_of(world, pattern)
        for role in Role:
            client = world.client(role)
            got = status(client.get(url))
            body = json.dumps({"reason": "mine"})
            head = client.generic("HEAD", url, body, content_type="application/json")
            if status(head) not in (got, 405) or text(head):  # 405: a page that takes no HEAD
                wrong.append(f"HEAD {url} as {role.value}: {status(head)}, GET {got}")
    assert wrong == [] and counts() == before, "\n".join(wrong)


def test_an_outsider_cannot_tell_a_private_object_from_a_missing_one(settings):
    """Every route that names an object answers an outsider of its club the same for it
    and for an id that names nothing (docs/security.md: 404 alike)."""
    world = build()
    wrong: list[str] = []
    for pattern in resolver_patterns():
        name = pattern.name
        if "pk" not in pattern.args or name == "admin:":
            continue
        real = world.kwargs(list(pattern.args), ROUTES[name].obj)
        urls = [pattern.reverse(real), pattern.reverse({**real, "pk": 987654321})]
        for method in ROUTES[name].methods:
            for role in OUTSIDERS_OF_A:
                got = [status(send(world, role, method, url, form=True)) for url in urls]
                if got[0] != got[1]:
                    wrong.append(f"{method} {urls[0]} as {role.value}: {got[0]}, missing: {got[1]}")
    assert wrong == [], "\n".join(wrong)


def _admin_names() -> set[str]:
    return {
        f"admin:{p.name}"
        for r in get_resolver().url_patterns
        if isinstance(r, URLResolver) and r.namespace == "admin"
        for p in r.url_patterns
        if getattr(p, "name", None)
    }


def hostile_bodies(world: World) -> dict[str, dict[str, Any]]:
    """The values a hostile writer sends, in every field a write of this site takes."""
    fields = [
        "pk",
        "id",
        "club",
        "season",
        "night",
        "club_night",
        "table",
        "match",
        "deal",
        "player",
        "players",
        "kept",
        "gone",
        "membership",
        "user",
        "account",
        "scorer",
        "game",
        "games",
        "method",
        "deals",
        "size",
        "others",
        "tables",
        "number",
        "key",
        "reason",
        "record",
        "full_record",
        "name",
        "handle",
        "display_name",
        "name_ja",
        "username",
        "role",
        "pin",
        "new_pin",
        "date",
        "venue",
        "target",
        "rules",
        "action",
        "names",
        "present",
        "guests",
        "starts_on",
        "ends_on",
        "public",
        "confirm_same",
    ]
    rival_player = world.rival.players.first()
    other_ids = {"club": world.rival.pk, "player": rival_player.pk, "players": [rival_player.pk]}
    return {
        "another club's ids": {f: other_ids.get(f, rival_player.pk) for f in fields},
        "unknown ids": {f: 987654321 for f in fields},
        "20 digits": {f: 10**20 for f in fields},
        "negative": {f: -5 for f in fields},
        "5,000 characters": {f: "x" * 5000 for f in fields},
        "wrong types": {f: {"a": [1, None, {"b": True}]} for f in fields},
        "missing fields": {},
    }


def counts() -> dict[str, int]:
    """Rows of every table the league and scoring keep."""
    return {
        m._meta.label: m.objects.count()
        for m in apps.get_models()
        if m._meta.app_label in ("tournaments", "scoring", "auth", "authtoken")
    }


WRITES = ("POST", "PUT", "PATCH", "DELETE")


def test_every_write_refuses_hostile_values_in_words_and_outsiders_store_nothing(settings):
    settings.ALLOW_SIGN_UP = True
    world = build()
    before = counts()
    rival = (world.rival.name, sorted(world.rival.players.values_list("display_name", flat=True)))
    wrong: list[str] = []
    for pattern in resolver_patterns():
        name = pattern.name
        if name in ("admin:", "logout", "rest_framework:logout", "set_language"):
            continue  # the admin's forms are Django's; signing out changes no club's data
        url = url_of(world, pattern)
        for method in (m for m in ROUTES[name].methods if m in WRITES):
            for what, body in hostile_bodies(world).items():
                form = not url.startswith("/api/")
                sent = (
                    {k: json.dumps(v) if isinstance(v, dict | list) else v for k, v in body.items()}
                    if form
                    else body
                )
                for role in (Role.ADMIN, Role.OTHER_ADMIN, Role.STRANGER):
                    response = send(world, role, method, url, sent, form=form)
                    if response.status_code >= 500:
                        wrong.append(
                            f"{method} {url} as {role.value}, {what}: {response.status_code}"
                        )
                    elif status(response) >= 400 and not text(response).strip():
                        wrong.append(f"{method} {url} as {role.value}, {what}: no words")
    assert wrong == [], "\n".join(wrong)
    assert counts() == before  # every request above was rolled back: this checks the test
    assert (
        world.rival.name,
        sorted(world.rival.players.values_list("display_name", flat=True)),
    ) == rival


def test_an_outsiders_write_stores_nothing(settings):
    """Without the rollback: an outsider's writes, with values that would be valid for
    the club's own administrator, leave every table as it was."""
    settings.ALLOW_SIGN_UP = False  # a sign-up is a write anyone may make
    world = build()
    before = counts()
    for pattern in resolver_patterns():
        name = pattern.name
        if name in ("admin:", "join", "table_link", "login", "rest_framework:login"):
            continue  # joining and signing in are everyone's to do
        url = url_of(world, pattern)
        for method in (m for m in ROUTES[name].methods if m in WRITES):
            access = ROUTES[name].methods[method]
            for role in OUTSIDERS_OF_A:
                if role in access.who:
                    continue
                client = world.client(role)
                TRIED[role.value] += 1
                if url.startswith("/api/"):
                    getattr(client, method.lower())(
                        url, json.dumps({"reason": "mine"}), content_type="application/json"
                    )
                else:
                    client.post(url, {"reason": "mine", "action": "revoke", "role": "admin"})
    after = counts()
    assert {k: (before[k], after[k]) for k in before if before[k] != after[k]} == {}


def test_zz_report_the_requests_tried(capsys):
    """docs/security.md quotes this line (``-k access_table -s``)."""
    with capsys.disabled():
        total = sum(TRIED.values())
        by_role = ", ".join(f"{role} {n}" for role, n in sorted(TRIED.items()))
        print(f"\naccess table: {total} requests by role ({by_role}); {len(ROUTES)} routes")
