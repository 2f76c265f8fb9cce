"""TEMPORARY: pairing again and again, to see what state a failed pairing is in."""

from __future__ import annotations

from typing import Any

import pytest

from devices_helpers import pair_table


@pytest.mark.parametrize("run", range(10))
def test_pairing(new_context: Any, app_url: str, run: int) -> None:
    host, guests = pair_table(new_context, app_url, "willie", ["remote", "remote"], {})
    assert len(guests) == 2
