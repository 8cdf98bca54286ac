"""The SDK's parts that need no daemon: the sync client's generation, server-sent events, retry timing, webhook
signatures against the Standard Webhooks reference, and the retry policy over a scripted transport."""
from __future__ import annotations

import base64
import hashlib
import hmac
import importlib.util
import json
import time
from email.utils import formatdate

import httpx
import pytest

import errand
from errand import Errand
from errand._retry import backoff_seconds, retry_after_seconds
from errand._sse import SSEDecoder
from conftest import SDK


def load_generator():
    spec = importlib.util.spec_from_file_location("errand_generate", SDK / "scripts" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_sync_client_is_the_async_client_without_async() -> None:
    generate = load_generator()
    source = (SDK / "src" / "errand" / "_async_client.py").read_text()
    assert (SDK / "src" / "errand" / "_sync_client.py").read_text() == generate.unasync(source), (
        "sdk/python/src/errand/_sync_client.py is out of date: run sdk/python/scripts/generate.py"
    )


def test_operation_names_are_the_method_and_the_path() -> None:
    generate = load_generator()
    assert generate.operation_name("post", "/v1/jobs/{id}/runs") == "PostJobsIdRuns"
    assert generate.operation_name("delete", "/v1/emails/suppressions/{address}") == "DeleteEmailsSuppressionsAddress"
    assert generate.operation_name("get", "/healthz") == "GetHealthz"


def test_server_sent_events_are_decoded_line_by_line() -> None:
    decoder = SSEDecoder()
    lines = ["retry: 2000", ": heartbeat", "id: 7", "event: run.step", "data: {\"a\":", "data: 1}", "", ": only a comment", ""]
    events = [e for e in (decoder.decode(line) for line in lines) if e is not None]
    assert len(events) == 1
    assert (events[0].id, events[0].event, events[0].data, events[0].retry) == ("7", "run.step", "{\"a\":\n1}", 2000)


def test_retry_after_is_read_as_seconds_or_as_an_http_date() -> None:
    assert retry_after_seconds("3") == 3
    assert retry_after_seconds(None) is None
    assert retry_after_seconds("soon") is None
    in_a_minute = retry_after_seconds(formatdate(time.time() + 60, usegmt=True))
    assert in_a_minute is not None and 50 < in_a_minute <= 60


def test_backoff_grows_and_is_capped() -> None:
    assert all(0.25 <= backoff_seconds(1) <= 0.5 for _ in range(50))
    assert all(1 <= backoff_seconds(3) <= 2 for _ in range(50))
    assert all(backoff_seconds(30) <= 8 for _ in range(50))


# The Standard Webhooks specification's own example (github.com/standard-webhooks/standard-webhooks, spec).
REFERENCE = {
    "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    "body": b'{"test": 2432232314}',
    "headers": {
        "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
        "webhook-timestamp": "1614265330",
        "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    },
}


def test_a_webhook_signed_as_the_standard_shows_is_verified() -> None:
    event = errand.webhooks.verify(REFERENCE["body"], REFERENCE["headers"], REFERENCE["secret"], now=1614265330)
    assert event == {"test": 2432232314}


def test_any_of_several_signatures_may_match_during_a_rotation() -> None:
    headers = {**REFERENCE["headers"], "webhook-signature": "v1,bm90IHRoaXMgb25l " + REFERENCE["headers"]["webhook-signature"]}
    assert errand.webhooks.verify(REFERENCE["body"], headers, REFERENCE["secret"], now=1614265330 + 299)


@pytest.mark.parametrize(
    "change",
    [
        {"body": b'{"test": 2432232315}'},
        {"secret": "whsec_" + "A" * 32},
        {"now": 1614265330 + 301},
        {"now": 1614265330 - 301},
        {"headers": {**REFERENCE["headers"], "webhook-id": "msg_other"}},
        {"headers": {**REFERENCE["headers"], "webhook-timestamp": "yesterday"}},
        {"headers": {k: v for k, v in REFERENCE["headers"].items() if k != "webhook-id"}},
        {"headers": {**REFERENCE["headers"], "webhook-signature": "v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="}},
    ],
)
def test_a_webhook_that_does_not_check_out_is_refused(change: dict) -> None:
    given = {"body": REFERENCE["body"], "headers": REFERENCE["headers"], "secret": REFERENCE["secret"], "now": 1614265330, **change}
    with pytest.raises(errand.WebhookVerificationError):
        errand.webhooks.verify(given["body"], given["headers"], given["secret"], now=given["now"])


def signed_with(key: bytes, body: bytes, timestamp: int) -> dict[str, str]:
    signature = base64.b64encode(hmac.new(key, f"msg_1.{timestamp}.".encode() + body, hashlib.sha256).digest()).decode()
    return {"webhook-id": "msg_1", "webhook-timestamp": str(timestamp), "webhook-signature": f"v1,{signature}"}


@pytest.mark.parametrize(
    ("secret", "key", "problem"),
    [
        ("", b"", "is missing or empty"),  # an unset environment variable: os.environ.get(...) or ""
        ("whsec_", b"", "is empty after whsec_"),  # f"whsec_{unset}"
        ("not-a-secret-at-all-but-long-enough", b"not-a-secret-at-all-but-long-enough", "does not start with whsec_"),
        ("whsec_c2hvcnQ=", b"short", "is 5 bytes long"),
        ("whsec_ek_live_*not*base64*at*all*", b"", "is not base64 after whsec_"),
        ("whsec_" + base64.b64encode(b"k" * 32).decode() + "\n", b"k" * 32, "is not base64 after whsec_"),
    ],
)
def test_a_secret_that_is_empty_or_malformed_is_refused_before_any_signature_is_checked(secret: str, key: bytes, problem: str) -> None:
    body = b'{"event": "run.completed", "data": {}}'
    headers = signed_with(key, body, 1614265330)  # what someone who guessed the key would send
    with pytest.raises(errand.WebhookSecretError) as refused:
        errand.webhooks.verify(body, headers, secret, now=1614265330)
    assert isinstance(refused.value, errand.WebhookVerificationError)
    message = str(refused.value)
    assert problem in message and "whsec_ followed by base64" in message
    if len(secret) > len("whsec_"):
        assert secret.removeprefix("whsec_").strip() not in message
    assert refused.value.__cause__ is None
    # The client's verify and a missing header alike: the secret is refused first.
    with pytest.raises(errand.WebhookSecretError):
        Errand("ek_x", base_url="http://errand.test").webhooks.verify(body, {}, secret)


def test_a_signature_made_with_the_secret_still_verifies_at_the_shortest_length_the_standard_allows() -> None:
    key = bytes(range(24))
    body = b'{"event": "run.completed", "data": {}}'
    secret = "whsec_" + base64.b64encode(key).decode()
    assert errand.webhooks.verify(body, signed_with(key, body, 1614265330), secret, now=1614265330)["event"] == "run.completed"


def scripted(*answers: httpx.Response) -> tuple[Errand, list[httpx.Request]]:
    seen: list[httpx.Request] = []
    queue = list(answers)

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return queue.pop(0)

    return Errand("ek_x", base_url="http://errand.test", transport=httpx.MockTransport(answer)), seen


def error(status: int, code: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, headers=headers, json={"error": {"type": "api_error", "code": code, "message": code}, "request_id": "req_1"})


def test_a_get_is_retried_after_a_500() -> None:
    client, seen = scripted(error(500, "internal_error"), httpx.Response(200, json={"ok": True}))
    assert client.health() == {"ok": True}
    assert len(seen) == 2


def test_a_post_without_an_idempotency_key_is_not_repeated_after_a_500_it_may_have_acted_on() -> None:
    client, seen = scripted(error(500, "internal_error"), httpx.Response(201, json={}))
    with pytest.raises(errand.InternalServerError):
        client.projects.create(name="p")
    assert len(seen) == 1


def test_a_post_refused_with_429_is_repeated_as_the_daemon_did_nothing() -> None:
    client, seen = scripted(error(429, "rate_limited", {"retry-after": "0"}), httpx.Response(201, json={"id": "proj_1"}))
    assert client.projects.create(name="p") == {"id": "proj_1"}
    assert len(seen) == 2


def test_an_email_send_carries_one_client_id_on_every_attempt() -> None:
    client, seen = scripted(error(503, "unavailable"), httpx.Response(202, json={"id": "msg_1"}))
    client.emails.send(to="a@example.com", subject="s", text="t")
    ids = {httpx.Response(200, content=r.content).json()["client_id"] for r in seen}
    assert len(seen) == 2 and len(ids) == 1


def test_a_run_created_with_a_traceparent_sends_it_as_the_header_on_every_attempt_and_none_without() -> None:
    traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    created = {"task_id": "run_1", "status": "queued"}
    client, seen = scripted(error(503, "unavailable"), httpx.Response(202, json=created), httpx.Response(202, json=created), httpx.Response(202, json=created))
    client.runs.create(prompt="p", traceparent=traceparent)
    client.runs.create(job_id="job_1", traceparent=traceparent)
    client.runs.create(prompt="p")
    assert [r.headers.get("traceparent") for r in seen] == [traceparent, traceparent, traceparent, None]
    assert all("traceparent" not in httpx.Response(200, content=r.content).json() for r in seen)


def test_a_retry_after_longer_than_max_retry_delay_is_raised_at_once() -> None:
    client, seen = scripted(error(429, "rate_limited", {"retry-after": "5"}), httpx.Response(200, json={}))
    client.max_retry_delay = 1
    with pytest.raises(errand.RateLimitError):
        client.status.get()
    assert len(seen) == 1


def test_a_refused_stream_is_raised_at_once_without_waiting_out_its_retry_after() -> None:
    client, seen = scripted(error(429, "too_many_streams", {"retry-after": "60"}), httpx.Response(200, json={}))
    with pytest.raises(errand.RateLimitError) as raised:
        next(iter(client.events.stream()))
    assert raised.value.code == "too_many_streams" and len(seen) == 1


def test_a_run_post_carries_one_idempotency_key_in_its_body_and_header_on_every_attempt() -> None:
    client, seen = scripted(error(502, "bad_gateway"), httpx.Response(202, json={"task_id": "run_1"}))
    client.runs.create(prompt="p")
    keys = {(r.headers["idempotency-key"], httpx.Response(200, content=r.content).json()["idempotency_key"]) for r in seen}
    assert len(seen) == 2 and len(keys) == 1
    header, body = keys.pop()
    assert header == body


def test_a_retry_after_beyond_a_minute_is_raised_rather_than_waited_for() -> None:
    client, seen = scripted(error(429, "rate_limited", {"retry-after": "3600"}), httpx.Response(200, json={}))
    with pytest.raises(errand.RateLimitError) as raised:
        client.status.get()
    assert raised.value.retry_after == 3600 and len(seen) == 1


def test_retries_end_with_the_last_error() -> None:
    client, seen = scripted(*(error(503, "unavailable") for _ in range(3)))
    with pytest.raises(errand.InternalServerError) as raised:
        client.status.get()
    assert raised.value.status == 503 and raised.value.request_id == "req_1" and len(seen) == 3


@pytest.mark.parametrize(
    ("status", "kind", "cls"),
    [
        (400, "invalid_request_error", errand.InvalidRequestError),
        (403, "invalid_request_error", errand.PermissionDeniedError),
        (410, "invalid_request_error", errand.GoneError),
        (402, "quota_error", errand.QuotaError),
        (418, "conflict_error", errand.ConflictError),
        (418, "something_new", errand.APIError),
        (502, "api_error", errand.InternalServerError),
    ],
)
def test_an_error_answer_maps_to_its_class_by_status_then_by_type(status: int, kind: str, cls: type) -> None:
    client, _ = scripted(*(httpx.Response(status, json={"error": {"type": kind, "code": "c", "message": "m"}}) for _ in range(3)))
    with pytest.raises(errand.APIError) as raised:
        client.runs.get("run_1")
    assert type(raised.value) is cls and raised.value.type == kind and raised.value.status == status
    assert not (status in (403, 410)) or isinstance(raised.value, errand.InvalidRequestError)


def test_a_profile_is_imported_from_the_storage_state_file_playwright_wrote(tmp_path) -> None:
    state = {"cookies": [{"name": "sid", "value": "v", "domain": "acme.example", "path": "/", "expires": -1, "httpOnly": True, "secure": True, "sameSite": "Lax"}], "origins": []}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    client, seen = scripted(httpx.Response(201, json={"id": "prf_1"}))
    assert client.profiles.import_state("acme", path, check={"url": "https://acme.example/account", "text": "Sign out"}) == {"id": "prf_1"}
    sent = httpx.Response(200, content=seen[0].content).json()
    assert (seen[0].method, seen[0].url.path) == ("POST", "/v1/profiles")
    assert sent == {"name": "acme", "state": state, "check": {"url": "https://acme.example/account", "text": "Sign out"}}
