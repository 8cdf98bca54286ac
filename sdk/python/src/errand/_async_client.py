"""The asynchronous client: ``AsyncErrand`` and its resources, one method per operation of the API.

This file is the one definition of both clients: ``scripts/generate.py`` writes ``_sync_client.py`` from it by
removing ``async`` and ``await``, so keep to what that turns into working synchronous code (``asleep``, ``aclose``,
``Async*`` names).
"""
from __future__ import annotations

import json
import os
import re
import time
import uuid
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator, Mapping
from typing import IO, Any, Generic, TypeVar, Unpack, overload
from urllib.parse import quote

import httpx

from . import _generated as g
from ._retry import MAX_RETRY_DELAY_S, backoff_seconds, delay_for, should_retry_error, should_retry_status
from ._sse import ServerSentEvent, SSEDecoder
from ._timing import asleep
from ._version import __version__
from .errors import (
    APIConnectionError,
    APITimeoutError,
    ErrandError,
    InternalServerError,
    RateLimitError,
    WaitTimeoutError,
    status_error,
)
from .types import Event, Run
from .webhooks import Webhooks

T = TypeVar("T")

DEFAULT_BASE_URL = "http://127.0.0.1:7370"
DEFAULT_TIMEOUT_S = 60.0
#: The events that end a run's stream (docs/api.md, Live events).
RUN_END_EVENTS = frozenset({"run.completed", "run.failed", "run.cancelled"})
TERMINAL_STATUSES = frozenset({"succeeded", "failed", "cancelled"})
EVAL_END_STATUSES = frozenset({"completed", "cancelled"})
STREAM_READ_TIMEOUT_S = 90.0
#: How much of a file object an upload reads at a time.
UPLOAD_CHUNK_BYTES = 64 * 1024


def _path(template: str, **params: str) -> str:
    for name, value in params.items():
        template = template.replace("{" + name + "}", quote(str(value), safe=""))
    return template


def _query(params: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not params:
        return None
    return {k: v for k, v in params.items() if v is not None}


def _stream_timeout(timeout: float | httpx.Timeout, deadline: float | None = None) -> httpx.Timeout:
    """A stream's reads wait at least STREAM_READ_TIMEOUT_S: an idle stream is kept alive by heartbeats (every 15 s
    by default), so only a dead connection goes that long without a byte. Not past a deadline, though."""
    t = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
    read = None if t.read is None else max(t.read, STREAM_READ_TIMEOUT_S)
    if deadline is not None:
        left = max(0.001, deadline - time.monotonic())
        read = left if read is None else min(read, left)
    return httpx.Timeout(connect=t.connect, read=read, write=t.write, pool=t.pool)


def _passed(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() >= deadline


def _pause(seconds: float, deadline: float | None) -> float:
    return seconds if deadline is None else max(0.0, min(seconds, deadline - time.monotonic()))


async def _read_chunks(file: IO[bytes]) -> AsyncIterator[bytes]:
    while chunk := file.read(UPLOAD_CHUNK_BYTES):
        yield chunk


def _upload_name(file: Any) -> str | None:
    name = getattr(file, "name", None)
    return os.path.basename(name) if isinstance(name, str) and name else None


def _json_body(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


class AsyncErrand:
    """A client of one Errand daemon.

    ``api_key`` and ``base_url`` default to ``ERRAND_API_KEY`` and ``ERRAND_API_URL`` (else the daemon's default
    address). ``timeout`` is in seconds (or an ``httpx.Timeout``) for each attempt of a request; ``max_retries``
    bounds how often a request refused with 429, failing with a 5xx or on the network is tried again (with backoff,
    or after ``Retry-After`` when given, unless that is more than ``max_retry_delay`` seconds: then the error is
    raised at once); an event stream that cannot reconnect for ``stream_retry_window`` seconds in a row raises the
    last error. ``transport`` or ``http_client`` carry every request: a custom ``httpx.AsyncBaseTransport``
    (a proxy, a mock, a unix socket) or a whole ``httpx.AsyncClient``, which the caller then closes.
    """

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float | httpx.Timeout | None = None,
        max_retries: int = 2,
        max_retry_delay: float = MAX_RETRY_DELAY_S,
        stream_retry_window: float = 60.0,
        transport: httpx.AsyncBaseTransport | None = None,
        http_client: httpx.AsyncClient | None = None,
        default_headers: Mapping[str, str] | None = None,
    ) -> None:
        key = api_key or os.environ.get("ERRAND_API_KEY")
        if not key:
            raise ErrandError("no API key: pass api_key= or set ERRAND_API_KEY")
        if transport is not None and http_client is not None:
            raise ErrandError("pass transport= or http_client=, not both")
        self.api_key = key
        self.base_url = (base_url or os.environ.get("ERRAND_API_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.max_retries = max_retries
        self.max_retry_delay = max_retry_delay
        self.stream_retry_window = stream_retry_window
        self.timeout: float | httpx.Timeout = timeout if timeout is not None else (http_client.timeout if http_client is not None else DEFAULT_TIMEOUT_S)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.AsyncClient(transport=transport)
        self._headers = {
            "Authorization": f"Bearer {key}",
            "Accept": "application/json",
            "User-Agent": f"errand-python/{__version__}",
            **(default_headers or {}),
        }
        self.projects = AsyncProjects(self)
        self.jobs = AsyncJobs(self)
        self.runs = AsyncRuns(self)
        self.evals = AsyncEvals(self)
        self.events = AsyncEvents(self)
        self.artifacts = AsyncArtifacts(self)
        self.files = AsyncFiles(self)
        self.connections = AsyncConnections(self)
        self.profiles = AsyncProfiles(self)
        self.emails = AsyncEmails(self)
        self.inboxes = AsyncInboxes(self)
        self.status = AsyncStatus(self)
        self.webhooks = Webhooks()

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncErrand:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def health(self) -> g.GetHealthzResponse:
        """``GET /healthz``: the daemon is up (no key needed)."""
        return await self.request("GET", "/healthz")

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | httpx.Timeout | None = None,
        idempotent: bool = False,
    ) -> Any:
        """Any API call: its JSON answer (None for an empty one). Errors raise typed ``ErrandError``s."""
        response = await self.send(method, path, query=query, body=body, headers=headers, timeout=timeout, idempotent=idempotent)
        return _json_body(response) if response.content else None

    async def send(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | httpx.Timeout | None = None,
        stream: bool = False,
        idempotent: bool = False,
        max_retries: int | None = None,
        content: bytes | AsyncIterable[bytes] | None = None,
        auth: bool = True,
    ) -> httpx.Response:
        """One call with its retries: the successful response (read, unless ``stream``; then the caller closes it).

        A POST is tried again only when the daemon cannot have acted on it (429, 503, no connection), unless it is
        ``idempotent`` by nature (cancel, check) or its body carries an ``idempotency_key``, with which the daemon
        answers a repeat with the first run. That key is also sent as the ``Idempotency-Key`` header, where proxies
        and logs see it without reading bodies. ``content`` is a body sent as it is (an upload) instead of ``body``'s
        JSON; one that is not bytes is sent as it is read, once: a call with it is not tried again. ``auth=False``
        sends no key (signed links)."""
        retries = self.max_retries if max_retries is None else max_retries
        if content is not None and not isinstance(content, bytes):
            retries = 0
        key = body.get("idempotency_key") if isinstance(body, dict) else None
        safe = method != "POST" or idempotent or key is not None
        if key is not None:
            headers = {"Idempotency-Key": str(key), **(headers or {})}
        url = path if path.startswith(("http://", "https://")) else self.base_url + path
        sent_headers = {**self._headers, **(headers or {})}
        if not auth:
            del sent_headers["Authorization"]
        attempt = 0
        while True:
            attempt += 1
            request = self._http.build_request(
                method,
                url,
                params=_query(query),
                json=body,
                content=content,
                headers=sent_headers,
                timeout=timeout if timeout is not None else self.timeout,
            )
            try:
                response = await self._http.send(request, stream=True)
                if not stream or response.status_code >= 400:
                    try:
                        await response.aread()
                    finally:
                        await response.aclose()
            except httpx.TransportError as error:
                if attempt <= retries and should_retry_error(error, safe):
                    await asleep(backoff_seconds(attempt))
                    continue
                kind = APITimeoutError if isinstance(error, httpx.TimeoutException) else APIConnectionError
                raise kind(f"{method} {path}: {type(error).__name__}: {error}", request=request) from error
            if response.status_code < 400:
                return response
            if attempt <= retries and should_retry_status(response.status_code, safe):
                delay = delay_for(response, attempt, self.max_retry_delay)
                if delay is not None:
                    await asleep(delay)
                    continue
            raise status_error(response, _json_body(response))

    def paginate(self, path: str, query: Mapping[str, Any] | None = None) -> AsyncPager[Any]:
        return AsyncPager(self, path, query)

    async def follow(
        self, path: str, *, last_event_id: int | str | None = None, ends_with_run: bool = False, deadline: float | None = None
    ) -> AsyncGenerator[Event, None]:
        """An event stream as an iterator of events, reconnecting with ``Last-Event-ID`` when the connection drops or
        the daemon restarts, so that every event arrives once and in order. A refusal (401, 404, 429
        too_many_streams) is raised at once; failures to reconnect for ``stream_retry_window`` seconds in a row raise
        the last error. It stops at ``deadline`` (a ``time.monotonic()`` value), within a heartbeat."""
        last = last_event_id
        failures = 0
        failing_since: float | None = None
        while not _passed(deadline):
            headers = {"Accept": "text/event-stream"}
            if last is not None:
                headers["Last-Event-ID"] = str(last)
            try:
                response = await self.send("GET", path, headers=headers, stream=True, timeout=_stream_timeout(self.timeout, deadline), max_retries=0)
            except (APIConnectionError, InternalServerError):
                failures += 1
                failing_since = failing_since if failing_since is not None else time.monotonic()
                if time.monotonic() - failing_since > self.stream_retry_window:
                    raise
                await asleep(_pause(backoff_seconds(failures), deadline))
                continue
            if response.status_code == 204:
                await response.aclose()
                return
            decoder = SSEDecoder()
            try:
                async for line in response.aiter_lines():
                    if _passed(deadline):
                        return
                    sse = decoder.decode(line)
                    if sse is None or not sse.data:
                        continue
                    event = json.loads(sse.data)
                    last = sse.id if sse.id is not None else event.get("id")
                    failures, failing_since = 0, None
                    yield event
                    if ends_with_run and event.get("type") in RUN_END_EVENTS:
                        return
            except httpx.TransportError:
                pass  # the connection was cut (a restart, a proxy): reconnect after the last event seen
            finally:
                await response.aclose()
            failures += 1
            failing_since = failing_since if failing_since is not None else time.monotonic()
            if time.monotonic() - failing_since > self.stream_retry_window:
                raise APIConnectionError(f"GET {path}: the event stream kept ending without an event for {self.stream_retry_window:g} s")
            await asleep(_pause(backoff_seconds(failures), deadline))


class AsyncPager(Generic[T]):
    """A list, page after page: iterate it for every item (``async for run in client.runs.list()``), or its
    ``pages()`` for each page as the API answers it (``data``, ``has_more``, ``next_cursor``)."""

    def __init__(self, client: AsyncErrand, path: str, query: Mapping[str, Any] | None) -> None:
        self._client = client
        self._path = path
        self._query = dict(query or {})

    async def first_page(self) -> dict[str, Any]:
        return await self._client.request("GET", self._path, query=self._query)

    async def pages(self) -> AsyncIterator[dict[str, Any]]:
        query = dict(self._query)
        while True:
            page = await self._client.request("GET", self._path, query=query)
            yield page
            if not page.get("has_more") or not page.get("next_cursor"):
                return
            query["cursor"] = page["next_cursor"]

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.pages():
            for item in page["data"]:
                yield item


class _AsyncResource:
    def __init__(self, client: AsyncErrand) -> None:
        self._client = client


class AsyncProjects(_AsyncResource):
    def list(self, **query: Unpack[g.GetProjectsQuery]) -> AsyncPager[g.GetProjectsIdResponse]:
        return self._client.paginate("/v1/projects", query)

    async def create(self, **params: Unpack[g.PostProjectsBody]) -> g.PostProjectsResponse:
        return await self._client.request("POST", "/v1/projects", body=params)

    async def get(self, project_id: str) -> g.GetProjectsIdResponse:
        return await self._client.request("GET", _path("/v1/projects/{id}", id=project_id))

    async def update(self, project_id: str, **params: Unpack[g.PatchProjectsIdBody]) -> g.PatchProjectsIdResponse:
        return await self._client.request("PATCH", _path("/v1/projects/{id}", id=project_id), body=params)

    async def delete(self, project_id: str) -> g.DeleteProjectsIdResponse:
        return await self._client.request("DELETE", _path("/v1/projects/{id}", id=project_id))


class AsyncJobs(_AsyncResource):
    def list(self, **query: Unpack[g.GetJobsQuery]) -> AsyncPager[g.GetJobsIdResponse]:
        return self._client.paginate("/v1/jobs", query)

    async def create(self, **params: Unpack[g.PostJobsBody]) -> g.PostJobsResponse:
        return await self._client.request("POST", "/v1/jobs", body=params)

    async def get(self, job_id: str) -> g.GetJobsIdResponse:
        return await self._client.request("GET", _path("/v1/jobs/{id}", id=job_id))

    async def update(self, job_id: str, **params: Unpack[g.PatchJobsIdBody]) -> g.PatchJobsIdResponse:
        return await self._client.request("PATCH", _path("/v1/jobs/{id}", id=job_id), body=params)

    async def delete(self, job_id: str) -> g.DeleteJobsIdResponse:
        return await self._client.request("DELETE", _path("/v1/jobs/{id}", id=job_id))

    def skipped_firings(self, job_id: str, **query: Unpack[g.GetJobsIdSkippedFiringsQuery]) -> AsyncPager[Any]:
        return self._client.paginate(_path("/v1/jobs/{id}/skipped_firings", id=job_id), query)

    async def recipe(self, job_id: str) -> g.GetJobsIdRecipeResponse:
        """The newest version of the job's recipe, which its runs with ``replay="auto"`` replay without the model."""
        return await self._client.request("GET", _path("/v1/jobs/{id}/recipe", id=job_id))

    async def delete_recipe(self, job_id: str) -> g.DeleteJobsIdRecipeResponse:
        """Deletes every version of the job's recipe: its next run is the agent's, and records version 1."""
        return await self._client.request("DELETE", _path("/v1/jobs/{id}/recipe", id=job_id))



class AsyncRuns(_AsyncResource):
    def __init__(self, client: AsyncErrand) -> None:
        super().__init__(client)
        self.live = AsyncLive(client)

    @overload
    async def create(self, *, job_id: str, traceparent: str | None = None, **params: Unpack[g.PostJobsIdRunsBody]) -> g.PostRunsResponse: ...

    @overload
    async def create(self, *, traceparent: str | None = None, **params: Unpack[g.PostRunsBody]) -> g.PostRunsResponse: ...

    async def create(self, *, job_id: str | None = None, traceparent: str | None = None, **params: Any) -> g.PostRunsResponse:
        """Starts a run: of a prompt (``POST /v1/runs``), or of the job ``job_id`` (``POST /v1/jobs/{id}/runs``).
        Without an ``idempotency_key`` the SDK makes one, kept across retries, so that a retry after a lost answer
        never starts a second run. ``traceparent`` (the W3C header of the caller's span, e.g. from OpenTelemetry's
        ``propagate.inject(carrier)``) makes the run's trace a child of the caller's, with tracing on the daemon."""
        body: dict[str, Any] = {"idempotency_key": f"errand-py-{uuid.uuid4()}", **params}
        path = "/v1/runs" if job_id is None else _path("/v1/jobs/{id}/runs", id=job_id)
        headers = None if traceparent is None else {"traceparent": traceparent}
        return await self._client.request("POST", path, body=body, headers=headers)

    @overload
    async def check(self, *, job_id: str, **params: Unpack[g.PostJobsIdRunsCheckBody]) -> g.PostRunsCheckResponse: ...

    @overload
    async def check(self, **params: Unpack[g.PostRunsCheckBody]) -> g.PostRunsCheckResponse: ...

    async def check(self, *, job_id: str | None = None, **params: Any) -> g.PostRunsCheckResponse:
        """Makes every check creating the run would make, and creates nothing (``POST /v1/runs/check``)."""
        path = "/v1/runs/check" if job_id is None else _path("/v1/jobs/{id}/runs/check", id=job_id)
        return await self._client.request("POST", path, body=params, idempotent=True)

    async def create_and_wait(
        self, *, job_id: str | None = None, timeout: float | None = None, poll: bool = False, poll_interval: float = 1.0, **params: Any
    ) -> Run:
        """Starts a run (of the job ``job_id`` when given) and waits for its end (see ``wait``): its final envelope."""
        started = time.monotonic()
        created = await self.create(job_id=job_id, **params) if job_id is not None else await self.create(**params)
        left = None if timeout is None else max(0.0, timeout - (time.monotonic() - started))
        return await self.wait(created["task_id"], timeout=left, poll=poll, poll_interval=poll_interval)

    async def wait(self, run_id: str, *, timeout: float | None = None, poll: bool = False, poll_interval: float = 1.0) -> Run:
        """The run's final envelope: follows its event stream (resumed after cuts) to the end event, and polls
        ``GET /v1/runs/{id}`` every ``poll_interval`` seconds when ``poll`` is set or no stream can be had (429
        too_many_streams, a connection that keeps failing). After ``timeout`` seconds it raises ``WaitTimeoutError``
        (the run goes on)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        if not poll:
            events = self._client.follow(_path("/v1/runs/{id}/events", id=run_id), ends_with_run=True, deadline=deadline)
            try:
                async for event in events:
                    if event["type"] in RUN_END_EVENTS:
                        data: Any = event["data"]
                        if isinstance(data, dict) and data.get("object") == "run":
                            return data
                        break
            except (APIConnectionError, RateLimitError, InternalServerError):
                pass
            finally:
                await events.aclose()
        while True:
            if _passed(deadline):
                raise WaitTimeoutError(run_id, timeout or 0.0)
            run = await self.get(run_id)
            if run["status"] in TERMINAL_STATUSES:
                return run
            await asleep(_pause(poll_interval, deadline))

    def list(self, **query: Unpack[g.GetRunsQuery]) -> AsyncPager[g.GetRunsResponseDataItem]:
        return self._client.paginate("/v1/runs", query)

    async def get(self, run_id: str) -> g.GetRunsIdResponse:
        return await self._client.request("GET", _path("/v1/runs/{id}", id=run_id))

    async def cancel(self, run_id: str) -> g.PostRunsIdCancelResponse:
        return await self._client.request("POST", _path("/v1/runs/{id}/cancel", id=run_id), idempotent=True)

    async def rerun(self, run_id: str) -> g.PostRunsIdRerunResponse:
        return await self._client.request("POST", _path("/v1/runs/{id}/rerun", id=run_id))

    async def answer_human(self, run_id: str, **params: Unpack[g.PostRunsIdHumanBody]) -> g.PostRunsIdHumanResponse:
        """Answers the question ``request_id`` names, the run's ``waiting_for.request_id`` (``POST /v1/runs/{id}/human``).

        An answer goes to that question only: when the run asks another by then, it is refused (409 ``request_mismatch``,
        whose message says what the run asks now) and applied to nothing.
        """
        return await self._client.request("POST", _path("/v1/runs/{id}/human", id=run_id), body=params)

    def steps(self, run_id: str) -> AsyncPager[g.GetRunsIdStepsResponseDataItem]:
        return self._client.paginate(_path("/v1/runs/{id}/steps", id=run_id))

    def files(self, run_id: str) -> AsyncPager[g.GetRunsResponseDataItemFilesItem]:
        """The run's own files (what its browser downloaded and its code wrote under /workspace/out/), each with a
        signed ``url`` for ``download_file``; none until the run ends."""
        return self._client.paginate(_path("/v1/runs/{id}/files", id=run_id))

    async def download_file(self, url: str) -> bytes:
        """The bytes behind one of the run's signed file links (a ``url`` of ``files``), read whole; no key is sent."""
        return (await self._client.send("GET", self._signed(url), auth=False)).content

    async def iter_download_file(self, url: str) -> AsyncIterator[bytes]:
        """The same bytes as they arrive, never held whole (a run's files may be large)."""
        response = await self._client.send("GET", self._signed(url), auth=False, stream=True)
        try:
            async for chunk in response.aiter_bytes():
                yield chunk
        finally:
            await response.aclose()

    @staticmethod
    def _signed(url: str) -> str:
        """The link's path and query, asked of this client's daemon (whatever host the link names)."""
        link = httpx.URL(url)
        if not re.fullmatch(r"/v1/runs/[^/]+/files/[^/]+", link.path):
            raise ErrandError(f"not a link to a run's file: {url}")
        return link.raw_path.decode("ascii")

    def events(self, run_id: str, *, last_event_id: int | str | None = None) -> AsyncGenerator[Event, None]:
        """The run's events from its first (or after ``last_event_id``), ending after its end event."""
        return self._client.follow(_path("/v1/runs/{id}/events", id=run_id), last_event_id=last_event_id, ends_with_run=True)


class AsyncEvalCases(_AsyncResource):
    """The cases a job keeps: what an eval given no cases runs."""

    def list(self, job_id: str, **query: Unpack[g.GetJobsIdEvalCasesQuery]) -> AsyncPager[g.GetEvalCasesIdResponse]:
        return self._client.paginate(_path("/v1/jobs/{id}/eval_cases", id=job_id), query)

    async def create(self, job_id: str, **params: Unpack[g.PostJobsIdEvalCasesBody]) -> g.PostJobsIdEvalCasesResponse:
        return await self._client.request("POST", _path("/v1/jobs/{id}/eval_cases", id=job_id), body=params)

    async def get(self, case_id: str) -> g.GetEvalCasesIdResponse:
        return await self._client.request("GET", _path("/v1/eval_cases/{id}", id=case_id))

    async def delete(self, case_id: str) -> g.DeleteEvalCasesIdResponse:
        return await self._client.request("DELETE", _path("/v1/eval_cases/{id}", id=case_id))


class AsyncEvals(_AsyncResource):
    """Evaluations of a job: its cases run as runs of the job, each graded against what a good result is."""

    def __init__(self, client: AsyncErrand) -> None:
        super().__init__(client)
        self.cases = AsyncEvalCases(client)

    async def create(self, job_id: str, **params: Unpack[g.PostJobsIdEvalsBody]) -> g.PostJobsIdEvalsResponse:
        """Starts an eval of the job (``POST /v1/jobs/{id}/evals``; the eval, queued). Without an ``idempotency_key``
        the SDK makes one, kept across retries, so that a retry after a lost answer never starts a second eval."""
        body: dict[str, Any] = {"idempotency_key": f"errand-py-{uuid.uuid4()}", **params}
        return await self._client.request("POST", _path("/v1/jobs/{id}/evals", id=job_id), body=body, idempotent=True)

    async def create_and_wait(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 1.0, **params: Any) -> g.GetEvalsIdResponse:
        """Starts an eval of the job and waits for it to end (see ``wait``)."""
        started = time.monotonic()
        created = await self.create(job_id, **params)
        left = None if timeout is None else max(0.0, timeout - (time.monotonic() - started))
        return await self.wait(created["id"], timeout=left, poll_interval=poll_interval)

    async def wait(self, eval_id: str, *, timeout: float | None = None, poll_interval: float = 1.0) -> g.GetEvalsIdResponse:
        """Polls the eval every ``poll_interval`` seconds until it has ended (``completed`` or ``cancelled``) and
        answers it. After ``timeout`` seconds it raises ``WaitTimeoutError`` (the eval goes on)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if _passed(deadline):
                raise WaitTimeoutError(eval_id, timeout or 0.0, what="eval")
            evaluation = await self.get(eval_id)
            if evaluation["status"] in EVAL_END_STATUSES:
                return evaluation
            await asleep(_pause(poll_interval, deadline))

    def list(self, job_id: str, **query: Unpack[g.GetJobsIdEvalsQuery]) -> AsyncPager[g.GetJobsIdEvalsResponseDataItem]:
        """The job's evals, newest first, each with its totals."""
        return self._client.paginate(_path("/v1/jobs/{id}/evals", id=job_id), query)

    async def get(self, eval_id: str) -> g.GetEvalsIdResponse:
        return await self._client.request("GET", _path("/v1/evals/{id}", id=eval_id))

    async def cancel(self, eval_id: str) -> g.PostEvalsIdCancelResponse:
        """Cancels the eval: its cases without a run are skipped, its runs under way cancelled."""
        return await self._client.request("POST", _path("/v1/evals/{id}/cancel", id=eval_id), idempotent=True)

    async def report(self, url: str) -> str:
        """The eval's report, an HTML page, by its signed ``report_url``; no key is sent."""
        link = httpx.URL(url)
        if not re.fullmatch(r"/v1/evals/[^/]+/report", link.path):
            raise ErrandError(f"not a link to an eval's report: {url}")
        return (await self._client.send("GET", link.raw_path.decode("ascii"), auth=False)).text


class AsyncLive(_AsyncResource):
    """The live view of a running run (docs/api.md, Live view and takeover)."""

    async def frames(self, run_id: str) -> AsyncIterator[ServerSentEvent]:
        """The screen as server-sent events (``frame``, ``waiting``), until the run stops."""
        response = await self._client.send("GET", _path("/v1/runs/{id}/live/frames", id=run_id), headers={"Accept": "text/event-stream"}, stream=True, timeout=_stream_timeout(self._client.timeout))
        decoder = SSEDecoder()
        try:
            async for line in response.aiter_lines():
                sse = decoder.decode(line)
                if sse is not None:
                    yield sse
        finally:
            await response.aclose()

    async def state(self, run_id: str) -> g.GetRunsIdLiveStateResponse:
        return await self._client.request("GET", _path("/v1/runs/{id}/live/state", id=run_id))

    async def take_control(self, run_id: str, **params: Any) -> g.PostRunsIdLiveControlResponse:
        return await self._client.request("POST", _path("/v1/runs/{id}/live/control", id=run_id), body=params)

    async def release_control(self, run_id: str, **params: Unpack[g.PostRunsIdLiveControlReleaseBody]) -> g.PostRunsIdLiveControlReleaseResponse:
        return await self._client.request("POST", _path("/v1/runs/{id}/live/control/release", id=run_id), body=params)

    async def input(self, run_id: str, **params: Unpack[g.PostRunsIdLiveInputBody]) -> None:
        await self._client.request("POST", _path("/v1/runs/{id}/live/input", id=run_id), body=params)

    async def save_login(self, run_id: str, **params: Unpack[g.PostRunsIdLiveLoginBody]) -> g.PostRunsIdLiveLoginResponse:
        """"Save this login": while in control, the browser's state saved now as the profile ``profile``."""
        return await self._client.request("POST", _path("/v1/runs/{id}/live/login", id=run_id), body=params)

    async def revoke(self, run_id: str, **params: Any) -> g.PostRunsIdLiveRevokeResponse:
        return await self._client.request("POST", _path("/v1/runs/{id}/live/revoke", id=run_id), body=params)


class AsyncEvents(_AsyncResource):
    def stream(self, *, last_event_id: int | str | None = None) -> AsyncGenerator[Event, None]:
        """The organisation's events from now on (or after ``last_event_id``), for as long as it is iterated."""
        return self._client.follow("/v1/events", last_event_id=last_event_id)


class AsyncArtifacts(_AsyncResource):
    async def get(self, artifact_id: str, **query: Unpack[g.GetArtifactsIdQuery]) -> bytes:
        """An evidence file (screenshot, recording, trace) by id; or pass ``download(url)`` a signed link."""
        return (await self._client.send("GET", _path("/v1/artifacts/{id}", id=artifact_id), query=query)).content

    async def download(self, url: str) -> bytes:
        """The bytes behind a signed link of an envelope (``evidence.screenshot_url``, ...)."""
        return (await self._client.send("GET", url)).content


class AsyncFiles(_AsyncResource):
    """Files runs work with (docs/api.md, Files): upload one, then name its id in ``runs.create(files=[...])``."""

    async def upload(
        self, file: bytes | IO[bytes] | AsyncIterable[bytes], *, name: str | None = None, content_type: str = "application/octet-stream"
    ) -> g.PostFilesResponse:
        """Uploads ``file``: bytes, a file object opened for binary reading (read a chunk at a time; its name is the
        default ``name``) or an iterable of byte chunks, sent as they come. Only bytes are tried again after a
        failure (a stream can be read once). With the default ``content_type`` the daemon guesses it by name."""
        name = name or _upload_name(file)
        if not name:
            raise ErrandError("files.upload needs name= for bytes or an iterable")
        content: bytes | AsyncIterable[bytes]
        if isinstance(file, (bytes, bytearray, memoryview)):
            content = bytes(file)
        elif hasattr(file, "read"):
            content = _read_chunks(file)  # type: ignore[arg-type]
        else:
            content = file  # type: ignore[assignment]
        response = await self._client.send("POST", "/v1/files", query={"name": name}, content=content, headers={"Content-Type": content_type})
        return _json_body(response)

    def list(self, **query: Unpack[g.GetFilesQuery]) -> AsyncPager[g.GetFilesIdResponse]:
        """The organisation's files, newest first."""
        return self._client.paginate("/v1/files", query)

    async def get(self, file_id: str) -> g.GetFilesIdResponse:
        return await self._client.request("GET", _path("/v1/files/{id}", id=file_id))

    async def content(self, file_id: str) -> bytes:
        """The file's bytes, read whole (``iter_content`` streams them)."""
        return (await self._client.send("GET", _path("/v1/files/{id}/content", id=file_id))).content

    async def iter_content(self, file_id: str) -> AsyncIterator[bytes]:
        """The file's bytes as they arrive, never held whole."""
        response = await self._client.send("GET", _path("/v1/files/{id}/content", id=file_id), stream=True)
        try:
            async for chunk in response.aiter_bytes():
                yield chunk
        finally:
            await response.aclose()

    async def delete(self, file_id: str) -> g.DeleteFilesIdResponse:
        """Deletes the file; refused (``ConflictError``, ``file_in_use``) while a queued or running run takes it."""
        return await self._client.request("DELETE", _path("/v1/files/{id}", id=file_id))


class AsyncConnections(_AsyncResource):
    def list(self, **query: Unpack[g.GetConnectionsQuery]) -> AsyncPager[g.GetConnectionsIdResponse]:
        return self._client.paginate("/v1/connections", query)

    async def create(self, **params: Unpack[g.PostConnectionsBody]) -> g.PostConnectionsResponse:
        return await self._client.request("POST", "/v1/connections", body=params)

    async def get(self, connection_id: str) -> g.GetConnectionsIdResponse:
        return await self._client.request("GET", _path("/v1/connections/{id}", id=connection_id))

    async def update(self, connection_id: str, **params: Unpack[g.PatchConnectionsIdBody]) -> g.PatchConnectionsIdResponse:
        return await self._client.request("PATCH", _path("/v1/connections/{id}", id=connection_id), body=params)

    async def delete(self, connection_id: str) -> g.DeleteConnectionsIdResponse:
        return await self._client.request("DELETE", _path("/v1/connections/{id}", id=connection_id))

    async def check(self, connection_id: str) -> g.PostConnectionsIdCheckResponse:
        return await self._client.request("POST", _path("/v1/connections/{id}/check", id=connection_id))

    async def tools(self, connection_id: str) -> g.GetConnectionsIdToolsResponse:
        return await self._client.request("GET", _path("/v1/connections/{id}/tools", id=connection_id))

    async def create_link(self, **params: Unpack[g.PostConnectionsLinksBody]) -> g.PostConnectionsLinksResponse:
        return await self._client.request("POST", "/v1/connections/links", body=params)

    async def get_link(self, link_id: str) -> g.GetConnectionsLinksIdResponse:
        return await self._client.request("GET", _path("/v1/connections/links/{id}", id=link_id))


class AsyncProfiles(_AsyncResource):
    """Saved logins (docs/api.md, Profiles): browser states runs start with, sealed by the daemon. A state goes in (an
    import, a run, a person on the live view) and never comes out: the API answers which sites it holds and its health."""

    def list(self, **query: Unpack[g.GetProfilesQuery]) -> AsyncPager[g.GetProfilesIdResponse]:
        return self._client.paginate("/v1/profiles", query)

    async def create(self, **params: Unpack[g.PostProfilesBody]) -> g.PostProfilesResponse:
        """An empty profile (a run with ``profile`` or ``save_profile``, or a person, fills it), or one with ``state``."""
        return await self._client.request("POST", "/v1/profiles", body=params)

    async def import_state(self, name: str, state: Mapping[str, Any] | os.PathLike[str], **params: Any) -> g.PostProfilesResponse:
        """A Playwright storage state (``context.storage_state()``, or the file it wrote) imported as the profile ``name``."""
        if isinstance(state, os.PathLike):
            with open(state, encoding="utf-8") as file:
                state = json.load(file)
        return await self._client.request("POST", "/v1/profiles", body={**params, "name": name, "state": state})

    async def get(self, profile_id: str) -> g.GetProfilesIdResponse:
        return await self._client.request("GET", _path("/v1/profiles/{id}", id=profile_id))

    async def update(self, profile_id: str, **params: Unpack[g.PatchProfilesIdBody]) -> g.PatchProfilesIdResponse:
        """Renames it, changes its check or expiry, or replaces its state."""
        return await self._client.request("PATCH", _path("/v1/profiles/{id}", id=profile_id), body=params)

    async def delete(self, profile_id: str) -> g.DeleteProfilesIdResponse:
        """Deletes it and every sealed copy of its state."""
        return await self._client.request("DELETE", _path("/v1/profiles/{id}", id=profile_id))

    async def check(self, profile_id: str) -> g.PostProfilesIdCheckResponse:
        """Checks now whether it is signed in (its check's page, in a sandbox of its own)."""
        return await self._client.request("POST", _path("/v1/profiles/{id}/check", id=profile_id))

    def runs(self, profile_id: str, **query: Unpack[g.GetProfilesIdRunsQuery]) -> AsyncPager[g.GetProfilesIdRunsResponseDataItem]:
        """The runs that used it, newest first, and whether each saved it."""
        return self._client.paginate(_path("/v1/profiles/{id}/runs", id=profile_id), query)


class AsyncEmailIdentity(_AsyncResource):
    async def get(self) -> g.GetEmailsIdentityResponse:
        return await self._client.request("GET", "/v1/emails/identity")

    async def set(self, **params: Unpack[g.PostEmailsIdentityBody]) -> g.PostEmailsIdentityResponse:
        return await self._client.request("POST", "/v1/emails/identity", body=params)

    async def verify_domain(self) -> g.PostEmailsIdentityDomainVerifyResponse:
        return await self._client.request("POST", "/v1/emails/identity/domain/verify")


class AsyncEmailSuppressions(_AsyncResource):
    def list(self, **query: Unpack[g.GetEmailsSuppressionsQuery]) -> AsyncPager[Any]:
        return self._client.paginate("/v1/emails/suppressions", query)

    async def delete(self, address: str) -> g.DeleteEmailsSuppressionsAddressResponse:
        return await self._client.request("DELETE", _path("/v1/emails/suppressions/{address}", address=address))


class AsyncReceivedEmails(_AsyncResource):
    def list(self, **query: Unpack[g.GetEmailsReceivedQuery]) -> AsyncPager[g.GetEmailsReceivedIdResponse]:
        return self._client.paginate("/v1/emails/received", query)

    async def get(self, email_id: str) -> g.GetEmailsReceivedIdResponse:
        return await self._client.request("GET", _path("/v1/emails/received/{id}", id=email_id))


class AsyncEmails(_AsyncResource):
    def __init__(self, client: AsyncErrand) -> None:
        super().__init__(client)
        self.identity = AsyncEmailIdentity(client)
        self.suppressions = AsyncEmailSuppressions(client)
        self.received = AsyncReceivedEmails(client)

    async def send(self, **params: Unpack[g.PostEmailsBody]) -> g.PostEmailsResponse:
        """Sends (or schedules) an email. Without a ``client_id`` the SDK makes one, so that a retry never sends
        twice."""
        body: dict[str, Any] = {"client_id": f"errand-py-{uuid.uuid4()}", **params}
        return await self._client.request("POST", "/v1/emails", body=body, idempotent=True)

    def list(self, **query: Unpack[g.GetEmailsQuery]) -> AsyncPager[g.GetEmailsIdResponse]:
        return self._client.paginate("/v1/emails", query)

    async def get(self, email_id: str) -> g.GetEmailsIdResponse:
        return await self._client.request("GET", _path("/v1/emails/{id}", id=email_id))

    async def raw(self, email_id: str) -> bytes:
        """The message as sent (RFC 5322)."""
        return (await self._client.send("GET", _path("/v1/emails/{id}/raw", id=email_id))).content

    async def simulate_reply(self, email_id: str, **params: Unpack[g.PostEmailsIdSimulateReplyBody]) -> g.PostEmailsIdSimulateReplyResponse:
        return await self._client.request("POST", _path("/v1/emails/{id}/simulate_reply", id=email_id), body=params)

    async def attachment(self, attachment_id: str, **query: Unpack[g.GetEmailsAttachmentsIdQuery]) -> bytes:
        return (await self._client.send("GET", _path("/v1/emails/attachments/{id}", id=attachment_id), query=query)).content


class AsyncInboxes(_AsyncResource):
    def list(self, **query: Unpack[g.GetInboxesQuery]) -> AsyncPager[g.GetInboxesIdResponse]:
        return self._client.paginate("/v1/inboxes", query)

    async def create(self, **params: Unpack[g.PostInboxesBody]) -> g.PostInboxesResponse:
        return await self._client.request("POST", "/v1/inboxes", body=params)

    async def get(self, inbox_id: str) -> g.GetInboxesIdResponse:
        return await self._client.request("GET", _path("/v1/inboxes/{id}", id=inbox_id))

    async def update(self, inbox_id: str, **params: Unpack[g.PatchInboxesIdBody]) -> g.PatchInboxesIdResponse:
        return await self._client.request("PATCH", _path("/v1/inboxes/{id}", id=inbox_id), body=params)

    async def delete(self, inbox_id: str) -> g.DeleteInboxesIdResponse:
        return await self._client.request("DELETE", _path("/v1/inboxes/{id}", id=inbox_id))

    async def send(self, inbox_id: str, **params: Unpack[g.PostInboxesIdMessagesBody]) -> g.PostInboxesIdMessagesResponse:
        """Sends from the inbox. Without a ``client_id`` the SDK makes one, so that a retry never sends twice."""
        body: dict[str, Any] = {"client_id": f"errand-py-{uuid.uuid4()}", **params}
        return await self._client.request("POST", _path("/v1/inboxes/{id}/messages", id=inbox_id), body=body, idempotent=True)


class AsyncStatus(_AsyncResource):
    async def get(self) -> g.GetStatusResponse:
        """``GET /v1/status``: the daemon's model provider, sandboxes, email, and the caller's spend today."""
        return await self._client.request("GET", "/v1/status")


__all__ = ["AsyncErrand", "AsyncPager"]
