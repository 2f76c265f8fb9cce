"""The start-up bench's emulated network (bench/link.py): one bandwidth shared by every
response, a late server catching up on no more than ``BURST`` of idle link, and a clear refusal
of a link that is not ``MBPS/RTT_MS``."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import helpers

link = helpers.load_bench("link")


class Clock:
    """A stand-in for ``time.monotonic`` that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(link.time, "monotonic", fake)
    return fake


def test_bytes_booked_one_after_another(clock: Clock) -> None:
    one_megabyte_a_second = link.Link(8, 0, ())
    # an idle link: its first BURST seconds of bytes go at once
    start = clock.now - link.BURST
    assert one_megabyte_a_second.reserve(1_000_000) == pytest.approx(start + 1.0)
    # a second response shares the link: its bytes go after the first's
    assert one_megabyte_a_second.reserve(500_000) == pytest.approx(start + 1.5)


def test_a_late_server_catches_up_on_burst_seconds_at_most(clock: Clock) -> None:
    pace = link.Link(8, 0, ())
    through = pace.reserve(1_000_000)
    clock.now = through + link.BURST / 2  # woke a little late: the link idled meanwhile
    assert pace.reserve(100_000) == pytest.approx(through + 0.1)
    clock.now = through + 10  # long idle: only BURST of it may be caught up on
    assert pace.reserve(100_000) == pytest.approx(clock.now - link.BURST + 0.1)


def test_text_is_gzipped_and_zips_are_not(tmp_path: Path) -> None:
    pace = link.Link(50, 30, (".zip",))
    text = tmp_path / "app.js"
    text.write_text("export const x = 1;\n" * 200)
    packed, encoding = pace.body(text, "gzip, deflate, br")
    assert encoding == "gzip" and gzip.decompress(packed) == text.read_bytes()
    assert pace.body(text, "") == (text.read_bytes(), None)
    archive = tmp_path / "stdlib.zip"
    archive.write_bytes(b"PK" + bytes(100))
    assert pace.body(archive, "gzip") == (archive.read_bytes(), None)


@pytest.mark.parametrize("text", ["50", "50/30/1", "fast/30", "0/30", "50/-1", "nan/30", "inf/30"])
def test_a_bad_link_is_refused_with_what_was_given(text: str) -> None:
    with pytest.raises(ValueError, match="link"):
        link.Link.parse(text, ())


def test_a_link_reads_as_mbps_and_round_trip() -> None:
    parsed = link.Link.parse("50/30", ())
    assert (parsed.rate, parsed.rtt) == (50e6 / 8, 0.03)
    assert str(parsed) == "50 Mbit/s, 30 ms round trip"


def test_the_host_answers_304_to_a_current_copy_and_200_otherwise(tmp_path: Path) -> None:
    pace = link.Link(50, 30, ())
    page = tmp_path / "index.html"
    page.write_text("<!doctype html><title>t</title>\n" * 50)
    first = pace.answer(page, "text/html", None, "gzip")
    fields = dict(first.headers)
    assert first.status == 200 and gzip.decompress(first.body) == page.read_bytes()
    assert fields["cache-control"] == link.HOST_CACHE_CONTROL
    assert fields["content-encoding"] == "gzip"
    assert fields["content-length"] == str(len(first.body))
    again = pace.answer(page, "text/html", fields["last-modified"], "gzip")
    assert (again.status, again.body) == (304, b"")
    stale = pace.answer(page, "text/html", "Thu, 01 Jan 1970 00:00:00 GMT", "")
    assert stale.status == 200 and stale.body == page.read_bytes()
