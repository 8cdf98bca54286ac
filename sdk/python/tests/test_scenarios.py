"""sdk/scenarios.md, against a real daemon (test/fixtures/sdk-daemon.ts): each test is named after its scenario."""
from __future__ import annotations

import asyncio
import json
import re
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

import errand
from errand import AsyncErrand, Errand
from conftest import REPO, SDK, SdkDaemon

SCENARIOS = REPO / "sdk" / "scenarios.md"
TERMINAL = {"succeeded", "failed", "cancelled"}
OUTPUT_SCHEMA = {"type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean"}}}


@pytest.fixture
def client(daemon: SdkDaemon) -> Iterator[Errand]:
    with Errand(daemon.key, base_url=daemon.url) as c:
        yield c


def fresh_org_client(daemon: SdkDaemon, **options: Any) -> Errand:
    """A client of a new organisation, so that what a test counts is its own."""
    return Errand(daemon.command(cmd="org")["key"], base_url=daemon.url, **options)


def test_every_scenario_has_a_test() -> None:
    listed = set(re.findall(r"\*\*(S\d\d)\*\*", SCENARIOS.read_text()))
    tested = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        tested |= {m.upper() for m in re.findall(r"^(?:async )?def test_(s\d\d)_", path.read_text(), re.M)}
    assert listed, "sdk/scenarios.md lists no scenarios"
    assert sorted(listed - tested) == [], "scenarios of sdk/scenarios.md without a Python test"


def test_s01_a_project_a_job_with_an_output_schema_and_a_run_of_it_waited_for(client: Errand) -> None:
    project = client.projects.create(name=f"py-{uuid.uuid4().hex[:8]}")
    assert project["object"] == "project"
    job = client.jobs.create(project_id=project["id"], name="echo", prompt="Echo {{word}}", output_schema=OUTPUT_SCHEMA)
    assert job["object"] == "job" and job["project_id"] == project["id"]

    run = client.runs.create_and_wait(job_id=job["id"], inputs={"word": "hello"})

    assert run["object"] == "run"
    assert run["status"] == "succeeded"
    assert run["job_id"] == job["id"]
    assert run["result"] == {"ok": True}
    assert client.runs.get(run["task_id"]) == run


@pytest.mark.asyncio
async def test_s01_the_async_client_waits_for_a_run_of_a_job_too(daemon: SdkDaemon) -> None:
    async with AsyncErrand(daemon.key, base_url=daemon.url) as client:
        project = await client.projects.create(name=f"py-async-{uuid.uuid4().hex[:8]}")
        job = await client.jobs.create(project_id=project["id"], name="echo", prompt="Echo", output_schema=OUTPUT_SCHEMA)
        run = await client.runs.create_and_wait(job_id=job["id"])
        assert (run["status"], run["result"]) == ("succeeded", {"ok": True})


def test_s02_create_get_list_and_cancel_runs(daemon: SdkDaemon) -> None:
    with fresh_org_client(daemon) as client:
        created = client.runs.create(prompt="Find {{thing}}", inputs={"thing": "a price"}, name="s02")
        assert created["status"] == "queued" and created["task_id"].startswith("run_")
        assert created["poll_url"].endswith(f"/v1/runs/{created['task_id']}")

        run = client.runs.get(created["task_id"])
        assert run["task_id"] == created["task_id"] and run["name"] == "s02"
        assert [r["task_id"] for r in client.runs.list()] == [created["task_id"]]

        # A run is cancelled while queued or running; one that already ended cannot be (409, scenario S06).
        cancelled = None
        for _ in range(20):
            candidate = client.runs.create(prompt="Cancel me")
            try:
                cancelled = client.runs.cancel(candidate["task_id"])
                break
            except errand.ConflictError:
                continue
        assert cancelled is not None, "every run ended before it could be cancelled"
        assert cancelled["status"] == "cancelled"
        assert client.runs.wait(cancelled["task_id"])["status"] == "cancelled"


def test_s02_waiting_polls_when_the_runs_stream_is_refused(daemon: SdkDaemon, client: Errand) -> None:
    created = client.runs.create(prompt="Poll me")
    events = f"/v1/runs/{created['task_id']}/events"
    daemon.command(cmd="fail", method="GET", path=events, status=429, times=1, retry_after="3600")

    run = client.runs.wait(created["task_id"], poll_interval=0.2)

    assert run["status"] == "succeeded" and run["task_id"] == created["task_id"]
    assert [r["status"] for r in daemon.command(cmd="requests", method="GET", path=events)["requests"]] == [429]
    assert client.runs.wait(created["task_id"], poll=True) == run


@pytest.mark.asyncio
async def test_s03_auto_pagination_over_450_runs_sees_each_once(daemon: SdkDaemon) -> None:
    key = daemon.command(cmd="org")["key"]
    async with AsyncErrand(key, base_url=daemon.url) as client:
        gate = asyncio.Semaphore(8)

        async def create(i: int) -> str:
            async with gate:
                return (await client.runs.create(prompt="Page {{i}}", inputs={"i": str(i)}))["task_id"]

        created = await asyncio.gather(*(create(i) for i in range(450)))

        seen = [run["task_id"] async for run in client.runs.list(limit=100)]
        assert len(seen) == 450
        assert set(seen) == set(created)

        pages = [page async for page in client.runs.list(limit=200).pages()]
        assert [len(p["data"]) for p in pages] == [200, 200, 50]
        assert [p["has_more"] for p in pages] == [True, True, False]
        assert pages[-1]["next_cursor"] is None
        assert [r["task_id"] for p in pages for r in p["data"]] == seen
        first = await client.runs.list(limit=200).first_page()
        assert first["next_cursor"] == pages[0]["next_cursor"]

        # The runs still queued would hold the engine up for the scenarios after this one.
        async def cancel(run_id: str) -> None:
            async with gate:
                try:
                    await client.runs.cancel(run_id)
                except errand.ConflictError:
                    pass  # it already ended

        await asyncio.gather(*(cancel(run_id) for run_id in created))


def event_ids(events: list[dict[str, Any]]) -> list[int]:
    return [e["id"] for e in events]


@pytest.mark.asyncio
async def test_s04_a_runs_events_arrive_in_order_and_resume_after_an_event_id(daemon: SdkDaemon) -> None:
    async with AsyncErrand(daemon.key, base_url=daemon.url) as client:
        created = await client.runs.create(prompt="Stream me")
        events = [e async for e in client.runs.events(created["task_id"])]

        types = [e["type"] for e in events]
        assert types[0] == "run.status" and events[0]["data"]["to"] == "queued"
        assert types[-1] == "run.completed" and events[-1]["data"]["status"] == "succeeded"
        assert "run.step" in types
        assert event_ids(events) == sorted(set(event_ids(events)))
        assert all(e["run_id"] == created["task_id"] for e in events)

        middle = events[len(events) // 2]["id"]
        resumed = [e async for e in client.runs.events(created["task_id"], last_event_id=middle)]
        assert resumed == [e for e in events if e["id"] > middle]


def test_s04_the_organisations_stream_resumes_after_a_daemon_restart_with_every_event_once(daemon: SdkDaemon) -> None:
    with fresh_org_client(daemon) as client:
        # The stream connects when first iterated, and then starts from that moment; to hold every event of the
        # runs below it starts after the last event of an earlier run.
        earlier = client.runs.create(prompt="Earlier")
        *_, last = client.runs.events(earlier["task_id"])
        stream = client.events.stream(last_event_id=last["id"])
        first = client.runs.create(prompt="Before the restart")
        before = []
        for event in stream:
            before.append(event)
            if event["type"] == "run.completed":
                break

        daemon.command(cmd="restart")
        # Made while the stream is cut: the iterator reconnects with Last-Event-ID and reads it from the log.
        second = client.runs.create(prompt="After the restart")
        after = []
        for event in stream:
            after.append(event)
            if event["type"] == "run.completed" and event["run_id"] == second["task_id"]:
                break
        stream.close()

        received = before + after
        assert event_ids(received) == sorted(set(event_ids(received)))
        assert len(daemon.command(cmd="requests", method="GET", path="/v1/events")["requests"]) >= 2, "no resume"
        for run_id in (first["task_id"], second["task_id"]):
            logged = list(client.runs.events(run_id))
            assert [e for e in received if e["run_id"] == run_id] == logged


@pytest.fixture(scope="module")
def slow_daemon() -> Iterator[SdkDaemon]:
    """A daemon whose model takes 3 s a turn: runs that hold their places, and waits that time out."""
    process = subprocess.Popen(
        ["node", "--import", "tsx", "test/fixtures/sdk-daemon.ts", "--model-delay-ms", "3000"],
        cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    fixture = SdkDaemon(process)
    try:
        yield fixture
    finally:
        fixture.close()


@pytest.mark.asyncio
async def test_s04_a_runs_stream_cut_by_a_restart_mid_run_resumes_with_every_event_once(slow_daemon: SdkDaemon) -> None:
    async with AsyncErrand(slow_daemon.key, base_url=slow_daemon.url) as client:
        # Four runs take every place (limits.max_concurrent_runs) for 3 s, so that this one is still queued when the
        # daemon restarts: a restart drains the runs under way but not the queue, and ends every stream.
        for i in range(4):
            await client.runs.create(prompt=f"Blocker {i}")
        created = await client.runs.create(prompt="Queued through a restart")
        received: list[dict[str, Any]] = []
        before_restart = 0
        async for event in client.runs.events(created["task_id"]):
            received.append(event)
            if len(received) == 1:
                await asyncio.to_thread(slow_daemon.command, cmd="restart")
                before_restart = len(received)

        assert [e["data"]["to"] for e in received[:before_restart]] == ["queued"]
        assert "running" in [e["data"].get("to") for e in received[before_restart:] if e["type"] == "run.status"]
        assert received[-1]["type"] == "run.completed"
        assert event_ids(received) == sorted(set(event_ids(received)))
        logged = [e async for e in client.runs.events(created["task_id"])]
        assert received == logged
        connects = slow_daemon.command(cmd="requests", method="GET", path=f"/v1/runs/{created['task_id']}/events")["requests"]
        assert len(connects) >= 3, "the stream was not cut and resumed"  # the first, at least one resume, the replay


def test_s05_a_429_and_a_503_on_post_runs_are_retried_with_one_idempotency_key_and_one_run(daemon: SdkDaemon) -> None:
    with fresh_org_client(daemon, max_retries=3) as client:
        before = len(daemon.command(cmd="requests", method="POST", path="/v1/runs")["requests"])
        daemon.command(cmd="fail", method="POST", path="/v1/runs", status=429, times=1, retry_after="1")
        daemon.command(cmd="fail", method="POST", path="/v1/runs", status=503, times=1)

        created = client.runs.create(prompt="Retried")

        requests = daemon.command(cmd="requests", method="POST", path="/v1/runs")["requests"][before:]
        assert [r["status"] for r in requests] == [429, 503, 202]
        keys = {r["idempotency_key"] for r in requests}
        assert len(keys) == 1 and None not in keys
        assert [r["task_id"] for r in client.runs.list()] == [created["task_id"]]


def test_s05_without_retries_left_the_429_is_raised_with_its_retry_after(daemon: SdkDaemon) -> None:
    with fresh_org_client(daemon, max_retries=0) as client:
        daemon.command(cmd="fail", method="POST", path="/v1/runs", status=429, times=1, retry_after="7")
        with pytest.raises(errand.RateLimitError) as raised:
            client.runs.create(prompt="Refused")
        assert raised.value.status == 429 and raised.value.retry_after == 7
        assert list(client.runs.list()) == []


def test_s06_errors_are_typed_with_their_type_code_param_request_id_and_status(daemon: SdkDaemon, client: Errand) -> None:
    with Errand("ek_not_a_key", base_url=daemon.url) as stranger:
        with pytest.raises(errand.AuthenticationError) as unauthorised:
            stranger.runs.get("run_x")
    assert unauthorised.value.status == 401
    assert unauthorised.value.type == "authentication_error"
    assert unauthorised.value.code in {"invalid_api_key", "malformed_api_key"}
    assert unauthorised.value.request_id

    with pytest.raises(errand.NotFoundError) as missing:
        client.runs.get("run_01aaaaaaaaaaaaaaaaaaaaaaaa")
    assert (missing.value.status, missing.value.type, missing.value.code) == (404, "not_found_error", "resource_missing")
    assert missing.value.request_id and missing.value.request_id.startswith("req_")

    with pytest.raises(errand.InvalidRequestError) as invalid:
        client.runs.create(prompt="Hi", colour="blue")  # type: ignore[call-arg]
    assert (invalid.value.status, invalid.value.type, invalid.value.param) == (400, "invalid_request_error", "colour")

    finished = client.runs.create_and_wait(prompt="Done soon")
    with pytest.raises(errand.ConflictError) as not_cancellable:
        client.runs.cancel(finished["task_id"])
    assert (not_cancellable.value.status, not_cancellable.value.code) == (409, "run_not_cancellable")

    key = f"s06-{uuid.uuid4()}"
    client.runs.create(prompt="One body", idempotency_key=key)
    with pytest.raises(errand.ConflictError) as reused:
        client.runs.create(prompt="Another body", idempotency_key=key)
    assert (reused.value.code, reused.value.param) == ("idempotency_key_reused", "idempotency_key")
    assert isinstance(reused.value, errand.APIError) and isinstance(reused.value, errand.ErrandError)


class Receiver:
    """A webhook endpoint on loopback that keeps every delivery as received."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[bytes, dict[str, str]]] = []
        self.arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                with receiver.arrived:
                    receiver.deliveries.append((body, {k.lower(): v for k, v in self.headers.items()}))
                    receiver.arrived.notify_all()
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, count: int, seconds: float = 60) -> list[tuple[bytes, dict[str, str]]]:
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.deliveries) >= count, timeout=seconds)
            return list(self.deliveries)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def signing_secret(daemon: SdkDaemon) -> str:
    out = subprocess.run(
        ["node", "bin/errand", "--home", daemon.home, "--json", "webhooks", "secret"],
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)["secret"]


def test_s07_a_real_webhook_is_verified_and_typed_and_tampering_is_refused(daemon: SdkDaemon, client: Errand) -> None:
    receiver = Receiver()
    try:
        run = client.runs.create_and_wait(prompt="Call me back", callback_url=receiver.url)
        deliveries = receiver.wait_for(1)
    finally:
        receiver.close()
    assert deliveries, "the daemon delivered no webhook"
    body, headers = deliveries[0]
    secret = signing_secret(daemon)

    event = client.webhooks.verify(body, headers, secret)
    assert event["event"] == "run.completed"
    assert event["data"]["task_id"] == run["task_id"] and event["data"]["result"] == {"ok": True}
    assert errand.webhooks.verify(body.decode(), httpx.Headers(headers), secret) == event

    with pytest.raises(errand.WebhookVerificationError):
        client.webhooks.verify(body.replace(b'"ok":true', b'"ok":false'), headers, secret)
    with pytest.raises(errand.WebhookVerificationError):
        client.webhooks.verify(body, headers, "whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=")
    with pytest.raises(errand.WebhookVerificationError):
        client.webhooks.verify(body, headers, secret, now=int(headers["webhook-timestamp"]) + 3600)
    with pytest.raises(errand.WebhookVerificationError):
        client.webhooks.verify(body, {k: v for k, v in headers.items() if k != "webhook-signature"}, secret)


class HangingServer:
    """Accepts connections and never answers."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.held.append(connection)

    def close(self) -> None:
        self.socket.close()
        for connection in self.held:
            connection.close()


def test_s08_a_request_longer_than_the_timeout_raises_a_typed_timeout_error() -> None:
    server = HangingServer()
    try:
        with Errand("ek_x", base_url=server.url, timeout=0.3, max_retries=1) as client:
            with pytest.raises(errand.APITimeoutError):
                client.runs.get("run_x")
            with pytest.raises(errand.APITimeoutError):
                client.status.get()
    finally:
        server.close()


@pytest.mark.asyncio
async def test_s08_the_async_client_times_out_too() -> None:
    server = HangingServer()
    try:
        async with AsyncErrand("ek_x", base_url=server.url, timeout=0.3, max_retries=0) as client:
            with pytest.raises(errand.APITimeoutError):
                await client.runs.get("run_x")
    finally:
        server.close()


def test_s08_a_custom_transport_and_a_custom_client_carry_every_request(daemon: SdkDaemon) -> None:
    seen: list[str] = []

    class CountingTransport(httpx.HTTPTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            seen.append(f"{request.method} {request.url.path}")
            return super().handle_request(request)

    with Errand(daemon.key, base_url=daemon.url, transport=CountingTransport()) as client:
        run = client.runs.create_and_wait(prompt="Through my transport")
        list(client.runs.list(limit=1))
    assert seen[0] == "POST /v1/runs"
    assert f"GET /v1/runs/{run['task_id']}/events" in seen
    assert seen[-1] == "GET /v1/runs"

    hooked: list[str] = []
    http_client = httpx.Client(event_hooks={"request": [lambda r: hooked.append(r.url.path)]}, headers={"X-Mine": "1"})
    with Errand(daemon.key, base_url=daemon.url, http_client=http_client) as client:
        client.status.get()
    assert hooked == ["/v1/status"]
    assert not http_client.is_closed, "the caller's client is the caller's to close"
    http_client.close()


@pytest.mark.asyncio
async def test_s08_the_async_client_takes_a_custom_transport(daemon: SdkDaemon) -> None:
    seen: list[str] = []

    class CountingTransport(httpx.AsyncHTTPTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            seen.append(request.url.path)
            return await super().handle_async_request(request)

    async with AsyncErrand(daemon.key, base_url=daemon.url, transport=CountingTransport()) as client:
        await client.status.get()
        await client.health()
    assert seen == ["/v1/status", "/healthz"]


def test_s08_a_wait_longer_than_its_timeout_raises_a_typed_error_and_the_run_goes_on(slow_daemon: SdkDaemon) -> None:
    with Errand(slow_daemon.key, base_url=slow_daemon.url) as client:
        created = client.runs.create(prompt="Slower than my patience")
        with pytest.raises(errand.WaitTimeoutError) as streamed:
            client.runs.wait(created["task_id"], timeout=0.5)
        assert streamed.value.run_id == created["task_id"]
        with pytest.raises(errand.WaitTimeoutError):
            client.runs.wait(created["task_id"], timeout=0.5, poll=True, poll_interval=0.1)
        with pytest.raises(errand.WaitTimeoutError):
            client.runs.create_and_wait(prompt="Also slow", timeout=0.5)
        assert client.runs.wait(created["task_id"])["status"] == "succeeded"


# One call per operation of the API: (method, path) -> what the SDK does for it.
OPERATIONS: dict[tuple[str, str], Callable[[Errand], Any]] = {
    ("GET", "/healthz"): lambda c: c.health(),
    ("GET", "/v1/projects"): lambda c: list(c.projects.list()),
    ("POST", "/v1/projects"): lambda c: c.projects.create(name="p"),
    ("GET", "/v1/projects/{id}"): lambda c: c.projects.get("proj_1"),
    ("PATCH", "/v1/projects/{id}"): lambda c: c.projects.update("proj_1", name="q"),
    ("DELETE", "/v1/projects/{id}"): lambda c: c.projects.delete("proj_1"),
    ("GET", "/v1/jobs"): lambda c: list(c.jobs.list(project_id="proj_1")),
    ("POST", "/v1/jobs"): lambda c: c.jobs.create(project_id="proj_1", name="j", prompt="p"),
    ("GET", "/v1/jobs/{id}"): lambda c: c.jobs.get("job_1"),
    ("PATCH", "/v1/jobs/{id}"): lambda c: c.jobs.update("job_1", name="k"),
    ("DELETE", "/v1/jobs/{id}"): lambda c: c.jobs.delete("job_1"),
    ("GET", "/v1/jobs/{id}/skipped_firings"): lambda c: list(c.jobs.skipped_firings("job_1")),
    ("GET", "/v1/jobs/{id}/recipe"): lambda c: c.jobs.recipe("job_1"),
    ("GET", "/v1/jobs/{id}/eval_cases"): lambda c: list(c.evals.cases.list("job_1")),
    ("POST", "/v1/jobs/{id}/eval_cases"): lambda c: c.evals.cases.create("job_1", inputs={}, expect={"status": "succeeded"}),
    ("GET", "/v1/eval_cases/{id}"): lambda c: c.evals.cases.get("evc_1"),
    ("DELETE", "/v1/eval_cases/{id}"): lambda c: c.evals.cases.delete("evc_1"),
    ("POST", "/v1/jobs/{id}/evals"): lambda c: c.evals.create("job_1"),
    ("GET", "/v1/jobs/{id}/evals"): lambda c: list(c.evals.list("job_1")),
    ("GET", "/v1/evals/{id}"): lambda c: c.evals.get("eval_1"),
    ("POST", "/v1/evals/{id}/cancel"): lambda c: c.evals.cancel("eval_1"),
    ("GET", "/v1/evals/{id}/report"): lambda c: c.evals.report("http://errand.test/v1/evals/eval_1/report?expires=1&sig=s"),
    ("DELETE", "/v1/jobs/{id}/recipe"): lambda c: c.jobs.delete_recipe("job_1"),
    ("POST", "/v1/runs"): lambda c: c.runs.create(prompt="p"),
    ("GET", "/v1/runs"): lambda c: list(c.runs.list(job_id="job_1")),
    ("POST", "/v1/runs/check"): lambda c: c.runs.check(prompt="p"),
    ("POST", "/v1/jobs/{id}/runs"): lambda c: c.runs.create(job_id="job_1"),
    ("POST", "/v1/jobs/{id}/runs/check"): lambda c: c.runs.check(job_id="job_1"),
    ("GET", "/v1/runs/{id}"): lambda c: c.runs.get("run_1"),
    ("POST", "/v1/runs/{id}/cancel"): lambda c: c.runs.cancel("run_1"),
    ("POST", "/v1/runs/{id}/rerun"): lambda c: c.runs.rerun("run_1"),
    ("POST", "/v1/runs/{id}/human"): lambda c: c.runs.answer_human("run_1", request_id="hr_1", answer="yes"),
    ("GET", "/v1/runs/{id}/live/frames"): lambda c: list(c.runs.live.frames("run_1")),
    ("GET", "/v1/runs/{id}/live/state"): lambda c: c.runs.live.state("run_1"),
    ("POST", "/v1/runs/{id}/live/control"): lambda c: c.runs.live.take_control("run_1"),
    ("POST", "/v1/runs/{id}/live/control/release"): lambda c: c.runs.live.release_control("run_1", control_id="ctl_1"),
    ("POST", "/v1/runs/{id}/live/input"): lambda c: c.runs.live.input("run_1", input={"type": "click", "x": 1, "y": 1}),
    ("POST", "/v1/runs/{id}/live/revoke"): lambda c: c.runs.live.revoke("run_1"),
    ("POST", "/v1/runs/{id}/live/login"): lambda c: c.runs.live.save_login("run_1", control_id="ctl_1", profile="acme"),
    ("GET", "/v1/runs/{id}/steps"): lambda c: list(c.runs.steps("run_1")),
    ("GET", "/v1/runs/{id}/files"): lambda c: list(c.runs.files("run_1")),
    ("GET", "/v1/runs/{id}/files/{file}"): lambda c: c.runs.download_file("http://errand.test/v1/runs/run_1/files/art_1?expires=1&sig=s"),
    ("POST", "/v1/files"): lambda c: c.files.upload(b"hi", name="notes.txt"),
    ("GET", "/v1/files"): lambda c: list(c.files.list()),
    ("GET", "/v1/files/{id}"): lambda c: c.files.get("file_1"),
    ("GET", "/v1/files/{id}/content"): lambda c: c.files.content("file_1"),
    ("DELETE", "/v1/files/{id}"): lambda c: c.files.delete("file_1"),
    ("GET", "/v1/artifacts/{id}"): lambda c: c.artifacts.get("art_1", expires=1, sig="s"),
    ("GET", "/v1/events"): lambda c: next(iter(c.events.stream()), None),
    ("GET", "/v1/runs/{id}/events"): lambda c: list(c.runs.events("run_1")),
    ("GET", "/v1/status"): lambda c: c.status.get(),
    ("GET", "/v1/connections"): lambda c: list(c.connections.list()),
    ("POST", "/v1/connections"): lambda c: c.connections.create(name="n", type="token", secret="secret"),
    ("POST", "/v1/connections/links"): lambda c: c.connections.create_link(provider="google"),
    ("GET", "/v1/connections/links/{id}"): lambda c: c.connections.get_link("conn_1"),
    ("GET", "/v1/connections/{id}"): lambda c: c.connections.get("conn_1"),
    ("PATCH", "/v1/connections/{id}"): lambda c: c.connections.update("conn_1", enabled=False),
    ("DELETE", "/v1/connections/{id}"): lambda c: c.connections.delete("conn_1"),
    ("POST", "/v1/connections/{id}/check"): lambda c: c.connections.check("conn_1"),
    ("GET", "/v1/connections/{id}/tools"): lambda c: c.connections.tools("conn_1"),
    ("GET", "/v1/profiles"): lambda c: list(c.profiles.list()),
    ("POST", "/v1/profiles"): lambda c: c.profiles.import_state("acme", {"cookies": [], "origins": []}),
    ("GET", "/v1/profiles/{id}"): lambda c: c.profiles.get("prf_1"),
    ("PATCH", "/v1/profiles/{id}"): lambda c: c.profiles.update("prf_1", name="acme-2"),
    ("DELETE", "/v1/profiles/{id}"): lambda c: c.profiles.delete("prf_1"),
    ("POST", "/v1/profiles/{id}/check"): lambda c: c.profiles.check("prf_1"),
    ("GET", "/v1/profiles/{id}/runs"): lambda c: list(c.profiles.runs("prf_1")),
    ("POST", "/v1/emails"): lambda c: c.emails.send(to="a@example.com", subject="s", text="t"),
    ("GET", "/v1/emails"): lambda c: list(c.emails.list()),
    ("GET", "/v1/emails/identity"): lambda c: c.emails.identity.get(),
    ("POST", "/v1/emails/identity"): lambda c: c.emails.identity.set(),
    ("POST", "/v1/emails/identity/domain/verify"): lambda c: c.emails.identity.verify_domain(),
    ("GET", "/v1/emails/suppressions"): lambda c: list(c.emails.suppressions.list()),
    ("DELETE", "/v1/emails/suppressions/{address}"): lambda c: c.emails.suppressions.delete("a@example.com"),
    ("GET", "/v1/emails/received"): lambda c: list(c.emails.received.list()),
    ("GET", "/v1/emails/received/{id}"): lambda c: c.emails.received.get("msg_1"),
    ("GET", "/v1/emails/attachments/{id}"): lambda c: c.emails.attachment("att_1", expires=1, sig="s"),
    ("GET", "/v1/emails/{id}"): lambda c: c.emails.get("msg_1"),
    ("POST", "/v1/emails/{id}/simulate_reply"): lambda c: c.emails.simulate_reply("msg_1", text="hi"),
    ("GET", "/v1/emails/{id}/raw"): lambda c: c.emails.raw("msg_1"),
    ("POST", "/v1/inboxes"): lambda c: c.inboxes.create(name="i"),
    ("GET", "/v1/inboxes"): lambda c: list(c.inboxes.list()),
    ("GET", "/v1/inboxes/{id}"): lambda c: c.inboxes.get("inbox_1"),
    ("PATCH", "/v1/inboxes/{id}"): lambda c: c.inboxes.update("inbox_1", name="j"),
    ("DELETE", "/v1/inboxes/{id}"): lambda c: c.inboxes.delete("inbox_1"),
    ("POST", "/v1/inboxes/{id}/messages"): lambda c: c.inboxes.send("inbox_1", to="a@example.com", subject="s", text="t"),
}


def recording_client() -> tuple[Errand, list[tuple[str, str]]]:
    """A client whose transport answers every request with an empty success and records it."""
    sent: list[tuple[str, str]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append((request.method, request.url.path))
        if request.headers.get("accept") == "text/event-stream":
            return httpx.Response(204)
        return httpx.Response(200, json={"object": "list", "data": [], "has_more": False, "next_cursor": None})

    return Errand("ek_x", base_url="http://errand.test", transport=httpx.MockTransport(answer)), sent


def template_matches(template: str, path: str) -> bool:
    return re.fullmatch(re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)), path) is not None


def test_s09_every_operation_of_the_openapi_document_has_an_sdk_method(daemon: SdkDaemon) -> None:
    document = httpx.get(f"{daemon.url}/v1/openapi.json").json()
    served = {(method.upper(), path) for path, item in document["paths"].items() for method in item if method in {"get", "post", "put", "patch", "delete"}}

    assert sorted(served - OPERATIONS.keys()) == [], "operations the Python SDK has no method for"
    assert sorted(OPERATIONS.keys() - served) == [], "SDK methods for operations the daemon no longer serves"
    for (method, template), call in OPERATIONS.items():
        client, sent = recording_client()
        call(client)
        assert sent, f"{method} {template}: the SDK sent nothing"
        assert sent[0][0] == method and template_matches(template, sent[0][1]), f"{method} {template}: the SDK sent {sent[0]}"


def test_s10_the_checked_in_types_are_what_the_generator_makes_from_the_served_document(daemon: SdkDaemon) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("errand_generate", SDK / "scripts" / "generate.py")
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    document = httpx.get(f"{daemon.url}/v1/openapi.json").json()

    expected = generate.generate_types(document)

    assert (SDK / "src" / "errand" / "_generated.py").read_text() == expected, (
        "sdk/python/src/errand/_generated.py is out of date: run /usr/bin/python3 sdk/python/scripts/generate.py "
        "<daemon>/v1/openapi.json"
    )


def sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def test_s11_uploads_lists_reads_back_and_a_runs_copies_download_by_their_signed_links(daemon: SdkDaemon, tmp_path: Path) -> None:
    import os

    big = os.urandom(40 * 64 * 1024)
    on_disk = tmp_path / "readings.bin"
    on_disk.write_bytes(big)
    chunks = [b"city,temperature\n", "Zürich,4\n".encode()]
    with fresh_org_client(daemon) as client:
        with on_disk.open("rb") as f:
            uploaded = client.files.upload(f)  # read a chunk at a time; the name is the file's
        sheet = client.files.upload(iter(chunks), name="../../sheet.csv", content_type="text/csv")
        note = client.files.upload(b"hello", name="note.txt")

        assert (uploaded["object"], uploaded["name"], uploaded["size"], uploaded["sha256"]) == ("file", "readings.bin", len(big), sha256(big))
        assert (sheet["name"], sheet["content_type"], sheet["sha256"]) == ("sheet.csv", "text/csv", sha256(b"".join(chunks)))
        assert (note["name"], note["content_type"]) == ("note.txt", "text/plain")
        assert client.files.get(uploaded["id"]) == uploaded

        # One file a page: iterating asks for every page and sees each file once, newest first.
        first = client.files.list(limit=1).first_page()
        assert first["has_more"] is True and [f["id"] for f in first["data"]] == [note["id"]]
        assert [f["id"] for f in client.files.list(limit=1)] == [note["id"], sheet["id"], uploaded["id"]]

        assert client.files.content(note["id"]) == b"hello"
        streamed = list(client.files.iter_content(uploaded["id"]))
        assert b"".join(streamed) == big

        # The fixture's model copies a run's input files from in/ to out/, so that they come back as the run's own.
        run = client.runs.create_and_wait(prompt="Copy the files", files=[uploaded["id"], sheet["id"]], timeout=60)
        assert run["status"] == "succeeded", run
        listed = list(client.runs.files(run["task_id"]))
        assert [(f["name"], f["sha256"]) for f in listed] == [("readings.bin", uploaded["sha256"]), ("sheet.csv", sheet["sha256"])]
        assert [f["name"] for f in run["files"]] == ["readings.bin", "sheet.csv"]

    # The signed links need no key: a client with a wrong one downloads them.
    with Errand("ek_not_a_key", base_url=daemon.url) as keyless:
        assert b"".join(keyless.runs.iter_download_file(listed[0]["url"])) == big
        assert keyless.runs.download_file(listed[1]["url"]) == b"".join(chunks)
        with pytest.raises(errand.PermissionDeniedError) as forged:
            keyless.runs.download_file(re.sub(r"sig=[^&]+", "sig=forged", listed[0]["url"]))
        assert (forged.value.status, forged.value.code) == (403, "invalid_link_signature")
        with pytest.raises(errand.ErrandError):
            keyless.runs.download_file(f"{daemon.url}/v1/artifacts/art_1?expires=1&sig=x")


@pytest.mark.asyncio
async def test_s11_the_async_client_uploads_an_async_stream_and_reads_it_back_streamed(daemon: SdkDaemon) -> None:
    async def produce() -> Any:
        for i in range(3):
            yield bytes([i]) * 70_000

    async with AsyncErrand(daemon.command(cmd="org")["key"], base_url=daemon.url) as client:
        file = await client.files.upload(produce(), name="parts.bin")
        assert file["size"] == 210_000
        received = b"".join([chunk async for chunk in client.files.iter_content(file["id"])])
        assert received == b"\x00" * 70_000 + b"\x01" * 70_000 + b"\x02" * 70_000
        assert [f["id"] async for f in client.files.list()] == [file["id"]]
        assert (await client.files.delete(file["id"]))["deleted"] is True


def test_s11_deletes_a_file_and_keeps_files_to_their_organisation(daemon: SdkDaemon) -> None:
    with fresh_org_client(daemon) as client, fresh_org_client(daemon) as stranger:
        file = client.files.upload(b"\x01\x02\x03", name="one.bin")
        with pytest.raises(errand.NotFoundError):
            stranger.files.get(file["id"])
        with pytest.raises(errand.NotFoundError):
            stranger.files.content(file["id"])

        assert client.files.delete(file["id"]) == {"id": file["id"], "object": "file", "livemode": True, "deleted": True}
        with pytest.raises(errand.NotFoundError):
            client.files.get(file["id"])
        with pytest.raises(errand.NotFoundError) as refused:
            client.runs.create(prompt="p", files=[file["id"]])
        assert refused.value.param == "files[0]"


def test_s11_a_stream_is_sent_once_and_bytes_are_tried_again_after_a_429(daemon: SdkDaemon) -> None:
    with fresh_org_client(daemon, max_retries=2) as client:
        before = len(daemon.command(cmd="requests", method="POST", path="/v1/files")["requests"])
        # A 429 is one any request may repeat, but a stream has been read: it is raised.
        daemon.command(cmd="fail", method="POST", path="/v1/files", status=429, times=1, retry_after="0")
        with pytest.raises(errand.RateLimitError):
            client.files.upload(iter([b"a", b"b"]), name="once.bin")
        daemon.command(cmd="fail", method="POST", path="/v1/files", status=429, times=1, retry_after="0")
        file = client.files.upload(b"again", name="twice.txt")

        requests = daemon.command(cmd="requests", method="POST", path="/v1/files")["requests"][before:]
        assert [r["status"] for r in requests] == [429, 429, 201]
        assert [f["id"] for f in client.files.list()] == [file["id"]]


def test_s12_test_mode_forces_an_outcome_and_stays_apart_from_live(daemon: SdkDaemon, client: Errand) -> None:
    model_before = daemon.command(cmd="model_requests")["count"]
    with Errand(daemon.command(cmd="test_key")["key"], base_url=daemon.url) as test_mode:
        failed = test_mode.runs.create_and_wait(prompt="Buy the widget at {{url}}", inputs={"url": "https://shop.example/?errand_test=captcha"})
        assert failed["status"] == "failed"
        assert failed["failure_reason"] == "captcha"
        assert failed["livemode"] is False
        schema = {"type": "object", "required": ["price", "currency"], "properties": {"price": {"type": "number", "minimum": 0}, "currency": {"enum": ["EUR", "USD"]}}}
        succeeded = test_mode.runs.create_and_wait(prompt="Find the price", output_schema=schema)
        assert succeeded["status"] == "succeeded"
        assert succeeded["livemode"] is False
        assert succeeded["usage"]["cost_usd"] == 0
        assert isinstance(succeeded["result"]["price"], (int, float)) and succeeded["result"]["currency"] in ("EUR", "USD")
    for run in (failed, succeeded):
        with pytest.raises(errand.NotFoundError):
            client.runs.get(run["task_id"])
    assert daemon.command(cmd="model_requests")["count"] == model_before


def test_s13_evals_grade_cases_compare_with_a_baseline_report_and_run_the_kept_cases(daemon: SdkDaemon) -> None:
    with fresh_org_client(daemon) as client:
        project = client.projects.create(name=f"py-s13-{uuid.uuid4().hex[:8]}")
        job = client.jobs.create(project_id=project["id"], name="echo", prompt="Say whether it is ok", output_schema=OUTPUT_SCHEMA)

        first = client.evals.create_and_wait(
            job["id"],
            cases=[{"name": "ok", "expect": {"equals": {"ok": True}}}, {"name": "not ok", "expect": {"members": {"ok": {"equals": False}}}}],
            poll_interval=0.2,
        )
        assert (first["object"], first["status"]) == ("eval", "completed")
        assert (first["totals"]["passed"], first["totals"]["failed"], first["totals"]["pass_rate"]) == (1, 1, 0.5)
        assert first["cases"][1]["differences"] == [{"path": "result.ok", "expected": "false", "got": "true"}]

        second = client.evals.create_and_wait(
            job["id"],
            cases=[{"name": "ok", "expect": {"equals": {"ok": True}}}, {"name": "not ok", "expect": {"members": {"ok": {"equals": True}}}}],
            baseline_id=first["id"],
            poll_interval=0.2,
        )
        comparison = second["comparison"]
        assert comparison is not None
        assert (comparison["newly_passing"], comparison["newly_failing"], comparison["unchanged"]) == (["not ok"], [], 1)
        assert client.evals.get(second["id"])["totals"]["pass_rate"] == 1
        assert [e["id"] for e in client.evals.list(job["id"])] == [second["id"], first["id"]]

        with Errand("ek_not_sent", base_url=daemon.url) as keyless:
            assert '<svg class="chart"' in keyless.evals.report(second["report_url"])

        kept = client.evals.cases.create(job["id"], name="kept", expect={"members": {"ok": {"equals": True}}})
        assert [c["id"] for c in client.evals.cases.list(job["id"])] == [kept["id"]]
        third = client.evals.create_and_wait(job["id"], poll_interval=0.2)
        assert [(c["case_id"], c["status"]) for c in third["cases"]] == [(kept["id"], "passed")]
        assert client.evals.cases.delete(kept["id"])["deleted"] is True
