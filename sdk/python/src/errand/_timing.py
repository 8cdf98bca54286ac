"""Waiting, in the async client's words and the sync client's (unasync turns ``asleep`` into ``sleep``)."""
from __future__ import annotations

import asyncio
import time


async def asleep(seconds: float) -> None:
    await asyncio.sleep(seconds)


def sleep(seconds: float) -> None:
    time.sleep(seconds)
