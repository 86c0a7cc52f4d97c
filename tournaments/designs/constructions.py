"""Schedules built by construction: affine planes and the Latin-square grid.

Each function returns the schedule's rounds, each a partition of the players 0…n−1 into
tables (in no particular seat order: ``seats.seat_order`` sets it).
"""

from __future__ import annotations

Rounds = list[list[list[int]]]

PLANE_ORDERS = (2, 3, 4, 5, 7, 8)
"""The orders q of the affine planes AG(2, q) built here: the prime powers up to 8."""

_MODULUS = {4: 0b111, 8: 0b1011}
"""GF(4) and GF(8) as polynomials over GF(2) modulo x² + x + 1 and x³ + x + 1: an
element is the bit pattern of its coefficients, addition is exclusive or."""


def field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """The addition and multiplication tables of GF(q), elements 0…q−1."""
    if q in _MODULUS:
        modulus, degree = _MODULUS[q], q.bit_length() - 1

        def times(a: int, b: int) -> int:
            product = 0
            for bit in range(degree):
                if b >> bit & 1:
                    product ^= a << bit
            for bit in range(2 * degree - 2, degree - 1, -1):
                if product >> bit & 1:
                    product ^= modulus << (bit - degree)
            return product

        return [[a ^ b for b in range(q)] for a in range(q)], [
            [times(a, b) for b in range(q)] for a in range(q)
        ]
    if q < 2 or any(q % d == 0 for d in range(2, q)):
        raise ValueError(f"no field of order {q} here")
    return [[(a + b) % q for b in range(q)] for a in range(q)], [
        [a * b % q for b in range(q)] for a in range(q)
    ]


def affine_plane(q: int) -> Rounds:
    """AG(2, q): the q² points (x, y) (player x·q + y), and for each of the q + 1
    directions a round whose tables are the q parallel lines: y = m·x + b for each slope m,
    then x = c. Two points lie on exactly one line, so every pair meets exactly once."""
    add, mul = field(q)
    rounds = [[[x * q + add[mul[m][x]][b] for x in range(q)] for b in range(q)] for m in range(q)]
    rounds.append([[c * q + y for y in range(q)] for c in range(q)])
    return rounds


def latin_grid(k: int) -> Rounds:
    """k² players on a k × k grid (player i·k + j): the rows, the columns, then the
    symbols of the cyclic Latin square (i + j mod k). Any two of these lines cross in one
    cell, so no pair meets twice; the only three rounds at tables of 6 for 36 (no two
    orthogonal Latin squares of order 6 exist)."""
    rows = [[i * k + j for j in range(k)] for i in range(k)]
    columns = [[i * k + j for i in range(k)] for j in range(k)]
    symbols = [[i * k + (s - i) % k for i in range(k)] for s in range(k)]
    return [rows, columns, symbols]


def constructed() -> list[tuple[str, int, Rounds]]:
    """Every construction: (name, table size, rounds)."""
    designs: list[tuple[str, int, Rounds]] = [
        (f"affine plane AG(2,{q})", q, affine_plane(q)) for q in PLANE_ORDERS
    ]
    designs += [(f"Latin square {k}×{k}", k, latin_grid(k)) for k in range(3, 9)]
    return designs
