"""The SDK's errors: one class per HTTP status the API answers with, each carrying the API's error shape
(``type``, ``code``, ``message``, ``param``), the ``request_id`` and the status; and the errors of the transport
(connection, timeout), of event streams and of webhook verification. Catch ``ErrandError`` for all of them."""
from __future__ import annotations

from typing import Any

import httpx

from ._retry import retry_after_seconds


class ErrandError(Exception):
    """Every error the SDK raises."""


class APIConnectionError(ErrandError):
    """The daemon could not be reached, or the connection broke, after every retry."""

    def __init__(self, message: str, *, request: httpx.Request | None = None) -> None:
        super().__init__(message)
        self.request = request


class APITimeoutError(APIConnectionError):
    """A request took longer than the configured timeout (after every retry)."""


class APIError(ErrandError):
    """The daemon answered with an error status; its body is the API's shared error shape."""

    status: int
    type: str | None
    code: str | None
    message: str
    param: str | None
    request_id: str | None

    def __init__(self, response: httpx.Response, body: Any) -> None:
        error = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), dict) else {}
        self.status = response.status_code
        self.type = error.get("type")
        self.code = error.get("code")
        self.message = error.get("message") or f"HTTP {response.status_code}"
        self.param = error.get("param")
        self.request_id = response.headers.get("x-request-id") or (body.get("request_id") if isinstance(body, dict) else None)
        self.body = body
        self.headers = response.headers
        super().__init__(f"{self.status} {self.code or self.type or 'error'}: {self.message}" + (f" (param {self.param})" if self.param else "") + (f" [{self.request_id}]" if self.request_id else ""))


class InvalidRequestError(APIError):
    """400 (and 413, 415, 431): a bad body, query or header; ``param`` names it."""


class AuthenticationError(APIError):
    """401: no, malformed, unknown or revoked API key."""


class QuotaError(APIError):
    """402: a spend cap (``monthly_cap_reached``, ``daily_cap_reached``, ``insufficient_budget``)."""


class PermissionDeniedError(InvalidRequestError):
    """403: a signed link that is not valid for what it was used for."""


class NotFoundError(APIError):
    """404: an unknown id, or one of another organisation."""


class ConflictError(APIError):
    """409: ``idempotency_key_reused``, ``run_not_cancellable``, ..."""


class GoneError(InvalidRequestError):
    """410: an expired signed link."""


class RateLimitError(APIError):
    """429: ``rate_limited``, ``too_many_concurrent_runs``, ``too_many_streams``; ``retry_after`` in seconds."""

    @property
    def retry_after(self) -> float | None:
        return retry_after_seconds(self.headers.get("retry-after"))


class InternalServerError(APIError):
    """5xx: the daemon failed (a bug, or it is restarting)."""


_BY_STATUS: dict[int, type[APIError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    402: QuotaError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: GoneError,
    413: InvalidRequestError,
    415: InvalidRequestError,
    429: RateLimitError,
    431: InvalidRequestError,
}


_BY_TYPE: dict[str, type[APIError]] = {
    "invalid_request_error": InvalidRequestError,
    "authentication_error": AuthenticationError,
    "quota_error": QuotaError,
    "not_found_error": NotFoundError,
    "conflict_error": ConflictError,
    "rate_limit_error": RateLimitError,
    "api_error": InternalServerError,
}


def status_error(response: httpx.Response, body: Any) -> APIError:
    """The typed error for an error response (its body already read): by status, else by the body's ``type`` (as
    the TypeScript SDK maps it: 403 and 410 are ``invalid_request_error``s too, so their classes derive from it)."""
    status = response.status_code
    cls = _BY_STATUS.get(status) or (InternalServerError if status >= 500 else None)
    if cls is None:
        error = body.get("error") if isinstance(body, dict) else None
        cls = _BY_TYPE.get(error.get("type"), APIError) if isinstance(error, dict) else APIError
    return cls(response, body)


class WaitTimeoutError(ErrandError):
    """``runs.wait`` / ``runs.create_and_wait`` (or ``evals.wait``) ran out of time before the run (or eval) ended;
    it goes on. ``run_id`` is the id waited for."""

    def __init__(self, run_id: str, timeout: float, what: str = "run") -> None:
        super().__init__(f"{what} {run_id} had not ended after {timeout:g} s")
        self.run_id = run_id
        self.timeout = timeout


class WebhookVerificationError(ErrandError):
    """A webhook whose signature, timestamp or body does not check out: do not act on it."""


class WebhookSecretError(WebhookVerificationError):
    """The secret given to ``verify`` is not a signing secret: empty (an unset environment variable), without its
    ``whsec_`` prefix, not base64, or too short. Nothing is verified with it. A ``WebhookVerificationError`` too, so a
    handler that answers those with a 400 acts on no webhook; the message says what is wrong, never the secret."""
