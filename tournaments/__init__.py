"""Clubs, players, seasons, club nights, tables, matches and deals; their API and admin."""
