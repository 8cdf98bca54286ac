"""When a request is tried again, and after how long: shared by the sync and async clients."""
from __future__ import annotations

import email.utils
import random
import time

import httpx

#: The status at which the daemon refused the request before doing anything, so that even a POST without an
#: idempotency key may be sent again.
REFUSED = frozenset({429})
#: Statuses worth trying again when repeating the request is safe.
TRANSIENT = frozenset({408, 500, 502, 503, 504}) | REFUSED
#: The longest Retry-After waited for by default; a longer one is raised at once as the error it came with.
MAX_RETRY_DELAY_S = 60.0


def retry_after_seconds(value: str | None) -> float | None:
    """Retry-After as seconds: delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def backoff_seconds(attempt: int, base: float = 0.5, cap: float = 8.0) -> float:
    """Exponential backoff with full jitter above half the step: attempt 1 waits 0.25-0.5 s, 2 waits 0.5-1 s, ..."""
    step = min(cap, base * (2 ** (attempt - 1)))
    return step / 2 + random.random() * step / 2


def should_retry_status(status: int, safe: bool) -> bool:
    return status in REFUSED or (safe and status in TRANSIENT)


def should_retry_error(error: httpx.TransportError, safe: bool) -> bool:
    """A connection that was never made cannot have reached the daemon; anything later only when safe."""
    return isinstance(error, (httpx.ConnectError, httpx.ConnectTimeout)) or safe


def delay_for(response: httpx.Response | None, attempt: int, max_delay: float = MAX_RETRY_DELAY_S) -> float | None:
    """How long to wait before the next attempt; None when the daemon asks for longer than ``max_delay``."""
    if response is not None:
        asked = retry_after_seconds(response.headers.get("retry-after"))
        if asked is not None:
            return asked if asked <= max_delay else None
    return backoff_seconds(attempt)
