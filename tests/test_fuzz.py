"""A fast seeded slice of the fuzz campaign (bench/fuzz_api.py runs 100,000 requests per game):
whatever the request, ``handle`` answers, with ``ok`` or a coded error, in JSON a browser reads.

The dearer families (cost attacks on the searching ops) run in the campaign, whose worst CPU
and memory per op are in BENCHMARKS.md; here every family but those."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from helpers import load_bench

fuzzlib: Any = load_bench("fuzzlib")
REQUESTS = 150  # per game


@pytest.fixture(scope="module")
def generator() -> Any:
    corpus = fuzzlib.Corpus.make(deals=1, seed="SLICE")
    return fuzzlib.Generator(corpus, seed="SLICE", families=fuzzlib.CHEAP_FAMILIES)


@pytest.mark.parametrize("game", fuzzlib.GAMES)
def test_no_request_crashes_the_engine(generator: Any, game: str) -> None:
    verdicts: Counter[str] = Counter()
    findings = []
    for index in range(REQUESTS):
        family, op, text = generator.text(game, index)
        verdict, code = fuzzlib.judge(text)
        verdicts[verdict] += 1
        if verdict not in ("ok", "error"):
            findings.append((index, family, op, verdict, code))
    assert not findings, findings
    assert verdicts["ok"] >= 5 and verdicts["error"] >= 20  # the slice reaches both
