"""Errand's Python SDK: ``Errand`` (synchronous) and ``AsyncErrand`` (asyncio), on httpx.

    from errand import Errand

    with Errand() as client:                      # ERRAND_API_KEY, ERRAND_API_URL
        run = client.runs.create_and_wait(prompt="What is the title of {{url}}?", inputs={"url": "https://example.com"})
        print(run["status"], run["result"])
"""
from . import types, webhooks
from ._async_client import AsyncErrand, AsyncPager
from ._sync_client import Errand, Pager
from ._sse import ServerSentEvent
from ._version import __version__
from .errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    ConflictError,
    ErrandError,
    GoneError,
    InternalServerError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    QuotaError,
    RateLimitError,
    WaitTimeoutError,
    WebhookSecretError,
    WebhookVerificationError,
)

__all__ = [
    "APIConnectionError", "APIError", "APITimeoutError", "AsyncErrand", "AsyncPager", "AuthenticationError",
    "ConflictError", "Errand", "ErrandError", "GoneError", "InternalServerError", "InvalidRequestError",
    "NotFoundError", "Pager", "PermissionDeniedError", "QuotaError", "RateLimitError", "ServerSentEvent",
    "WaitTimeoutError", "WebhookSecretError", "WebhookVerificationError", "__version__", "types", "webhooks",
]
