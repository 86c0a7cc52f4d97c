"""The pages bench keeps the README's table of queries true: it reads the table and fails,
naming each answer, when what it measured differs (``bench/pages_bench.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from bench import pages_bench


def measured(counts: list[int]) -> list[dict[str, Any]]:
    """Rows as the bench measures them, in its answers' order, with these counts."""
    asked = pages_bench.answers("10k", season=1, player=1)
    return [
        {"answer": answer, "reader": reader, "queries": n}
        for (answer, reader, _url), n in zip(asked, counts, strict=True)
    ]


def test_the_readme_gives_a_count_for_every_answer_the_bench_measures():
    counts = pages_bench.readme_counts()
    assert len(counts) == len(pages_bench.answers("10k", season=1, player=1))
    assert all(n > 0 for n in counts)


def test_a_true_readme_passes_and_the_run_says_what_it_checked():
    counts = pages_bench.readme_counts()
    said, stale = pages_bench.readme_check({"10k": {"rows": measured(counts)}})
    assert stale == []
    assert said == "checked the 10k scene's against the README: the same"


def test_a_stale_count_is_named_with_the_readmes_figure_and_the_measured_one():
    counts = pages_bench.readme_counts()
    more = list(counts)
    more[1] += 2  # home, for a member
    said, stale = pages_bench.readme_check({"10k": {"rows": measured(more)}})
    assert said.endswith("1 differing")
    assert stale == [
        f"10k: home (member): the README says {counts[1]} queries, measured {counts[1] + 2}"
    ]


def test_the_readme_keeps_the_10k_figure_and_1m_is_held_to_it():
    counts = pages_bench.readme_counts()
    grown = list(counts)
    grown[10] += 1  # the season page
    said, stale = pages_bench.readme_check(
        {"10k": {"rows": measured(counts)}, "1M": {"rows": measured(grown)}}
    )
    assert stale == [
        f"1M: season page (member): {counts[10]} queries at 10k, {counts[10] + 1} at 1M"
    ]
    # Alone, the 1M scene is held to the README's counts.
    _said, alone = pages_bench.readme_check({"1M": {"rows": measured(grown)}})
    assert alone == [
        f"1M: season page (member): the README says {counts[10]} queries, measured {counts[10] + 1}"
    ]


def test_a_run_of_some_answers_checks_nothing_and_says_so(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(pages_bench, "ONLY", "season")
    said, stale = pages_bench.readme_check({"10k": {"rows": []}})
    assert stale == [] and said.startswith("not checked")
    assert pages_bench.readme_check({"wide": {"rows": []}})[0].startswith("not checked")
