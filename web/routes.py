"""Who may use each route: the access table of every URL pattern and method.

Each entry names a route (its URL name; the Django admin's are one entry) and, per HTTP
method, the roles that may use it and what everybody else gets.  The roles are those of
``tournaments.access`` as a request meets them, for an object of a club's *private*
season (a public season's pages are everybody's).  A route that takes an object names
which (``obj``): its ``pk`` is that object of the club.

``tests/web/test_access_table.py`` builds the list of routes from the URL resolver and
fails for a route not in this table; for every route, method and role it sends a
request in a world of two clubs and checks the declared answer, that nothing answers
5xx, and that no answer to an outsider names a hidden player, a private season or an
account of another club.  A new route is therefore a line here first.

The answers declared for those not allowed:

- ``404``: the object does not exist for them (another club's private object, or a
  signed-in reader who may not use it: an existing and a missing id answer alike);
- ``403``: an object they may read but not change;
- ``302``: a page that asks an anonymous reader to sign in (whatever the id);
- ``401``: the API, to an anonymous writer (read-only for the public).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Role(enum.Enum):
    ANONYMOUS = "anonymous"
    STRANGER = "signed-in stranger"
    MEMBER = "member"
    SCORER = "scorer"
    LINK = "table-link holder"
    ADMIN = "league administrator"
    OTHER_ADMIN = "another club's administrator"
    OPERATOR = "site operator"


EVERYONE = frozenset(Role)
SIGNED_IN = EVERYONE - {Role.ANONYMOUS, Role.LINK}
CLUB = frozenset({Role.MEMBER, Role.SCORER, Role.ADMIN, Role.OPERATOR})
"""Who reads a club's private season."""
SCORERS = frozenset({Role.SCORER, Role.ADMIN, Role.OPERATOR})
AT_TABLE = SCORERS | {Role.LINK}
ADMINS = frozenset({Role.ADMIN, Role.OPERATOR})
MEMBERS = frozenset({Role.MEMBER, Role.SCORER, Role.ADMIN})
"""The club's members, whatever their role (a site operator is none)."""
OPERATOR = frozenset({Role.OPERATOR})
OUTSIDERS = frozenset({Role.ANONYMOUS, Role.STRANGER, Role.OTHER_ADMIN})
"""Those who may know nothing of club A's private season."""


@dataclass(frozen=True)
class Access:
    """Who may use a method, and what the others get: ``others`` for a signed-in reader
    not allowed (or per role in ``by_role``), ``anonymous`` for an anonymous one."""

    who: frozenset[Role]
    others: int = 404
    anonymous: int = 302
    by_role: dict[Role, int] = field(default_factory=dict)

    def answer(self, role: Role) -> int | None:
        """The status a role not allowed gets (``None``: allowed)."""
        if role in self.who:
            return None
        if role in self.by_role:
            return self.by_role[role]
        return self.anonymous if role in (Role.ANONYMOUS, Role.LINK) else self.others


@dataclass(frozen=True)
class Route:
    obj: str
    """What the URL's ``pk`` names (``""``: nothing): season, night, table, match, deal,
    player, membership, invitation, upload, export, club, join (the ``token`` of an
    invitation)."""
    methods: dict[str, Access]


def read(who: frozenset[Role], **kw: Any) -> dict[str, Access]:
    return {"GET": Access(who, **kw)}


def page(reads: frozenset[Role], writes: frozenset[Role], **kw: Any) -> dict[str, Access]:
    """A page that shows a form (GET) and takes it (POST)."""
    return {"GET": Access(reads, **kw), "POST": Access(writes, **kw)}


def post(who: frozenset[Role], **kw: Any) -> dict[str, Access]:
    return {"POST": Access(who, **kw)}


ROUTES: dict[str, Route] = {}
"""Filled below, one line a route (tests/web/test_access_table.py reads it)."""

MEMBER_403 = {Role.MEMBER: 403}
READERS_403 = {Role.MEMBER: 403, Role.SCORER: 403}
"""The club's members read what they may not change: 403, not 404."""


def api_change(who: frozenset[Role], by_role: dict[Role, int] | None = None) -> Access:
    """A change through the API: members who may read get 403, outsiders 404, an
    anonymous writer 403 (no credentials)."""
    return Access(who, others=404, anonymous=403, by_role=by_role or READERS_403)


def api_object(writes: frozenset[Role] = ADMINS, delete: Access | None = None) -> dict[str, Access]:
    """A club object of the API: its club reads it, its administrators change it."""
    return {
        "GET": Access(CLUB, anonymous=404),
        "PUT": api_change(writes),
        "PATCH": api_change(writes),
        "DELETE": delete or api_change(writes),
    }


def api_list() -> dict[str, Access]:
    """A list (everyone reads what they may see in it) and a new object (signed in; its
    club must be one the writer administers, else 400 in words)."""
    return {"GET": Access(EVERYONE), "POST": Access(SIGNED_IN, anonymous=403)}


PRIVATE: dict[str, Any] = {"anonymous": 404}
ADMIN_PAGE: dict[str, Any] = {"others": 404, "by_role": READERS_403}

ROUTES.update(
    {
        # -- for everyone ---------------------------------------------------------------------
        "healthz": Route("", read(EVERYONE)),
        "readyz": Route("", read(EVERYONE)),
        "service_worker": Route("", read(EVERYONE)),
        "web_manifest": Route("", read(EVERYONE)),
        "favicon": Route("", read(EVERYONE)),
        "home": Route("", read(EVERYONE)),
        "blank_sheet": Route("", read(EVERYONE)),
        "sheet_template": Route("", read(EVERYONE)),
        "set_language": Route("", post(EVERYONE)),
        "login": Route("", page(EVERYONE, EVERYONE)),
        "logout": Route("", post(EVERYONE)),
        "sign_up": Route("", page(EVERYONE, EVERYONE)),
        "password_reset": Route("", page(EVERYONE, EVERYONE)),
        "password_reset_done": Route("", read(EVERYONE)),
        "password_reset_confirm": Route("", page(EVERYONE, EVERYONE)),
        "member_password_reset": Route("", page(EVERYONE, EVERYONE)),
        "password_reset_complete": Route("", read(EVERYONE)),
        "join": Route("join", page(EVERYONE, EVERYONE)),
        "table_link": Route("", read(EVERYONE)),
        "rest_framework:login": Route("", page(EVERYONE, EVERYONE)),
        "rest_framework:logout": Route("", post(EVERYONE)),
        # A club's page and public calendar: its public seasons' (404 to an outsider when
        # it has none); its members also read its private seasons on the page.
        "club_page": Route("", read(EVERYONE)),
        "club_feed": Route("", read(EVERYONE)),
        # A member's private calendar: opened by its secret address alone, by no role (the
        # table's token names no feed: 404 to all); tests/web/test_calendars*.py has the rest.
        "member_feed": Route("", read(frozenset(), others=404, anonymous=404)),
        # -- a private season's pages: its club reads them -------------------------------------
        "season": Route("season", read(CLUB, **PRIVATE)),
        "season_export": Route("season", read(CLUB, **PRIVATE)),
        "season_statistics": Route("season", read(CLUB, **PRIVATE)),
        "club_night": Route("night", read(CLUB, **PRIVATE)),
        "night_live": Route("night", read(CLUB, **PRIVATE)),
        # A player's own night: its readers, and whoever holds a link of one of its tables.
        "my_night": Route("night", read(CLUB | {Role.LINK}, **PRIVATE)),
        # Push messages turned on and off (JSON): from "my night", and from a player's page.
        "night_push": Route("night", post(CLUB | {Role.LINK}, **PRIVATE)),
        "player_push": Route("player", post(CLUB, **PRIVATE)),
        "night_export": Route("night", read(CLUB, **PRIVATE)),
        "night_seating": Route("night", read(CLUB, **PRIVATE)),
        "night_tables": Route("night", read(CLUB, **PRIVATE)),
        "night_paper": Route("night", read(CLUB, **PRIVATE)),
        "match": Route("match", read(CLUB, **PRIVATE)),
        "match_export": Route("match", read(CLUB, **PRIVATE)),
        "paper_sheet": Route("match", read(CLUB, **PRIVATE)),
        "player": Route("player", read(CLUB, **PRIVATE)),
        "head_to_head": Route("player", read(CLUB, **PRIVATE)),
        # Link previews' images: a public season's or night's alone, asked as an anonymous
        # reader whoever asks (a private one's: 404 to all, its club too; web.pages.previews).
        "season_preview": Route("season", read(frozenset(), others=404, anonymous=404)),
        "night_preview": Route("night", read(frozenset(), others=404, anonymous=404)),
        "player_feed": Route("player", read(CLUB, **PRIVATE)),
        # A member's own page of their secret calendar address (a site operator is no
        # member: no address).
        "my_calendar": Route("", page(MEMBERS, MEMBERS, others=404)),
        # -- at the table: its scorer, the club's administrators, the link's holder -------------
        "table": Route("table", read(AT_TABLE)),
        "deal_entry": Route("match", page(AT_TABLE, AT_TABLE, by_role=MEMBER_403)),
        "correct_deal": Route("deal", page(AT_TABLE, AT_TABLE, by_role=MEMBER_403)),
        "confirm_with_pin": Route("deal", page(AT_TABLE, AT_TABLE)),
        "table_who": Route("table", page(AT_TABLE, AT_TABLE)),
        # After a player's slip on this phone (else it goes on to the table).
        "own_pin": Route("table", page(AT_TABLE, AT_TABLE)),
        "delete_deal": Route("deal", post(SCORERS, by_role=MEMBER_403)),
        "end_match": Route("match", post(SCORERS, by_role=MEMBER_403)),
        # A second person of the club (the scorer who entered it is answered in words).
        "confirm_deal": Route("deal", post(CLUB)),
        "player_pin": Route("own_player", post(frozenset({Role.MEMBER}))),
        # -- the club's administrators ---------------------------------------------------------
        "club_setup": Route("", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "club_webhooks": Route("", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "club_settings": Route("", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "player_edit": Route("player", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "players_from_list": Route("", post(ADMINS, **ADMIN_PAGE)),
        "player_merge": Route("player", post(ADMINS, **ADMIN_PAGE)),
        "club_members": Route("", post(ADMINS, **ADMIN_PAGE)),
        "invite": Route("", post(ADMINS, **ADMIN_PAGE)),
        "revoke_invitation": Route("invitation", post(ADMINS, **ADMIN_PAGE)),
        "reset_link": Route("membership", post(ADMINS, **ADMIN_PAGE)),
        "sheet_import": Route("", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "sheet_preview": Route("upload", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "club_export": Route("", post(ADMINS, **ADMIN_PAGE)),
        "export": Route("export", read(ADMINS, **ADMIN_PAGE)),
        "export_file": Route("export", read(ADMINS, **ADMIN_PAGE)),
        "season_new": Route("", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "season_edit": Route("season", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "night_new": Route("season", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "night_edit": Route("night", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "night_cancel": Route("night", post(ADMINS, **ADMIN_PAGE)),
        "night_restore": Route("night", post(ADMINS, **ADMIN_PAGE)),
        "season_divisions": Route("season", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "season_close": Route("season", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "night_draw": Route("night", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "night_rounds": Route("night", page(ADMINS, ADMINS, **ADMIN_PAGE)),
        "night_pairs": Route("night", read(ADMINS, **ADMIN_PAGE)),
        "pin_slips": Route("night", read(ADMINS, **ADMIN_PAGE)),
        "restore_deal": Route("deal", post(ADMINS, **ADMIN_PAGE)),
        "reopen_match": Route("match", post(ADMINS, **ADMIN_PAGE)),
        "table_link_change": Route("table", post(ADMINS, **ADMIN_PAGE)),
        "table_scorer": Route("table", post(ADMINS, **ADMIN_PAGE)),
        # -- the REST API ----------------------------------------------------------------------
        "api-root": Route("", read(EVERYONE)),
        "schema": Route("", read(EVERYONE)),
        "api-docs": Route("", read(EVERYONE)),
        "standings": Route("", read(CLUB, **PRIVATE)),  # ?season= a private season
        "club-list": Route(
            "", {"GET": Access(EVERYONE), "POST": Access(OPERATOR, others=403, anonymous=403)}
        ),
        "club-detail": Route(
            "club", api_object(delete=Access(OPERATOR, others=403, anonymous=403))
        ),
        "player-list": Route("", api_list()),
        "player-detail": Route("player", api_object()),
        "player-head-to-head": Route("player", read(CLUB, anonymous=404)),
        "season-list": Route("", api_list()),
        "season-detail": Route("season", api_object()),
        "season-divisions": Route(
            "season", {"GET": Access(CLUB, anonymous=404), "PUT": api_change(ADMINS)}
        ),
        "season-close": Route(
            "season", {"GET": Access(CLUB, anonymous=404), "POST": api_change(ADMINS)}
        ),
        "clubnight-list": Route("", api_list()),
        "clubnight-detail": Route("night", api_object()),
        "clubnight-live": Route("night", read(CLUB, **PRIVATE)),
        "clubnight-standings": Route("night", read(CLUB, **PRIVATE)),
        "clubnight-measures": Route("night", read(CLUB, **PRIVATE)),
        "clubnight-cancel": Route("night", {"POST": api_change(ADMINS)}),
        "clubnight-restore": Route("night", {"POST": api_change(ADMINS)}),
        "clubnight-rounds": Route(
            "night", {"GET": Access(CLUB, anonymous=404), "POST": api_change(ADMINS)}
        ),
        "table-list": Route("", api_list()),
        "table-detail": Route("table", api_object()),
        "match-list": Route("", api_list()),
        "match-detail": Route("match", read(CLUB, **PRIVATE)),
        "match-deals": Route(
            "match", {"GET": Access(CLUB, anonymous=404), "POST": api_change(SCORERS, MEMBER_403)}
        ),
        "match-finish": Route("match", {"POST": api_change(SCORERS, MEMBER_403)}),
        "match-reopen": Route("match", {"POST": api_change(ADMINS)}),
        "deal-list": Route("", read(EVERYONE)),
        "deal-detail": Route(
            "deal",
            {
                "GET": Access(CLUB, anonymous=404),
                "PUT": api_change(SCORERS, MEMBER_403),
                "DELETE": api_change(SCORERS, MEMBER_403),
            },
        ),
        "deal-confirm": Route("deal", {"POST": api_change(CLUB)}),
        "deal-history": Route(
            "deal", {"GET": Access(ADMINS, others=404, anonymous=403, by_role=READERS_403)}
        ),
        "deal-restore": Route("deal", {"POST": api_change(ADMINS)}),
        "score_sheets": Route("", {"POST": api_change(ADMINS)}),
        # -- the Django admin: the site operators' (every route of its namespace) ----------------
        "admin:": Route("", read(OPERATOR, others=302)),
    }
)
