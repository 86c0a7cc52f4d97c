"""Club nights as iCalendar feeds (RFC 5545, with RFC 7986's NAME and REFRESH-INTERVAL),
written with the ``icalendar`` library (docs/calendars.md).

One VEVENT a night: its UID (``night-<pk>@<site host>``) never changes, its SEQUENCE is
the night's ``sequence`` (raised when its date, times, venue or name change, or it is
called off or brought back: ``actions.nights``), STATUS is CANCELLED for a night
called off, else CONFIRMED.  A night with a start time is timed in its club's time zone
(DTSTART/DTEND with its TZID and a VTIMEZONE); one without is an all-day event.  DTSTAMP
and LAST-MODIFIED are the night's ``changed_at``, so that a feed of unchanged nights is
the same bytes at every fetch.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from icalendar import Calendar, Event, vDuration
from icalendar.enums import STATUS

from tournaments.models import ClubNight

REFRESH = dt.timedelta(hours=1)
"""How often calendar apps are asked to fetch a feed again (REFRESH-INTERVAL, and the
older X-PUBLISHED-TTL that Outlook and Apple read)."""
PAST_DAYS = 365
"""A club's feeds hold its nights of the last year and every later one: a night that
leaves a feed leaves the calendars too, and a whole club's history is not one."""
PRODID = "-//Clubscore//club nights//EN"
CONTENT_TYPE = "text/calendar; charset=utf-8"


@dataclass(frozen=True)
class Feed:
    """What a feed is called and who it is for: its ``name`` (NAME, X-WR-CALNAME), a
    stable ``key`` (the calendar's UID, ``<key>@<host>``), the club's ``time_zone``."""

    name: str
    key: str
    time_zone: str


def host(request: HttpRequest) -> str:
    """The site's host name, the right-hand side of every UID: the first host the site is
    configured for (not whichever name a request used), else the request's."""
    for name in settings.ALLOWED_HOSTS:
        if name and name != "*" and not name.startswith("."):
            return name
    return request.get_host().rsplit(":", 1)[0]


def times(
    night: ClubNight, zone: zoneinfo.ZoneInfo
) -> tuple[dt.date | dt.datetime, dt.date | dt.datetime | None]:
    """The night's start and end: date-times in ``zone`` when it has a start time (an end
    before the start is the next day's; no end time, no end), else a whole day."""
    if night.starts_at is None:
        return night.date, night.date + dt.timedelta(days=1)
    start = dt.datetime.combine(night.date, night.starts_at, tzinfo=zone)
    if night.ends_at is None:
        return start, None
    ends_on = night.date + dt.timedelta(days=1 if night.ends_at <= night.starts_at else 0)
    return start, dt.datetime.combine(ends_on, night.ends_at, tzinfo=zone)


def summary(night: ClubNight) -> str:
    """The event's title: the season, then the night's name (a final without one:
    "Final"); a night called off says so first, for apps that ignore STATUS."""
    name = night.name.strip() or (pgettext("a club night's name", "Final") if night.final else "")
    title = f"{night.season.name} – {name}" if name else night.season.name
    return _("Called off: %(title)s") % {"title": title} if night.cancelled_at else title


def event(night: ClubNight, request: HttpRequest, zone: zoneinfo.ZoneInfo) -> Event:
    start, end = times(night, zone)
    changed = night.changed_at.astimezone(dt.UTC)
    url = request.build_absolute_uri(reverse("club_night", args=[night.pk]))
    made = Event.new(
        uid=f"night-{night.pk}@{host(request)}",
        sequence=night.sequence,
        status=STATUS.CANCELLED if night.cancelled_at else STATUS.CONFIRMED,
        start=start,
        end=end,
        stamp=changed,
        last_modified=changed,
        summary=summary(night),
        location=night.venue.strip() or None,
        url=url,
        description=url,
    )
    return made


def calendar(feed: Feed, nights: Iterable[ClubNight], request: HttpRequest) -> bytes:
    """The feed of ``nights`` (of one club), with the VTIMEZONE their times use."""
    zone = zoneinfo.ZoneInfo(feed.time_zone)
    cal = Calendar.new(name=feed.name, prodid=PRODID, uid=f"{feed.key}@{host(request)}")
    cal.add("REFRESH-INTERVAL", vDuration(REFRESH), parameters={"VALUE": "DURATION"})
    cal.add("X-PUBLISHED-TTL", vDuration(REFRESH))
    cal.add("X-WR-TIMEZONE", feed.time_zone)
    dates = []
    for night in nights:
        cal.add_component(event(night, request, zone))
        dates.append(night.date)
    if dates:  # the zone's rules over the nights' dates only (a short VTIMEZONE)
        cal.add_missing_timezones(
            first_date=min(dates) - dt.timedelta(days=1),
            last_date=max(dates) + dt.timedelta(days=2),
        )
    return cal.to_ical()


def answer(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def since(zone_name: str) -> dt.date:
    """The first date a club's feed holds: :data:`PAST_DAYS` before today in its zone."""
    return today(zone_name) - dt.timedelta(days=PAST_DAYS)


def today(zone_name: str) -> dt.date:
    return dt.datetime.now(zoneinfo.ZoneInfo(zone_name)).date()
