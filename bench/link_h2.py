"""The emulated network of bench/link.py spoken over HTTP/2 and TLS, as GitHub Pages serves.

``link.py``'s server is HTTP/1.1: Chromium opens at most six connections to a host and queues
every further request behind them, so a page of many small files (the app asks for 74 on a
first visit) waits in that queue where HTTP/2 would send them all on one connection. This
module serves the same files, gzipped and cached the same way and paced through the same
shared bandwidth, on one TLS connection that multiplexes every request (the ``h2`` package,
bench only; ``pip install h2``).

The round trips a response costs: one from its request (the request's way up and the first
byte's way down), and on a connection's first request three (TCP's handshake and TLS 1.3's
one). The browser must be told to trust the self-signed certificate made here
(``certificate().browser_args()``).

Glossary:
- stream: one request and its response on the shared connection (HTTP/2);
- window: how many bytes the browser lets the server send before it asks for more (HTTP/2's
  flow control, per stream and per connection).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import mimetypes
import ssl
import subprocess
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Mapping
from pathlib import Path

from h2.config import H2Configuration
from h2.connection import H2Connection
from h2.events import (
    ConnectionTerminated,
    RequestReceived,
    StreamReset,
    WindowUpdated,
)
from h2.exceptions import ProtocolError, StreamClosedError

from link import CHUNK, Link

HANDSHAKE_ROUND_TRIPS = 2  # TCP, then TLS 1.3, before the first request can go up


class Certificate:
    """A self-signed certificate for 127.0.0.1, made by ``openssl`` in a folder of its own, and
    the browser switch that makes Chromium trust it: ``--ignore-certificate-errors-spki-list``
    treats a chain with this public key as valid (so the HTTP cache stores its responses, which
    ``--ignore-certificate-errors`` would not: a later visit would fetch everything again)."""

    def __init__(self) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="tapete-h2-")
        self.key = Path(self.folder.name) / "key.pem"
        self.cert = Path(self.folder.name) / "cert.pem"
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(self.key),
                "-out", str(self.cert),
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip
        public = ssl.PEM_cert_to_DER_cert(self.cert.read_text())
        self.spki = base64.b64encode(hashlib.sha256(spki_of(public)).digest()).decode()

    def browser_args(self) -> list[str]:
        return [f"--ignore-certificate-errors-spki-list={self.spki}"]

    def context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert, self.key)
        context.set_alpn_protocols(["h2"])
        return context


def spki_of(cert_der: bytes) -> bytes:
    """The DER SubjectPublicKeyInfo of a certificate (what Chromium's SPKI list hashes)."""
    done = subprocess.run(
        ["openssl", "x509", "-inform", "der", "-pubkey", "-noout"],
        input=cert_der,
        check=True,
        capture_output=True,
    )
    pem = done.stdout.decode()
    body = "".join(line for line in pem.splitlines() if "-----" not in line)
    return base64.b64decode(body)


CERTIFICATE: Certificate | None = None


def certificate() -> Certificate:
    """This process's one certificate (every server and browser launch shares it)."""
    global CERTIFICATE
    if CERTIFICATE is None:
        CERTIFICATE = Certificate()
    return CERTIFICATE


class Connection(asyncio.Protocol):
    """One browser connection: answers each stream with a file of ``dist`` through the link."""

    def __init__(self, site: H2Server) -> None:
        self.site = site
        self.h2 = H2Connection(H2Configuration(client_side=False, header_encoding="utf-8"))
        self.transport: asyncio.Transport | None = None
        self.opened = time.monotonic()
        self.windows: dict[int, asyncio.Event] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.h2.initiate_connection()
        self.flush()

    def flush(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(self.h2.data_to_send())

    def data_received(self, data: bytes) -> None:
        try:
            events = self.h2.receive_data(data)
        except ProtocolError:
            self.flush()
            if self.transport is not None:
                self.transport.close()
            return
        for event in events:
            if isinstance(event, RequestReceived):
                headers = {str(name): str(value) for name, value in event.headers or ()}
                task = asyncio.ensure_future(self.answer(event.stream_id, headers))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
            elif isinstance(event, WindowUpdated):
                for stream, window in list(self.windows.items()):
                    if event.stream_id in (0, stream):
                        window.set()
            elif isinstance(event, StreamReset):
                if event.stream_id in self.windows:
                    self.windows.pop(event.stream_id).set()
            elif isinstance(event, ConnectionTerminated) and self.transport is not None:
                self.transport.close()
        self.flush()

    def connection_lost(self, exc: Exception | None) -> None:
        for task in self.tasks:
            task.cancel()
        for window in self.windows.values():
            window.set()

    async def answer(self, stream: int, headers: Mapping[str, str]) -> None:
        link = self.site.link
        path = urllib.parse.unquote(headers.get(":path", "/").split("?")[0])
        # The connection is usable once its handshakes are done; a request sent before waits
        # for that, then costs its own round trip.
        usable_at = self.opened + link.rtt * HANDSHAKE_ROUND_TRIPS
        await asyncio.sleep(max(0.0, usable_at - time.monotonic()) + link.rtt)
        file = self.site.resolve(path)
        try:
            if file is None:
                self.h2.send_headers(stream, [(":status", "404"), ("content-length", "0")], True)
                self.flush()
                return
            reply = link.answer(
                file,
                self.site.content_type(file),
                headers.get("if-modified-since"),
                headers.get("accept-encoding", ""),
            )
            status = [(":status", str(reply.status)), *reply.headers]
            self.h2.send_headers(stream, status, end_stream=not reply.body)
            self.flush()
            if reply.body:
                await self.send_body(stream, reply.body)
            self.site.count(path, file.stat().st_size if reply.body else 0)
        except StreamClosedError:
            pass
        finally:
            self.windows.pop(stream, None)

    async def send_body(self, stream: int, body: bytes) -> None:
        sent = 0
        while sent < len(body):
            window = self.h2.local_flow_control_window(stream)
            size = min(CHUNK, len(body) - sent, window, self.h2.max_outbound_frame_size)
            if size <= 0:
                event = self.windows.setdefault(stream, asyncio.Event())
                event.clear()
                await event.wait()
                if self.transport is None or self.transport.is_closing():
                    return
                continue
            delay = self.site.link.reserve(size) - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if self.transport is None or self.transport.is_closing():
                return
            self.h2.send_data(stream, body[sent : sent + size])
            sent += size
            self.flush()
        self.h2.end_stream(stream)
        self.flush()


class H2Server:
    """``dist`` served over HTTP/2 and TLS through ``link``, from an event loop in a thread."""

    def __init__(
        self,
        dist: Path,
        link: Link,
        types: Mapping[str, str],
        count: Callable[[str, int], None],
    ) -> None:
        self.dist = dist.resolve()
        self.link = link
        self.types = types
        self.count = count
        context = certificate().context()
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        async def start() -> None:
            self.server = await self.loop.create_server(
                lambda: Connection(self), "127.0.0.1", 0, ssl=context
            )
            started.set()

        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        asyncio.run_coroutine_threadsafe(start(), self.loop)
        started.wait(10)
        port = self.server.sockets[0].getsockname()[1]
        self.url = f"https://127.0.0.1:{port}/"

    def resolve(self, path: str) -> Path | None:
        """The file of ``dist`` a request's path names (a folder's index.html), or None."""
        file = (self.dist / path.lstrip("/")).resolve()
        if file != self.dist and self.dist not in file.parents:
            return None
        if file.is_dir():
            file = file / "index.html"
        return file if file.is_file() else None

    def content_type(self, file: Path) -> str:
        return self.types.get(file.suffix) or mimetypes.guess_type(file.name)[0] or "text/plain"

    def close(self) -> None:
        async def stop() -> None:
            self.server.close()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
