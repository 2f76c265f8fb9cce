"""An emulated network between the browser and a static host, for the start-up benchmark.

On 127.0.0.1 a first visit costs no transfer time at all, so it measures only CPU: the page,
the server and Python's start sharing the machine's cores. A real first visit of a static
host is bound by the network too. ``Link`` stands for one: a bandwidth shared by every
connection (a token bucket: one bottleneck, the bytes of all responses queued through it) and a
round trip before each response (two on a connection's first request: the TCP handshake), and
the host answers the way GitHub Pages does: text types gzipped when the browser accepts it, and
``Cache-Control: max-age=600`` (a later visit within ten minutes is served from the HTTP cache
without asking).

Glossary:
- rate: the link's bandwidth, bytes per second, shared by all responses;
- rtt: the round trip time, seconds;
- compressed: what the host sends for a file it gzips (level 6), made once per file;
- burst: how far behind the link's schedule a server that woke late may send at once.
"""

from __future__ import annotations

import email.utils
import gzip
import math
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

CHUNK = 16 * 1024
BURST = 0.05  # seconds of idle link a late server may catch up on
HOST_CACHE_CONTROL = "max-age=600"  # what GitHub Pages sends


@dataclass
class Answer:
    """What the host answers for a file: a status, its headers (lower-case names), the body."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes


class Link:
    """A shared bottleneck: ``send`` paces bytes at ``mbps`` across every connection."""

    def __init__(self, mbps: float, rtt_ms: float, uncompressed: tuple[str, ...]) -> None:
        if not (math.isfinite(mbps) and math.isfinite(rtt_ms)) or mbps <= 0 or rtt_ms < 0:
            raise ValueError(f"a link needs a finite mbps > 0 and rtt >= 0, not {mbps}/{rtt_ms}")
        self.mbps = mbps
        self.rtt_ms = rtt_ms
        self.rate = mbps * 1e6 / 8
        self.rtt = rtt_ms / 1000
        self.uncompressed = uncompressed
        self.lock = threading.Lock()
        self.free_at = 0.0
        self.compressed: dict[Path, bytes] = {}

    @classmethod
    def parse(cls, text: str, uncompressed: tuple[str, ...]) -> Link:
        """``"50/30"``: 50 Mbit/s, 30 ms round trip."""
        try:
            mbps, rtt = (float(part) for part in text.split("/"))
        except ValueError:
            raise ValueError(f"a link is MBPS/RTT_MS, like 50/30, not {text!r}") from None
        return cls(mbps, rtt, uncompressed)

    def __str__(self) -> str:
        return f"{self.mbps:g} Mbit/s, {self.rtt_ms:g} ms round trip"

    def body(self, file: Path, accept_encoding: str) -> tuple[bytes, str | None]:
        """What the host sends for ``file``: (bytes, Content-Encoding or None)."""
        data = file.read_bytes()
        if "gzip" not in accept_encoding or file.name.endswith(self.uncompressed):
            return data, None
        with self.lock:
            packed = self.compressed.get(file)
        if packed is None:
            packed = gzip.compress(data, 6, mtime=0)
            with self.lock:
                self.compressed[file] = packed
        return packed, "gzip"

    def answer(
        self, file: Path, content_type: str, if_modified_since: str | None, accept_encoding: str
    ) -> Answer:
        """The host's answer for ``file``, whatever the protocol: 304 when the browser's copy is
        current (the service worker's precache revalidates), else 200 with the body, gzipped as
        :meth:`body` says; both with the host's caching headers."""
        modified = email.utils.formatdate(int(file.stat().st_mtime), usegmt=True)
        headers = [("cache-control", HOST_CACHE_CONTROL), ("last-modified", modified)]
        if if_modified_since == modified:
            return Answer(304, headers, b"")
        body, encoding = self.body(file, accept_encoding)
        headers += [("content-type", content_type), ("content-length", str(len(body)))]
        if encoding:
            headers.append(("content-encoding", encoding))
        return Answer(200, headers, body)

    def wait_round_trips(self, count: int) -> None:
        time.sleep(self.rtt * count)

    def reserve(self, size: int) -> float:
        """Book ``size`` bytes on the link, after every byte booked before; returns when they
        are through (``time.monotonic``). A server that wakes late (the bench's server shares
        the cores with the browser) may catch up on up to ``BURST`` seconds of idle link, as a
        real bottleneck's buffer would have kept sending."""
        with self.lock:
            begin = max(time.monotonic() - BURST, self.free_at)
            self.free_at = begin + size / self.rate
            return self.free_at

    def send(self, out: BinaryIO, data: bytes) -> None:
        """Write ``data`` no faster than the link, sharing it with every other response."""
        for start in range(0, len(data), CHUNK):
            chunk = data[start : start + CHUNK]
            delay = self.reserve(len(chunk)) - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            out.write(chunk)
