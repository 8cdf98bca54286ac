"""Verifying the daemon's webhooks (Standard Webhooks: ``webhook-id``, ``webhook-timestamp`` and
``webhook-signature`` = ``v1,<base64 HMAC-SHA256 of "id.timestamp.body">``, secrets ``whsec_<base64>``), with the
standard library only."""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from typing import Any, cast

from ._generated import WebhookEvent
from .errors import WebhookSecretError, WebhookVerificationError

#: How far a webhook's timestamp may be from now, in seconds, either way: an older one may be a replay.
DEFAULT_TOLERANCE_S = 300


def _header(headers: Mapping[str, str] | Any, name: str) -> str:
    value = headers.get(name)
    if value is None:
        for key, candidate in headers.items():
            if key.lower() == name:
                value = candidate
                break
    if not value:
        raise WebhookVerificationError(f"the {name} header is missing")
    return str(value)


_SECRET_PREFIX = "whsec_"
#: The Standard Webhooks specification's shortest secret; the daemon's are 32 bytes.
_MIN_SECRET_BYTES = 24


def _secret_key(secret: str) -> bytes:
    """The key of a ``whsec_<base64>`` secret, refused when it is anything else: an empty key (an unset environment
    variable) would verify a signature anyone can make. The error says what is wrong and never repeats the secret."""

    def refuse(problem: str) -> WebhookSecretError:
        return WebhookSecretError(
            f"the webhook secret {problem}: a signing secret is {_SECRET_PREFIX} followed by base64 of at least "
            f"{_MIN_SECRET_BYTES} bytes, as `errand webhooks secret` prints it"
        )

    if not isinstance(secret, str) or secret == "":
        raise refuse("is missing or empty (an unset environment variable?)")
    if not secret.startswith(_SECRET_PREFIX):
        raise refuse(f"does not start with {_SECRET_PREFIX}")
    encoded = secret[len(_SECRET_PREFIX):]
    if encoded == "":
        raise refuse(f"is empty after {_SECRET_PREFIX}")
    try:
        key = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        # from None: the traceback then carries nothing of the decoding of the secret.
        raise refuse(f"is not base64 after {_SECRET_PREFIX} (only A-Z, a-z, 0-9, + and /, padded with =)") from None
    if len(key) < _MIN_SECRET_BYTES:
        raise refuse(f"is {len(key)} bytes long")
    return key


def verify(body: bytes | str, headers: Mapping[str, str] | Any, secret: str, *, tolerance_s: int = DEFAULT_TOLERANCE_S, now: float | None = None) -> WebhookEvent:
    """The webhook's event (``{"event": ..., "data": ...}``) when its signature is one of ``secret``'s and its
    timestamp within ``tolerance_s`` of now; otherwise ``WebhookVerificationError`` (``WebhookSecretError``, before
    anything else, when ``secret`` is not a ``whsec_<base64>`` signing secret). Pass the body exactly as received
    (bytes), before any JSON parsing."""
    key = _secret_key(secret)
    raw = body.encode() if isinstance(body, str) else bytes(body)
    webhook_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    try:
        sent_at = int(timestamp)
    except ValueError as error:
        raise WebhookVerificationError("the webhook-timestamp header is not a Unix time") from error
    current = time.time() if now is None else now
    if abs(current - sent_at) > tolerance_s:
        raise WebhookVerificationError(f"the webhook's timestamp is more than {tolerance_s} s from now: refused as a possible replay")
    signed = webhook_id.encode() + b"." + timestamp.encode() + b"." + raw
    expected = hmac.new(key, signed, hashlib.sha256).digest()
    for entry in signatures.split():
        version, _, signature = entry.partition(",")
        if version != "v1":
            continue
        try:
            candidate = base64.b64decode(signature)
        except (binascii.Error, ValueError):
            continue
        if hmac.compare_digest(candidate, expected):
            try:
                return cast(WebhookEvent, json.loads(raw))
            except ValueError as error:
                raise WebhookVerificationError("the webhook's body is not JSON") from error
    raise WebhookVerificationError("no signature of the webhook matches the secret")


class Webhooks:
    """``client.webhooks.verify(...)``: the same as ``errand.webhooks.verify``."""

    @staticmethod
    def verify(body: bytes | str, headers: Mapping[str, str] | Any, secret: str, *, tolerance_s: int = DEFAULT_TOLERANCE_S, now: float | None = None) -> WebhookEvent:
        return verify(body, headers, secret, tolerance_s=tolerance_s, now=now)
