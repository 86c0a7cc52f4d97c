"""The Django admin: site operators see every club; other staff users only the clubs
they administer (``base.ClubScoped``: lists, change pages and the choices of every
foreign key).  ``league``: clubs with their memberships, players, seasons, nights and
tables; ``play``: matches with their seats, and deals.

Deals are entered through ``actions.deals.enter_deal`` here too, so the
engine judges every record; a stored deal is read-only (corrections, with their
history, are a workflow of their own).
"""

from web.admin import league, play  # each registers its models with the admin

__all__ = ["league", "play"]
