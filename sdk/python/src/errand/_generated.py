"""Generated from the daemon's OpenAPI document by sdk/python/scripts/generate.py: do not edit.

Regenerate after changing a route schema (test S10 fails until then).
"""
# ruff: noqa
from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, Union


class GetHealthzResponse(TypedDict):
    ok: bool


class GetProjectsQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""


class GetProjectsResponseDataItem(TypedDict):
    id: str
    object: Literal["project"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    name: str
    description: str | None
    is_default: bool
    """True for the organisation's "API Runs" project, which cannot be deleted."""
    created_at: str
    updated_at: str


class GetProjectsResponse(TypedDict):
    object: Literal["list"]
    data: list[GetProjectsResponseDataItem]
    has_more: bool
    next_cursor: str | None


class PostProjectsBody(TypedDict):
    name: str
    description: NotRequired[str | None]


class DeleteProjectsIdResponse(TypedDict):
    id: str
    object: Literal["project"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    deleted: Literal[True]


class PatchProjectsIdBody(TypedDict):
    name: NotRequired[str]
    description: NotRequired[str | None]


class GetJobsQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""
    project_id: NotRequired[str]
    """Only jobs of this project."""


class GetJobsResponseDataItemSchedule(TypedDict):
    cron: str
    """Cron expression with 5 fields (minute resolution) or 6 fields (leading seconds field)."""
    timezone: str
    """IANA time zone the expression is read in."""
    inputs: NotRequired[dict[str, Any]]
    """Inputs every scheduled run of the job receives."""
    callback_url: NotRequired[str | None]
    """Webhook target for the scheduled runs."""
    enabled: bool
    """false pauses the schedule without deleting it."""
    paused_reason: str | None
    """Why the daemon paused the schedule (a change of the job left its inputs invalid); null otherwise."""


class GetJobsResponseDataItem(TypedDict):
    id: str
    object: Literal["job"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    project_id: str
    name: str
    description: str | None
    prompt: str
    model: Literal["haiku", "sonnet", "opus"]
    """One of haiku, sonnet, opus; default sonnet."""
    input_schema: dict[str, Any] | None
    output_schema: dict[str, Any] | None
    connections: list[str]
    timeout_s: int | None
    max_cost_usd: float | None
    """The most each of its runs may cost in USD, unless a run gives its own; null: the API key's default, if any."""
    human_timeout_s: int | None
    human_email: str | None
    require_approval: bool
    schedule: GetJobsResponseDataItemSchedule | None
    recording: bool
    """Whether its runs record the browser unless a run says otherwise."""
    proxy: str | None
    """The proxy connection its runs leave through unless they name their own."""
    replay: Literal["auto", "off"]
    """Whether its runs replay its recipe ('auto') or run the agent every step ('off', the default)."""
    sandbox_label: str | None
    """The sandbox host label its runs ask for unless they name their own; null: any host."""
    profile: str | None
    """The profile (saved login) its runs start with unless they name their own; null: none."""
    profile_mode: Literal["read", "read_write"]
    """Whether its runs write their profile back when they succeed (read_write, the default) or only load it (read), unless a run says otherwise."""
    save_profile: str | None
    """The profile its runs save their browser's state to when they succeed, unless they name their own; null: none."""
    action_space: Literal["dom", "computer"]
    """How its runs' agent works a page unless a run names its own: dom (the browser tool) or computer (the model's own computer-use tool)."""
    created_at: str
    updated_at: str


class GetJobsResponse(TypedDict):
    object: Literal["list"]
    data: list[GetJobsResponseDataItem]
    has_more: bool
    next_cursor: str | None


class PostJobsBodySchedule(TypedDict):
    cron: str
    """Cron expression with 5 fields (minute resolution) or 6 fields (leading seconds field)."""
    timezone: NotRequired[str]
    """IANA time zone the expression is read in."""
    inputs: NotRequired[dict[str, Any]]
    """Inputs every scheduled run of the job receives."""
    callback_url: NotRequired[str | None]
    """Webhook target for the scheduled runs."""
    enabled: NotRequired[bool]
    """false pauses the schedule without deleting it."""
    paused_reason: NotRequired[str | None]
    """Read only: why the daemon paused the schedule. Accepted in requests (so a schedule read can be sent back) and ignored."""


class PostJobsBody(TypedDict):
    project_id: str
    name: str
    description: NotRequired[str | None]
    prompt: str
    model: NotRequired[Literal["haiku", "sonnet", "opus"]]
    """One of haiku, sonnet, opus; default sonnet."""
    input_schema: NotRequired[dict[str, Any] | None]
    output_schema: NotRequired[dict[str, Any] | None]
    connections: NotRequired[list[str] | None]
    timeout_s: NotRequired[int | None]
    max_cost_usd: NotRequired[float | None]
    human_timeout_s: NotRequired[int | None]
    human_email: NotRequired[str | None]
    require_approval: NotRequired[bool]
    """A form is submitted only after a person approved it: the agent must ask with request_human, kind approve."""
    schedule: NotRequired[PostJobsBodySchedule | None]
    recording: NotRequired[bool]
    """false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run."""
    proxy: NotRequired[str | None]
    replay: NotRequired[Literal["auto", "off"]]
    """auto: a run replays the job's recipe (recorded from an earlier run that succeeded) without the model, and the agent takes over where the page changed; off: the agent runs every step. A job's default is off (docs/api.md, Replay)."""
    sandbox_label: NotRequired[str | None]
    profile: NotRequired[str | None]
    profile_mode: NotRequired[Literal["read", "read_write"]]
    """read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it."""
    save_profile: NotRequired[str | None]
    action_space: NotRequired[Literal["dom", "computer"]]
    """dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's."""


class DeleteJobsIdResponse(TypedDict):
    id: str
    object: Literal["job"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    deleted: Literal[True]


class PatchJobsIdBody(TypedDict):
    name: NotRequired[str]
    description: NotRequired[str | None]
    prompt: NotRequired[str]
    model: NotRequired[Literal["haiku", "sonnet", "opus"]]
    """One of haiku, sonnet, opus; default sonnet."""
    input_schema: NotRequired[dict[str, Any] | None]
    output_schema: NotRequired[dict[str, Any] | None]
    connections: NotRequired[list[str] | None]
    timeout_s: NotRequired[int | None]
    max_cost_usd: NotRequired[float | None]
    human_timeout_s: NotRequired[int | None]
    human_email: NotRequired[str | None]
    require_approval: NotRequired[bool]
    """A form is submitted only after a person approved it: the agent must ask with request_human, kind approve."""
    schedule: NotRequired[PostJobsBodySchedule | None]
    recording: NotRequired[bool]
    """false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run."""
    proxy: NotRequired[str | None]
    replay: NotRequired[Literal["auto", "off"]]
    """auto: a run replays the job's recipe (recorded from an earlier run that succeeded) without the model, and the agent takes over where the page changed; off: the agent runs every step. A job's default is off (docs/api.md, Replay)."""
    sandbox_label: NotRequired[str | None]
    profile: NotRequired[str | None]
    profile_mode: NotRequired[Literal["read", "read_write"]]
    """read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it."""
    save_profile: NotRequired[str | None]
    action_space: NotRequired[Literal["dom", "computer"]]
    """dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's."""


class GetJobsIdSkippedFiringsQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[int]
    """The next_cursor of the previous page (an event_id)."""


class GetJobsIdSkippedFiringsResponseDataItem(TypedDict):
    object: Literal["skipped_firing"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    event_id: int
    """Its id in the event log (schedule.skipped); the cursor of the list."""
    job_id: str
    slot: str
    """When the firing was scheduled for."""
    code: str
    """What refused the run, as the API would have answered: missing_input, daily_cap_reached, ..."""
    message: str
    param: str | None
    created_at: str


class GetJobsIdSkippedFiringsResponse(TypedDict):
    object: Literal["list"]
    data: list[GetJobsIdSkippedFiringsResponseDataItem]
    has_more: bool
    next_cursor: str | None


class GetJobsIdRecipeResponseStepsItemLocatorsItem(TypedDict):
    """role: a Playwright role selector (role and accessible name); text: the visible text; css: the CSS or Playwright selector the agent used."""
    kind: Literal["role", "text", "css"]
    selector: NotRequired[str]
    text: NotRequired[str]


class GetJobsIdRecipeResponseStepsItemFilesItem(TypedDict):
    index: int
    content_type: str


class GetJobsIdRecipeResponseStepsItemPage(TypedDict):
    """The page the step expects: its URL pattern (`*` for an id-like path segment, query parameters by name), its title when the page is the same for every input, and text that must be on it."""
    url: str
    title: str | None
    key_text: list[str]


class GetJobsIdRecipeResponseStepsItem(TypedDict):
    """A browser action (navigate, back, forward, reload, click, hover, type, select, press, drag, scroll, wait, upload, dialog, tab) with its locators and page fingerprint, or a code step. Strings hold {{input}} and {{secret:name}} placeholders, never values."""
    tool: Literal["browser", "code"]
    action: NotRequired[str]
    url: NotRequired[str]
    text: NotRequired[str]
    """type: what is typed; scroll: the text scrolled to; wait: the text waited for; dialog: a prompt's answer."""
    submit: NotRequired[bool]
    key: NotRequired[str]
    """press: a key or a chord such as Control+A."""
    direction: NotRequired[Literal["up", "down", "left", "right"]]
    amount: NotRequired[int]
    locators: NotRequired[list[GetJobsIdRecipeResponseStepsItemLocatorsItem]]
    """The element acted on (drag: the one dragged; scroll: the area scrolled)."""
    to_locators: NotRequired[list[GetJobsIdRecipeResponseStepsItemLocatorsItem]]
    """drag: where it was dropped."""
    values: NotRequired[list[str]]
    """select: the options, by label or value."""
    button: NotRequired[Literal["right", "middle"]]
    """click: a button other than the left one."""
    double: NotRequired[bool]
    """click: a double click."""
    modifiers: NotRequired[list[Literal["Alt", "Control", "Meta", "Shift"]]]
    """click: keys held."""
    gone: NotRequired[bool]
    """wait: until the text is gone."""
    seconds: NotRequired[float]
    """wait: at most this long (or this long, without a text)."""
    accept: NotRequired[bool]
    """dialog: accepted (true) or dismissed."""
    index: NotRequired[int]
    """tab: which tab, as results list them."""
    close: NotRequired[bool]
    """tab: closed rather than switched to."""
    files: NotRequired[list[GetJobsIdRecipeResponseStepsItemFilesItem]]
    """upload: the run's input files it sets, by their place in the run's `files` (0-based) and the content type the recorded run uploaded there; never a file's name or bytes."""
    page: NotRequired[GetJobsIdRecipeResponseStepsItemPage | None]
    """The page the step expects: its URL pattern (`*` for an id-like path segment, query parameters by name), its title when the page is the same for every input, and text that must be on it."""
    language: NotRequired[Literal["bash", "python", "node"]]
    code: NotRequired[str]


GetJobsIdRecipeResponseExtractionValue = TypedDict("GetJobsIdRecipeResponseExtractionValue", {
    "from": Literal["page_text", "code_output"],
    "type": Literal["string", "number", "boolean"],
    "prefix": NotRequired[str],
    "suffix": NotRequired[str],
    "before": NotRequired[str | None],
    "step": NotRequired[int],
    "key": NotRequired[str],
})


class GetJobsIdRecipeResponse(TypedDict):
    object: Literal["recipe"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    job_id: str
    version: int
    """Counts up from 1 with every run that recorded the recipe anew."""
    source_run_id: str
    """The run it was recorded from."""
    created_at: str
    format: Literal[1]
    steps: list[GetJobsIdRecipeResponseStepsItem]
    extraction: dict[str, GetJobsIdRecipeResponseExtractionValue]
    """How each member of the result is read, by member name."""


class DeleteJobsIdRecipeResponse(TypedDict):
    job_id: str
    object: Literal["recipe"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    deleted: Literal[True]
    versions: int
    """How many versions were removed."""


class GetJobsIdEvalCasesQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""


class GetJobsIdEvalCasesResponseDataItemExpectRange(TypedDict):
    """The bounds, `{min, max}`."""
    min: NotRequired[float]
    max: NotRequired[float]


class GetJobsIdEvalCasesResponseDataItemExpectMembersValue(TypedDict):
    """Exactly one of equals, contains, pattern, range, schema (docs/api.md, Evaluations)."""
    equals: NotRequired[Any]
    """The JSON value a good result has."""
    contains: NotRequired[Any]
    """Text a string must contain, or an item an array must have."""
    pattern: NotRequired[str]
    """A regular expression, as JSON Schema `pattern` reads it."""
    range: NotRequired[GetJobsIdEvalCasesResponseDataItemExpectRange]
    """The bounds, `{min, max}`."""
    schema: NotRequired[dict[str, Any]]
    """A JSON Schema."""


class GetJobsIdEvalCasesResponseDataItemExpect(TypedDict):
    """Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations)."""
    equals: NotRequired[Any]
    """The JSON value a good result has."""
    contains: NotRequired[Any]
    """Text a string must contain, or an item an array must have."""
    pattern: NotRequired[str]
    """A regular expression, as JSON Schema `pattern` reads it."""
    range: NotRequired[GetJobsIdEvalCasesResponseDataItemExpectRange]
    """The bounds, `{min, max}`."""
    schema: NotRequired[dict[str, Any]]
    """A JSON Schema."""
    members: NotRequired[dict[str, GetJobsIdEvalCasesResponseDataItemExpectMembersValue]]
    """A value matcher per member of the result, by name or dotted path."""
    failure_reason: NotRequired[Literal["captcha", "auth_required", "site_down", "timeout", "ambiguous", "not_found"]]
    """The failure_reason a good run ends with."""


class GetJobsIdEvalCasesResponseDataItem(TypedDict):
    id: str
    object: Literal["eval_case"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    job_id: str
    name: str | None
    inputs: dict[str, Any]
    expect: GetJobsIdEvalCasesResponseDataItemExpect
    """Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations)."""
    created_at: str


class GetJobsIdEvalCasesResponse(TypedDict):
    object: Literal["list"]
    data: list[GetJobsIdEvalCasesResponseDataItem]
    has_more: bool
    next_cursor: str | None


class PostJobsIdEvalCasesBody(TypedDict):
    name: NotRequired[str]
    """What the case is called in results and comparisons; without one, a case is known by its inputs."""
    inputs: NotRequired[dict[str, Any]]
    """The run's inputs (the job's {{placeholders}})."""
    expect: GetJobsIdEvalCasesResponseDataItemExpect
    """Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations)."""


class DeleteEvalCasesIdResponse(TypedDict):
    id: str
    object: Literal["eval_case"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    deleted: Literal[True]


class GetJobsIdEvalsQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""


class GetJobsIdEvalsResponseDataItemTotals(TypedDict):
    cases: int
    passed: int
    failed: int
    errors: int
    skipped: int
    pending: int
    running: int
    pass_rate: float
    """passed / cases, from 0 to 1 (4 decimals)."""
    duration_ms: int
    """The cases' runs' durations, added up."""
    input_tokens: int
    output_tokens: int
    cost_usd: float


class GetJobsIdEvalsResponseDataItem(TypedDict):
    id: str
    object: Literal["eval"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    job_id: str
    status: Literal["queued", "running", "completed", "cancelled"]
    replay: Literal["auto", "off"]
    model: Literal["haiku", "sonnet", "opus"]
    """One of haiku, sonnet, opus; default sonnet."""
    prompt: str | None
    """The prompt its runs use instead of the job's; null: the job's."""
    settings: dict[str, Any]
    baseline_id: str | None
    max_parallel: int
    totals: GetJobsIdEvalsResponseDataItemTotals
    created_at: str
    started_at: str | None
    finished_at: str | None


class GetJobsIdEvalsResponse(TypedDict):
    object: Literal["list"]
    data: list[GetJobsIdEvalsResponseDataItem]
    has_more: bool
    next_cursor: str | None


class PostJobsIdEvalsBodySettings(TypedDict):
    """Run options every case's run takes instead of the job's (those of POST /v1/jobs/{id}/runs but inputs and idempotency_key)."""
    output_schema: NotRequired[dict[str, Any]]
    """JSON Schema the result must satisfy."""
    name: NotRequired[str]
    callback_url: NotRequired[str]
    """https target of the signed completion webhook."""
    connections: NotRequired[list[str]]
    """Names of connections the run needs; a missing, disabled or unauthenticated one fails the run with auth_required."""
    files: NotRequired[list[str]]
    """Ids of uploaded files (POST /v1/files) placed read-only in the run's /workspace/in/ under their names, at most 20, no two of one name."""
    timeout_s: NotRequired[int]
    """Longest the run may execute, in seconds."""
    max_cost_usd: NotRequired[float]
    """The most the run may cost, in USD (usage.cost_usd): the engine never starts a model call whose worst case would pass it, and the run fails with failure_code budget_exceeded. A run's wins over its job's, a job's over its API key's default. Less than the run's first model call could cost is 400 max_cost_too_low."""
    recording: NotRequired[bool]
    """false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run."""
    human_timeout_s: NotRequired[int]
    """Longest the agent waits for a person it asked (request_human); then the run fails. Default: human.timeout_s."""
    human_email: NotRequired[str]
    """Who is emailed when the agent asks for a person (needs email configured); a reply answers."""
    require_approval: NotRequired[bool]
    """A form is submitted only after a person approved it: the agent must ask with request_human, kind approve."""
    proxy: NotRequired[str]
    """Name of a proxy connection the run's browser and code leave through (a run's wins over its job's; default: the operator's sandbox.egress_proxy, if set). A missing, disabled or non-proxy one fails the run with auth_required."""
    sandbox_label: NotRequired[str]
    """A label of the sandbox hosts (sandbox.hosts) the run must run on (a run's wins over its job's); a label no host has is 400 unknown_sandbox_label. Default: any host."""
    profile: NotRequired[str]
    """A profile (saved login) the run's browser starts with: its cookies and each site's storage (docs/api.md, Profiles). A run's wins over its job's. With profile_mode read, a profile that does not exist fails the run with auth_required; with read_write the run starts signed out and saves it when it succeeds."""
    profile_mode: NotRequired[Literal["read", "read_write"]]
    """read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it."""
    save_profile: NotRequired[str]
    """When the run succeeds, its browser's state is saved as this profile (made if it does not exist, replaced if it does). A run's wins over its job's."""
    action_space: NotRequired[Literal["dom", "computer"]]
    """dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's."""


class PostJobsIdEvalsBody(TypedDict):
    cases: NotRequired[list[PostJobsIdEvalCasesBody]]
    """The cases to run (a CI's JSONL file); without them, the job's kept cases (GET /v1/jobs/{id}/eval_cases)."""
    replay: NotRequired[Literal["auto", "off"]]
    """auto: the runs replay the job's recipe; off: the agent runs every step. Default: the job's replay, and off with `prompt`."""
    model: NotRequired[Literal["haiku", "sonnet", "opus"]]
    """The model the runs use instead of the job's."""
    prompt: NotRequired[str]
    """A prompt the runs use instead of the job's (its {{placeholders}} filled from each case's inputs)."""
    settings: NotRequired[PostJobsIdEvalsBodySettings]
    """Run options every case's run takes instead of the job's (those of POST /v1/jobs/{id}/runs but inputs and idempotency_key)."""
    baseline_id: NotRequired[str]
    """Another eval of the same job to compare with: what got better or worse."""
    max_parallel: NotRequired[int]
    """Most of the eval's runs queued or running at once; at most evals.max_parallel (its default), which bounds all of an organisation's evals together."""
    idempotency_key: NotRequired[str]
    """A repeat within 24 h answers the first eval (202) instead of starting another."""


class PostJobsIdEvalsResponseCasesItemDifferencesItem(TypedDict):
    path: str
    """`run` (how the run ended), `result`, or a member of it (`result.price`)."""
    expected: str
    """What a good run has there, in words."""
    got: str
    """What this run has there: JSON, shortened past 200 characters, or `(missing)`."""


class PostJobsIdEvalsResponseCasesItemUsage(TypedDict):
    duration_ms: int | None
    input_tokens: int
    output_tokens: int
    cost_usd: float


class PostJobsIdEvalsResponseCasesItem(TypedDict):
    position: int
    """The case's place in the eval, from 0."""
    label: str
    """Its name, or its inputs as JSON when it has none."""
    name: str | None
    case_id: str | None
    """The kept case it was copied from, or null for an inline case."""
    inputs: dict[str, Any]
    expect: GetJobsIdEvalCasesResponseDataItemExpect
    """Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations)."""
    status: Literal["pending", "running", "passed", "failed", "error", "skipped"]
    """pending (no run yet), running, passed, failed (the run differs: `differences`), error (no run could be made: `error`), skipped (the eval was cancelled first)."""
    differences: list[PostJobsIdEvalsResponseCasesItemDifferencesItem]
    """Where the run differs from a good one; empty unless `failed`."""
    error: str | None
    """Why no run was made for the case (the refusal, with its code)."""
    run_id: str | None
    run_status: Literal["queued", "running", "succeeded", "failed", "cancelled"] | None
    result: dict[str, Any] | None
    failure_reason: Literal["captcha", "auth_required", "site_down", "timeout", "ambiguous", "not_found"] | None
    failure_detail: str | None
    mode: Literal["agent", "replay", "replay_then_agent"] | None
    """How the run ran (the envelope's mode), once it ended."""
    usage: PostJobsIdEvalsResponseCasesItemUsage
    started_at: str | None
    ended_at: str | None


class PostJobsIdEvalsResponseComparisonCasesItem(TypedDict):
    label: str
    baseline_status: Literal["pending", "running", "passed", "failed", "error", "skipped"] | None
    """Null when the baseline had no such case."""
    status: Literal["pending", "running", "passed", "failed", "error", "skipped"]
    change: Literal["newly_passing", "newly_failing", "unchanged", "added"]
    cost_usd_change: float | None
    duration_ms_change: int | None


class PostJobsIdEvalsResponseComparison(TypedDict):
    """Beside the baseline eval: what got better or worse. Cases are the same case when they have the same name, or, without names, the same inputs. Null without a baseline, or once retention purged it."""
    baseline_id: str
    pass_rate_change: float
    cost_usd_change: float
    duration_ms_change: int
    newly_passing: list[str]
    """Labels of cases that pass now and did not."""
    newly_failing: list[str]
    """Labels of cases that passed and do not now."""
    unchanged: int
    """Cases that pass, or do not, in both."""
    removed: list[str]
    """Labels of the baseline's cases this eval does not have."""
    cases: list[PostJobsIdEvalsResponseComparisonCasesItem]


class PostJobsIdEvalsResponse(TypedDict):
    id: str
    object: Literal["eval"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    job_id: str
    status: Literal["queued", "running", "completed", "cancelled"]
    replay: Literal["auto", "off"]
    model: Literal["haiku", "sonnet", "opus"]
    """One of haiku, sonnet, opus; default sonnet."""
    prompt: str | None
    """The prompt its runs use instead of the job's; null: the job's."""
    settings: dict[str, Any]
    baseline_id: str | None
    max_parallel: int
    totals: GetJobsIdEvalsResponseDataItemTotals
    created_at: str
    started_at: str | None
    finished_at: str | None
    cases: list[PostJobsIdEvalsResponseCasesItem]
    comparison: PostJobsIdEvalsResponseComparison | None
    """Beside the baseline eval: what got better or worse. Cases are the same case when they have the same name, or, without names, the same inputs. Null without a baseline, or once retention purged it."""
    report_url: str
    """Signed link to the eval's report, an HTML page (valid 7 days from when the eval was read; no API key)."""


class GetEvalsIdReportQuery(TypedDict):
    expires: NotRequired[int]
    """Unix time (seconds) after which the link answers 410."""
    sig: NotRequired[str]
    """HMAC signature of the id and expiry."""


class GetRunsQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""
    job_id: NotRequired[str]
    """Only runs of this job."""


class GetRunsResponseDataItemEvidence(TypedDict):
    screenshot_url: str | None
    matched_text: str | None
    checked_at: str
    recording_url: str | None
    """Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings)."""
    trace_url: str | None
    """Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded."""


class GetRunsResponseDataItemProgress(TypedDict):
    steps: int
    last_action: str | None


class GetRunsResponseDataItemWaitingFor(TypedDict):
    """What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing."""
    waitpoint_id: str
    """The wait (`wp_` prefix)."""
    on: Literal["person", "takeover", "email"]
    timer: Literal["runs", "stopped"]
    """Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s)."""
    since: str
    expires_at: str | None
    """When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer."""
    request_id: str | None
    """A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only."""
    kind: Literal["takeover", "answer", "approve"] | None
    """A person's wait: what the agent asked for."""
    question: str | None
    asked_at: str | None
    asked_again_of: str | None
    """A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered."""
    by: str | None
    """A takeover: who holds the browser (`live link`, or an API key)."""
    live_url: str | None
    """The run's live view, where a person can see the browser and take over; null when none can be offered."""


class GetRunsResponseDataItemFilesItem(TypedDict):
    name: str
    """The sanitised, unique name it is served and saved under (docs/api.md, Run files)."""
    size: int
    """Bytes."""
    sha256: str
    """SHA-256 of its bytes, lower-case hex."""
    content_type: str
    """By its name's extension; application/octet-stream when unknown."""
    url: str
    """Signed download link, usable without an API key until expires_at; served as an attachment."""
    expires_at: str
    """When url stops working: 7 days from when it was made, or when retention removes the file if sooner."""


class GetRunsResponseDataItemSandbox(TypedDict):
    """Where the run runs (issue 26; docs/api.md, Sandbox hosts)."""
    label: str | None
    """The sandbox host label the run asked for (its own, else its job's); null: any host."""
    host: str | None
    """The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts."""


class GetRunsResponseDataItem(TypedDict):
    task_id: str
    object: Literal["run"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    status: Literal["queued", "running", "succeeded", "failed", "cancelled"]
    result: dict[str, Any] | None
    confidence: Literal["high", "medium", "low"] | None
    evidence: GetRunsResponseDataItemEvidence | None
    failure_reason: Literal["captcha", "auth_required", "site_down", "timeout", "ambiguous", "not_found"] | None
    failure_code: Literal["budget_exceeded"] | None
    """A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason."""
    failure_detail: str | None
    warnings: list[str]
    usage: PostJobsIdEvalsResponseCasesItemUsage
    max_cost_usd: float | None
    """The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own."""
    created_at: str
    started_at: str | None
    finished_at: str | None
    job_id: str | None
    project_id: str
    name: str | None
    model: Literal["haiku", "sonnet", "opus"]
    """One of haiku, sonnet, opus; default sonnet."""
    attempt: int
    progress: GetRunsResponseDataItemProgress
    waiting_for: GetRunsResponseDataItemWaitingFor | None
    """What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing."""
    live_url: str | None
    """While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise."""
    files: list[GetRunsResponseDataItemFilesItem]
    """The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none."""
    mode: Literal["agent", "replay", "replay_then_agent"]
    """How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay)."""
    sandbox: GetRunsResponseDataItemSandbox
    """Where the run runs (issue 26; docs/api.md, Sandbox hosts)."""
    action_space: Literal["dom", "computer"]
    """How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces."""


class GetRunsResponse(TypedDict):
    object: Literal["list"]
    data: list[GetRunsResponseDataItem]
    has_more: bool
    next_cursor: str | None


class PostRunsBody(TypedDict):
    prompt: str
    model: NotRequired[Literal["haiku", "sonnet", "opus"]]
    """One of haiku, sonnet, opus; default sonnet."""
    project_id: NotRequired[str]
    inputs: NotRequired[dict[str, Any]]
    """Values for the prompt's {{placeholders}}."""
    output_schema: NotRequired[dict[str, Any]]
    """JSON Schema the result must satisfy."""
    name: NotRequired[str]
    callback_url: NotRequired[str]
    """https target of the signed completion webhook."""
    idempotency_key: NotRequired[str]
    """A replay within 24 h returns the original run."""
    connections: NotRequired[list[str]]
    """Names of connections the run needs; a missing, disabled or unauthenticated one fails the run with auth_required."""
    files: NotRequired[list[str]]
    """Ids of uploaded files (POST /v1/files) placed read-only in the run's /workspace/in/ under their names, at most 20, no two of one name."""
    timeout_s: NotRequired[int]
    """Longest the run may execute, in seconds."""
    max_cost_usd: NotRequired[float]
    """The most the run may cost, in USD (usage.cost_usd): the engine never starts a model call whose worst case would pass it, and the run fails with failure_code budget_exceeded. A run's wins over its job's, a job's over its API key's default. Less than the run's first model call could cost is 400 max_cost_too_low."""
    recording: NotRequired[bool]
    """false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run."""
    human_timeout_s: NotRequired[int]
    """Longest the agent waits for a person it asked (request_human); then the run fails. Default: human.timeout_s."""
    human_email: NotRequired[str]
    """Who is emailed when the agent asks for a person (needs email configured); a reply answers."""
    require_approval: NotRequired[bool]
    """A form is submitted only after a person approved it: the agent must ask with request_human, kind approve."""
    proxy: NotRequired[str]
    """Name of a proxy connection the run's browser and code leave through (a run's wins over its job's; default: the operator's sandbox.egress_proxy, if set). A missing, disabled or non-proxy one fails the run with auth_required."""
    sandbox_label: NotRequired[str]
    """A label of the sandbox hosts (sandbox.hosts) the run must run on (a run's wins over its job's); a label no host has is 400 unknown_sandbox_label. Default: any host."""
    profile: NotRequired[str]
    """A profile (saved login) the run's browser starts with: its cookies and each site's storage (docs/api.md, Profiles). A run's wins over its job's. With profile_mode read, a profile that does not exist fails the run with auth_required; with read_write the run starts signed out and saves it when it succeeds."""
    profile_mode: NotRequired[Literal["read", "read_write"]]
    """read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it."""
    save_profile: NotRequired[str]
    """When the run succeeds, its browser's state is saved as this profile (made if it does not exist, replaced if it does). A run's wins over its job's."""
    action_space: NotRequired[Literal["dom", "computer"]]
    """dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's."""


class PostRunsResponseBillingEstimatedCostUsd(TypedDict):
    low: float
    high: float


class PostRunsResponseBillingEstimatedCredits(TypedDict):
    low: int
    high: int


class PostRunsResponseBilling(TypedDict):
    model: Literal["haiku", "sonnet", "opus"]
    """One of haiku, sonnet, opus; default sonnet."""
    credit_usd_rate: float
    estimated_cost_usd: PostRunsResponseBillingEstimatedCostUsd
    estimated_credits: PostRunsResponseBillingEstimatedCredits
    monthly_cap_usd: float | None
    note: str


class PostRunsResponseWarningsItem(TypedDict):
    code: Literal["no_model_provider", "connection_unusable", "estimate_exceeds_cap"]
    message: str
    param: str | None


class PostRunsResponse(TypedDict):
    task_id: str
    status: Literal["queued", "running", "succeeded", "failed", "cancelled"]
    poll_url: str
    billing: PostRunsResponseBilling
    warnings: list[PostRunsResponseWarningsItem]
    """What the caller should know about a run it may start: a reason it will fail at once as things stand, or an estimate above what is left under a cap."""
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""


class PostRunsCheckResponse(TypedDict):
    object: Literal["run_check"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    replay_of: str | None
    """The run its idempotency_key would answer again, or null when a new run would be created."""
    billing: PostRunsResponseBilling
    warnings: list[PostRunsResponseWarningsItem]
    """What the caller should know about a run it may start: a reason it will fail at once as things stand, or an estimate above what is left under a cap."""


class PostJobsIdRunsBody(TypedDict):
    inputs: NotRequired[dict[str, Any]]
    """Values for the prompt's {{placeholders}}."""
    output_schema: NotRequired[dict[str, Any]]
    """JSON Schema the result must satisfy."""
    name: NotRequired[str]
    callback_url: NotRequired[str]
    """https target of the signed completion webhook."""
    idempotency_key: NotRequired[str]
    """A replay within 24 h returns the original run."""
    connections: NotRequired[list[str]]
    """Names of connections the run needs; a missing, disabled or unauthenticated one fails the run with auth_required."""
    files: NotRequired[list[str]]
    """Ids of uploaded files (POST /v1/files) placed read-only in the run's /workspace/in/ under their names, at most 20, no two of one name."""
    timeout_s: NotRequired[int]
    """Longest the run may execute, in seconds."""
    max_cost_usd: NotRequired[float]
    """The most the run may cost, in USD (usage.cost_usd): the engine never starts a model call whose worst case would pass it, and the run fails with failure_code budget_exceeded. A run's wins over its job's, a job's over its API key's default. Less than the run's first model call could cost is 400 max_cost_too_low."""
    recording: NotRequired[bool]
    """false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run."""
    human_timeout_s: NotRequired[int]
    """Longest the agent waits for a person it asked (request_human); then the run fails. Default: human.timeout_s."""
    human_email: NotRequired[str]
    """Who is emailed when the agent asks for a person (needs email configured); a reply answers."""
    require_approval: NotRequired[bool]
    """A form is submitted only after a person approved it: the agent must ask with request_human, kind approve."""
    proxy: NotRequired[str]
    """Name of a proxy connection the run's browser and code leave through (a run's wins over its job's; default: the operator's sandbox.egress_proxy, if set). A missing, disabled or non-proxy one fails the run with auth_required."""
    sandbox_label: NotRequired[str]
    """A label of the sandbox hosts (sandbox.hosts) the run must run on (a run's wins over its job's); a label no host has is 400 unknown_sandbox_label. Default: any host."""
    profile: NotRequired[str]
    """A profile (saved login) the run's browser starts with: its cookies and each site's storage (docs/api.md, Profiles). A run's wins over its job's. With profile_mode read, a profile that does not exist fails the run with auth_required; with read_write the run starts signed out and saves it when it succeeds."""
    profile_mode: NotRequired[Literal["read", "read_write"]]
    """read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it."""
    save_profile: NotRequired[str]
    """When the run succeeds, its browser's state is saved as this profile (made if it does not exist, replaced if it does). A run's wins over its job's."""
    action_space: NotRequired[Literal["dom", "computer"]]
    """dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's."""
    replay: NotRequired[Literal["auto", "off"]]
    """auto: replay the job's recipe (the agent takes over where the page changed); off: the agent runs every step. Default: the job's replay."""


class PostRunsIdHumanBody(TypedDict):
    request_id: str
    """The question answered: the run's waiting_for.request_id as it was shown. An answer to another question than the one the run waits for is refused (409 request_mismatch), never applied to it."""
    answer: NotRequired[str]
    """kind answer: the reply the agent gets."""
    approved: NotRequired[bool]
    """kind approve: true lets the agent go ahead, false tells it not to."""
    note: NotRequired[str]
    """What the person did or wants the agent to know (for a takeover: what was done in the browser)."""


class GetRunsIdLiveStateResponseControl(TypedDict):
    held: bool
    since: str | None
    by: str | None


class GetRunsIdLiveStateResponse(TypedDict):
    object: Literal["live_state"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    run: GetRunsResponseDataItem
    thought: str | None
    """The text of the agent's latest model answer, or null."""
    control: GetRunsIdLiveStateResponseControl
    viewers: int
    """Frame streams open on this run now."""
    profiles: list[str]
    """The profiles "save this login" offers: the run's profile and save_profile. Another name makes a new profile."""


class PostRunsIdLiveControlResponse(TypedDict):
    object: Literal["live_control"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    run_id: str
    control_id: str
    since: str


class PostRunsIdLiveControlReleaseBody(TypedDict):
    control_id: str
    """What POST /v1/runs/{id}/live/control answered."""
    note: NotRequired[str | None]
    """What the person did; told to the agent and kept in the step."""


class PostRunsIdLiveControlReleaseResponse(TypedDict):
    object: Literal["live_control_ended"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    run_id: str
    started_at: str
    ended_at: str
    duration_ms: int
    answered_request_id: str | None
    """The takeover the agent asked for (request_human) that this hand-back answered, with its note; null when the run waited for none."""


class PostRunsIdLiveInputBodyInput1(TypedDict):
    type: Literal["mouse"]
    event: Literal["mousePressed", "mouseReleased", "mouseMoved"]
    x: float
    """x in the page's CSS pixels (LiveFrame width and height)."""
    y: float
    """y in the page's CSS pixels (LiveFrame width and height)."""
    button: Literal["none", "left", "middle", "right"]
    clickCount: int
    modifiers: NotRequired[int]
    """CDP modifier bits: Alt 1, Ctrl 2, Meta 4, Shift 8; none when left out."""


class PostRunsIdLiveInputBodyInput2(TypedDict):
    type: Literal["wheel"]
    x: float
    """x in the page's CSS pixels (LiveFrame width and height)."""
    y: float
    """y in the page's CSS pixels (LiveFrame width and height)."""
    deltaX: float
    deltaY: float
    modifiers: NotRequired[int]
    """CDP modifier bits: Alt 1, Ctrl 2, Meta 4, Shift 8; none when left out."""


class PostRunsIdLiveInputBodyInput3(TypedDict):
    type: Literal["key"]
    event: Literal["keyDown", "keyUp"]
    key: str
    """KeyboardEvent.key"""
    code: str
    """KeyboardEvent.code"""
    keyCode: int
    """The Windows virtual key code (KeyboardEvent.keyCode)."""
    text: str
    """What the key types ("" for keys that type nothing, "\\r" for Enter)."""
    modifiers: NotRequired[int]
    """CDP modifier bits: Alt 1, Ctrl 2, Meta 4, Shift 8; none when left out."""


class PostRunsIdLiveInputBodyInput4(TypedDict):
    type: Literal["text"]
    text: str
    """Inserted as if pasted."""


class PostRunsIdLiveInputBodyInput5(TypedDict):
    type: Literal["tab"]
    index: int
    """The tab to show, as the frame stream's `tabs` event lists them; the agent goes on in it."""


class PostRunsIdLiveInputBody(TypedDict):
    control_id: str
    """What POST /v1/runs/{id}/live/control answered."""
    input: PostRunsIdLiveInputBodyInput1 | PostRunsIdLiveInputBodyInput2 | PostRunsIdLiveInputBodyInput3 | PostRunsIdLiveInputBodyInput4 | PostRunsIdLiveInputBodyInput5


class PostRunsIdLiveLoginBody(TypedDict):
    control_id: str
    """What POST /v1/runs/{id}/live/control answered."""
    profile: str
    """The profile to save the browser's state as: the run's profile or save_profile, or a new name (an API key may name any)."""


class PostRunsIdLiveLoginResponseCheck(TypedDict):
    """How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked)."""
    url: str
    text: str | None
    role: str | None
    name: str | None


class PostRunsIdLiveLoginResponse(TypedDict):
    id: str
    object: Literal["profile"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    name: str
    has_state: bool
    """Whether a state is saved. The state itself (cookies, storage) is never answered."""
    origins: list[str]
    """The sites the state holds: the origins of its storage and the domains of its cookies."""
    size_bytes: int
    """The size of the saved state (profiles.max_state_kb bounds it)."""
    saved_at: str | None
    saved_by_run_id: str | None
    """The run whose browser the state was saved from (by the run, or from its live view); null for an import."""
    saved_via: Literal["run", "live_view", "import"] | None
    """run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file."""
    last_used_at: str | None
    last_used_by_run_id: str | None
    check: PostRunsIdLiveLoginResponseCheck | None
    """How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked)."""
    health: Literal["unknown", "signed_in", "signed_out", "expired"]
    """What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased)."""
    health_detail: str | None
    """What the last check saw, in words."""
    checked_at: str | None
    expires_at: str | None
    """When its state is erased; null: never."""
    created_at: str
    updated_at: str


class PostRunsIdLiveRevokeResponse(TypedDict):
    object: Literal["live_revocation"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    run_id: str
    revoked_at: str
    control_released: bool


class GetRunsIdStepsResponseDataItemUsage(TypedDict):
    input_tokens: int
    output_tokens: int
    cost_usd: float


class GetRunsIdStepsResponseDataItem(TypedDict):
    id: str
    object: Literal["run_step"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    run_id: str
    attempt: int
    """Which attempt of the run made this step (a run is retried when the daemon died under it)."""
    seq: int
    """Order within the attempt, from 1."""
    kind: Literal["model", "tool", "person"]
    name: str
    """The model id for a model call; the tool and action for a tool call (browser.navigate, run_code.python, finish)."""
    input: Any
    """What the step was given: the tool input, or a summary of the model request."""
    output: str | None
    """What the step produced, truncated."""
    is_error: bool
    duration_ms: int
    usage: GetRunsIdStepsResponseDataItemUsage
    screenshot_url: str | None
    """Signed link to the screenshot this step took, valid 7 days."""
    created_at: str


class GetRunsIdStepsResponse(TypedDict):
    object: Literal["list"]
    data: list[GetRunsIdStepsResponseDataItem]
    has_more: bool
    """Always false: every step of the run is in one page."""
    next_cursor: str | None


class GetRunsIdFilesResponse(TypedDict):
    object: Literal["list"]
    data: list[GetRunsResponseDataItemFilesItem]
    has_more: bool
    next_cursor: str | None


GetEventsResponseRunStatusData = TypedDict("GetEventsResponseRunStatusData", {
    "run_id": str,
    "from": Literal["queued", "running", "succeeded", "failed", "cancelled"] | None,
    "to": Literal["queued", "running", "succeeded", "failed", "cancelled"],
    "description": str,
})


class GetEventsResponseRunStatus(TypedDict):
    """A run's status changed, its creation included: `{run_id, from, to, description}`; `from` is null when the run was created. run_id: the run."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["run.status"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseRunStatusData


class GetEventsResponseRunStepData(TypedDict):
    id: str
    object: Literal["run_step"]
    run_id: str
    attempt: int
    """Which attempt of the run made this step (a run is retried when the daemon died under it)."""
    seq: int
    """Order within the attempt, from 1."""
    kind: Literal["model", "tool", "person"]
    name: str
    """The model id for a model call; the tool and action for a tool call (browser.navigate, run_code.python, finish)."""
    input: Any
    """What the step was given: the tool input, or a summary of the model request."""
    output: str | None
    """What the step produced, truncated."""
    is_error: bool
    duration_ms: int
    usage: GetRunsIdStepsResponseDataItemUsage
    screenshot_url: str | None
    """Signed link to the screenshot this step took, valid 7 days."""
    created_at: str
    run_cost_usd: float


class GetEventsResponseRunStep(TypedDict):
    """A model or tool call was recorded: the step as `GET /v1/runs/{id}/steps` lists it, plus `run_cost_usd` (the run's cost after the step). run_id: the run."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["run.step"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseRunStepData


class GetEventsResponseRunNeedsHumanData(TypedDict):
    run_id: str
    waitpoint_id: str
    """The run's wait for the answer (`wp_` prefix), as waiting_for.waitpoint_id names it."""
    request_id: str
    kind: Literal["takeover", "answer", "approve"]
    question: str
    asked_at: str
    asked_again_of: str | None
    """The request of an earlier attempt this one asks again, because that attempt ended before anybody answered."""
    expires_at: str
    live_url: str | None
    answer_url: str
    """POST /v1/runs/{id}/human of this run."""


class GetEventsResponseRunNeedsHuman(TypedDict):
    """The run's agent asked for a person (request_human) and waits: `{run_id, waitpoint_id, request_id, kind, question, asked_at, asked_again_of, expires_at, live_url, answer_url}`; the run stays `running`, its `waiting_for` says the same. run_id: the run."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["run.needs_human"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseRunNeedsHumanData


class GetEventsResponseRunHumanAnsweredData(TypedDict):
    run_id: str
    request_id: str
    kind: Literal["takeover", "answer", "approve"]
    answer: str | None
    approved: bool | None
    note: str | None
    answered_by: str
    """Who answered: an API key (`key <id>`), a live link, or an email address."""
    answered_via: Literal["api", "cli", "mcp", "email", "live"]
    answered_at: str


class GetEventsResponseRunHumanAnswered(TypedDict):
    """A person answered what the agent asked, and the agent goes on: `{run_id, request_id, kind, answer, approved, note, answered_by, answered_via, answered_at}`. run_id: the run."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["run.human_answered"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseRunHumanAnsweredData


class GetEventsResponseRunCompletedData(TypedDict):
    task_id: str
    object: Literal["run"]
    status: Literal["queued", "running", "succeeded", "failed", "cancelled"]
    result: dict[str, Any] | None
    confidence: Literal["high", "medium", "low"] | None
    evidence: GetRunsResponseDataItemEvidence | None
    failure_reason: Literal["captcha", "auth_required", "site_down", "timeout", "ambiguous", "not_found"] | None
    failure_code: Literal["budget_exceeded"] | None
    """A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason."""
    failure_detail: str | None
    warnings: list[str]
    usage: PostJobsIdEvalsResponseCasesItemUsage
    max_cost_usd: float | None
    """The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own."""
    created_at: str
    started_at: str | None
    finished_at: str | None
    job_id: str | None
    project_id: str
    name: str | None
    model: Literal["haiku", "sonnet", "opus"]
    """One of haiku, sonnet, opus; default sonnet."""
    attempt: int
    progress: GetRunsResponseDataItemProgress
    waiting_for: GetRunsResponseDataItemWaitingFor | None
    """What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing."""
    live_url: str | None
    """While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise."""
    files: list[GetRunsResponseDataItemFilesItem]
    """The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none."""
    mode: Literal["agent", "replay", "replay_then_agent"]
    """How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay)."""
    sandbox: GetRunsResponseDataItemSandbox
    """Where the run runs (issue 26; docs/api.md, Sandbox hosts)."""
    action_space: Literal["dom", "computer"]
    """How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces."""


class GetEventsResponseRunCompleted(TypedDict):
    """The run succeeded: its final envelope, as `GET /v1/runs/{id}` answers it. run_id: the run."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["run.completed"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseRunCompletedData


class GetEventsResponseRunFailed(TypedDict):
    """The run failed: its final envelope. run_id: the run."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["run.failed"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseRunCompletedData


class GetEventsResponseRunCancelled(TypedDict):
    """The run was cancelled: its final envelope. run_id: the run."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["run.cancelled"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseRunCompletedData


class GetEventsResponseEvalCompletedData(TypedDict):
    id: str
    object: Literal["eval"]
    job_id: str
    status: Literal["queued", "running", "completed", "cancelled"]
    replay: Literal["auto", "off"]
    model: Literal["haiku", "sonnet", "opus"]
    """One of haiku, sonnet, opus; default sonnet."""
    prompt: str | None
    """The prompt its runs use instead of the job's; null: the job's."""
    settings: dict[str, Any]
    baseline_id: str | None
    max_parallel: int
    totals: GetJobsIdEvalsResponseDataItemTotals
    created_at: str
    started_at: str | None
    finished_at: str | None


class GetEventsResponseEvalCompleted(TypedDict):
    """Every case of an eval has an outcome: the eval as `GET /v1/jobs/{id}/evals` lists it (its totals; `GET /v1/evals/{id}` has its cases). run_id: null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["eval.completed"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseEvalCompletedData


class GetEventsResponseEvalCancelled(TypedDict):
    """An eval was cancelled: the eval as `GET /v1/jobs/{id}/evals` lists it. run_id: null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["eval.cancelled"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseEvalCompletedData


class GetEventsResponseWebhookAttemptedData(TypedDict):
    delivery_id: str
    event_id: str
    """The webhook-id header of every attempt of the delivery."""
    event: str
    """The delivered event's type."""
    run_id: str | None
    url: str
    attempt: int
    status_code: int | None
    latency_ms: int
    error: str | None
    status: Literal["pending", "succeeded", "failed"]
    next_attempt_at: str | None


class GetEventsResponseWebhookAttempted(TypedDict):
    """One attempt to deliver a webhook, and where it leaves the delivery (`pending`, `succeeded`, `failed`): `{delivery_id, event_id, event, run_id, url, attempt, status_code, latency_ms, error, status, next_attempt_at}`. run_id: null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["webhook.attempted"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseWebhookAttemptedData


class GetEventsResponseScheduleFiredData(TypedDict):
    job_id: str
    slot: str
    """The time the firing was scheduled for."""
    run_id: str


class GetEventsResponseScheduleFired(TypedDict):
    """A job's schedule fired and started a run: `{job_id, slot, run_id}`. run_id: null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["schedule.fired"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseScheduleFiredData


class GetEventsResponseScheduleSkippedData(TypedDict):
    job_id: str
    slot: str
    code: str
    """What refused the run, as the API would have answered it (`missing_input`, `daily_cap_reached`, ...)."""
    message: str
    param: str | None


class GetEventsResponseScheduleSkipped(TypedDict):
    """A firing that started no run, and why: `{job_id, slot, code, message, param}` (also listed by `GET /v1/jobs/{id}/skipped_firings`). run_id: null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["schedule.skipped"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseScheduleSkippedData


class GetEventsResponseSchedulePausedData(TypedDict):
    job_id: str
    reason: str


class GetEventsResponseSchedulePaused(TypedDict):
    """A job change left its schedule's inputs failing, so the schedule was paused: `{job_id, reason}`. run_id: null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["schedule.paused"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseSchedulePausedData


class GetEventsResponseEmailReceivedDataAuth(TypedDict):
    spf: str
    dkim: str
    dmarc: str
    spf_domain: NotRequired[str | None]
    dkim_domains: NotRequired[list[str]]
    from_domain: NotRequired[str | None]
    dkim_aligned: NotRequired[bool]
    """A passing DKIM signature's domain aligns with the From address's domain (DMARC's rule: the same organisational domain, or the same domain where its DMARC record asks for strict alignment)."""
    spf_aligned: NotRequired[bool]
    """SPF passed for a MAIL FROM domain that aligns with the From address's domain, by the same rule."""


class GetEventsResponseEmailReceivedDataAttachmentsItem(TypedDict):
    id: str
    filename: str | None
    content_type: str
    size: int
    url: str
    """Signed link, valid 7 days; needs no API key."""


GetEventsResponseEmailReceivedData = TypedDict("GetEventsResponseEmailReceivedData", {
    "message_id": str,
    "in_reply_to": str | None,
    "correlation_token": str | None,
    "from": str,
    "to": list[str],
    "subject": str,
    "reply_text": str,
    "received_at": str,
    "metadata": dict[str, Any] | None,
    "object": NotRequired[Literal["received_email"]],
    "kind": NotRequired[Literal["reply", "message", "bounce", "complaint", "run"]],
    "inbox_id": NotRequired[str | None],
    "run_id": NotRequired[str | None],
    "from_name": NotRequired[str | None],
    "message_id_header": NotRequired[str | None],
    "in_reply_to_header": NotRequired[str | None],
    "auth": NotRequired[GetEventsResponseEmailReceivedDataAuth],
    "attachments": NotRequired[list[GetEventsResponseEmailReceivedDataAttachmentsItem]],
    "truncated": NotRequired[bool],
})


class GetEventsResponseEmailReceived(TypedDict):
    """Mail arrived at the identity, an inbox or a run's address: the message as `GET /v1/emails/received/{id}` answers it, with the `metadata` of the send it answers; the event log leaves out `text` and `html`. run_id: the run, or null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["email.received"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseEmailReceivedData


class GetEventsResponseEmailBouncedData(TypedDict):
    message_id: str
    correlation_token: str | None
    recipient: str
    status: str | None
    """The enhanced status code (RFC 3463), such as 5.1.1."""
    diagnostic: str | None
    source: Literal["report", "relay"]
    """A delivery-status report that came back, or the relay refusing the recipient."""
    suppressed: bool
    bounced_at: str
    metadata: dict[str, Any] | None
    """The send's `metadata`, byte for byte as it was given."""


class GetEventsResponseEmailBounced(TypedDict):
    """A recipient of a send bounced for good and is suppressed: `{message_id, correlation_token, recipient, status, diagnostic, source, suppressed, bounced_at, metadata}`. run_id: null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["email.bounced"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseEmailBouncedData


class GetEventsResponseEmailComplainedData(TypedDict):
    message_id: str
    correlation_token: str | None
    recipient: str | None
    """Null when the report named none of the send's recipients."""
    feedback_type: str
    user_agent: str | None
    suppressed: bool
    complained_at: str
    metadata: dict[str, Any] | None
    """The send's `metadata`, byte for byte as it was given."""


class GetEventsResponseEmailComplained(TypedDict):
    """A recipient complained about a send (a feedback report): `{message_id, correlation_token, recipient, feedback_type, user_agent, suppressed, complained_at, metadata}`. run_id: null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["email.complained"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseEmailComplainedData


class GetEventsResponseConnectionAuthenticatedData(TypedDict):
    id: str
    object: Literal["connection"]
    name: str
    type: Literal["token", "mcp", "oauth", "totp", "proxy"]
    project_id: str | None
    """The project whose runs use it; null for every run of the organisation."""
    is_enabled: bool
    has_secret: bool
    """Whether a secret is stored. The secret itself is never returned."""
    env_var_name: str | None
    """token and oauth: the environment variable runs get the secret in."""
    url: str | None
    """mcp: the server. proxy: scheme://host:port, never with its credentials."""
    transport: Literal["http", "sse"] | None
    headers: dict[str, str] | None
    """mcp: request headers as given, with ${SECRET} unexpanded."""
    provider: str | None
    """oauth: the configured provider."""
    auth_status: Literal["authenticated", "pending", "failed", "expired"]
    auth_detail: str | None
    """Why the status is what it is, in words."""
    auth_checked_at: str | None
    expires_at: str | None
    """oauth: when the current access token expires (it is refreshed before)."""
    created_at: str
    updated_at: str


class GetEventsResponseConnectionAuthenticated(TypedDict):
    """A connection became authenticated, or a connect flow finished: the connection record. run_id: null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["connection.authenticated"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseConnectionAuthenticatedData


class GetEventsResponseConnectionExpired(TypedDict):
    """The provider refused to refresh a connection's token (connect again): the connection record. run_id: null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["connection.expired"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseConnectionAuthenticatedData


class GetEventsResponseProfileSignedOutData(TypedDict):
    id: str
    object: Literal["profile"]
    name: str
    has_state: bool
    """Whether a state is saved. The state itself (cookies, storage) is never answered."""
    origins: list[str]
    """The sites the state holds: the origins of its storage and the domains of its cookies."""
    size_bytes: int
    """The size of the saved state (profiles.max_state_kb bounds it)."""
    saved_at: str | None
    saved_by_run_id: str | None
    """The run whose browser the state was saved from (by the run, or from its live view); null for an import."""
    saved_via: Literal["run", "live_view", "import"] | None
    """run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file."""
    last_used_at: str | None
    last_used_by_run_id: str | None
    check: PostRunsIdLiveLoginResponseCheck | None
    """How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked)."""
    health: Literal["unknown", "signed_in", "signed_out", "expired"]
    """What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased)."""
    health_detail: str | None
    """What the last check saw, in words."""
    checked_at: str | None
    expires_at: str | None
    """When its state is erased; null: never."""
    created_at: str
    updated_at: str


class GetEventsResponseProfileSignedOut(TypedDict):
    """A profile's check found it signed out (a run's, before its agent started, or `errand profiles check`): the profile record, its health_detail saying what the page showed. A run then signs in again, or asks a person. run_id: null."""
    id: int
    """Durable and increasing: send the last one you saw as Last-Event-ID to resume after it."""
    object: Literal["event"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    type: Literal["profile.signed_out"]
    run_id: str | None
    """The run the event is about, if any: such events are also in the run's stream."""
    created_at: str
    data: GetEventsResponseProfileSignedOutData


class GetStatusResponseModelProvider(TypedDict):
    name: Literal["anthropic", "openai"]
    """models.provider"""
    configured: bool
    """Whether the daemon has the key or base URL the provider needs."""
    problem: str | None
    """What is missing, naming the setting; null when configured."""
    base_url: str | None
    """Where model calls go, without credentials."""
    reachable: bool | None
    """Whether the API answered a request for its model list (no tokens spent); null when not configured."""
    key_accepted: bool | None
    """Whether it accepted the key; null when that could not be told."""
    detail: str
    checked_at: str | None
    """When the model API was asked; its answer stands for 30 s, for every caller. Null when not asked."""


class GetStatusResponseSandboxWarmPool(TypedDict):
    size: int
    ready: int


class GetStatusResponseSandboxFirewall(TypedDict):
    installed: bool
    detail: str


class GetStatusResponseSandboxHostsItemCapacity(TypedDict):
    runs: int
    memory_mb: int


class GetStatusResponseSandboxHostsItemPool(TypedDict):
    size: int
    ready: int


class GetStatusResponseSandboxHostsItemFirewall(TypedDict):
    required: bool
    """false: the operator opted this host out of the firewall by name."""
    installed: bool | None
    """Whether its sandbox firewall rules are in place; null when not checked."""
    detail: str | None


class GetStatusResponseSandboxHostsItem(TypedDict):
    name: str
    url: str
    """The engine, without credentials."""
    state: Literal["up", "down"]
    """down: it did not answer its last check, and gets no runs."""
    problem: str | None
    """Why it is down, as its last check found and what to do about it (no answer, an SSH host key not in known_hosts or changed, the sandbox image missing, its firewall missing); null when up. Never holds key material beyond a public key fingerprint."""
    capacity: GetStatusResponseSandboxHostsItemCapacity
    load: GetStatusResponseSandboxHostsItemCapacity
    pool: GetStatusResponseSandboxHostsItemPool
    runtime: str
    """The OCI runtime its sandboxes run under (runc, runsc)."""
    labels: list[str]
    firewall: GetStatusResponseSandboxHostsItemFirewall


class GetStatusResponseSandbox(TypedDict):
    driver: Literal["local", "docker"]
    isolated: bool
    """false for the local driver: task code runs as the daemon's user."""
    image: str | None
    runtime: str | None
    """docker: the OCI runtime sandboxes run under (runc, or runsc for gVisor); null for the local driver."""
    warm_pool: GetStatusResponseSandboxWarmPool | None
    firewall: GetStatusResponseSandboxFirewall | None
    hosts: list[GetStatusResponseSandboxHostsItem]
    """Every Docker engine sandboxes run on (sandbox.hosts; the one local engine without it); [] for the local driver."""


class GetStatusResponseSpend(TypedDict):
    """The caller's organisation: its spend today (UTC) and its daily cap."""
    today_usd: float
    daily_cap_usd: float


class GetStatusResponseRuns(TypedDict):
    active: int
    """The caller's organisation's queued plus running runs."""
    max_pending: int
    """How many it may have before POST /v1/runs answers 429."""


class GetStatusResponseEmail(TypedDict):
    relay_domain: str | None
    """mail.relay_domain: the domain of the installation's addresses; null when email is off."""
    sending: Literal["smtp", "capture", "off"]
    """How mail leaves: through mail.smtp_url, kept in the data directory, or not at all."""
    relay: str | None
    """The relay's host:port, without credentials."""
    receiving: str | None
    """Where the daemon's SMTP server takes mail (host:port); null when it receives none."""
    mx_host: str | None
    """The host MX records must name for mail to reach it (mail.mx_host)."""
    problem: str | None
    """What keeps email from working, naming the setting; null when nothing does."""


class GetStatusResponse(TypedDict):
    object: Literal["status"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    version: str
    started_at: str
    model_provider: GetStatusResponseModelProvider
    sandbox: GetStatusResponseSandbox
    spend: GetStatusResponseSpend
    """The caller's organisation: its spend today (UTC) and its daily cap."""
    runs: GetStatusResponseRuns
    email: GetStatusResponseEmail


class GetConnectionsQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""


class GetConnectionsResponseDataItem(TypedDict):
    id: str
    object: Literal["connection"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    name: str
    type: Literal["token", "mcp", "oauth", "totp", "proxy"]
    project_id: str | None
    """The project whose runs use it; null for every run of the organisation."""
    is_enabled: bool
    has_secret: bool
    """Whether a secret is stored. The secret itself is never returned."""
    env_var_name: str | None
    """token and oauth: the environment variable runs get the secret in."""
    url: str | None
    """mcp: the server. proxy: scheme://host:port, never with its credentials."""
    transport: Literal["http", "sse"] | None
    headers: dict[str, str] | None
    """mcp: request headers as given, with ${SECRET} unexpanded."""
    provider: str | None
    """oauth: the configured provider."""
    auth_status: Literal["authenticated", "pending", "failed", "expired"]
    auth_detail: str | None
    """Why the status is what it is, in words."""
    auth_checked_at: str | None
    expires_at: str | None
    """oauth: when the current access token expires (it is refreshed before)."""
    created_at: str
    updated_at: str


class GetConnectionsResponse(TypedDict):
    object: Literal["list"]
    data: list[GetConnectionsResponseDataItem]
    has_more: bool
    next_cursor: str | None


class PostConnectionsBody(TypedDict):
    name: str
    """Letters, digits, _ and -, up to 40; unique in its scope."""
    type: Literal["token", "mcp", "oauth", "totp", "proxy"]
    secret: NotRequired[str]
    """Write-only. totp: the base32 seed, or an otpauth://totp/ URI with its digits, period and algorithm."""
    env_var_name: NotRequired[str]
    url: NotRequired[str]
    transport: NotRequired[Literal["http", "sse"]]
    headers: NotRequired[dict[str, str]]
    project_id: NotRequired[str]
    is_enabled: NotRequired[bool]


class PostConnectionsLinksBody(TypedDict):
    provider: str
    name: NotRequired[str]
    """Default: the provider name."""
    project_id: NotRequired[str]
    env_var_name: NotRequired[str]
    """Default: <PROVIDER>_ACCESS_TOKEN, or the preset's."""
    redirect_url: NotRequired[str]
    """Where the browser goes once connected (with connection_id and status in the query)."""


class PostConnectionsLinksResponse(TypedDict):
    object: Literal["connection_link"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    id: str
    """Ask GET /v1/connections/links/{id} how the flow is going."""
    connection_id: str
    url: str
    """Open once in a browser, within 15 minutes."""
    expires_at: str


class GetConnectionsLinksIdResponse(TypedDict):
    object: Literal["connection_link"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    id: str
    connection_id: str
    status: Literal["pending", "opened", "authenticated", "failed", "expired"]
    """pending: not opened yet; opened: someone is signing in; failed: see detail (a connection that was authenticated before keeps its tokens); expired: not opened, or not finished, in time."""
    detail: str | None
    expires_at: str
    """Until when the link can be opened; once opened, until when the flow can finish."""


class DeleteConnectionsIdResponse(TypedDict):
    id: str
    object: Literal["connection"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    deleted: Literal[True]


class PatchConnectionsIdBody(TypedDict):
    name: NotRequired[str]
    """Letters, digits, _ and -, up to 40; unique in its scope."""
    is_enabled: NotRequired[bool]
    secret: NotRequired[str | None]
    env_var_name: NotRequired[str | None]
    url: NotRequired[str]
    transport: NotRequired[Literal["http", "sse"]]
    headers: NotRequired[dict[str, str] | None]


class GetConnectionsIdToolsResponseDataItem(TypedDict):
    name: str
    """The name runs see: <connection>__<tool>."""
    tool: str
    """The server's own name for it."""
    title: str | None
    description: str | None
    input_schema: dict[str, Any]


class GetConnectionsIdToolsResponse(TypedDict):
    object: Literal["connection_tools"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    connection_id: str
    auth_status: Literal["authenticated", "pending", "failed", "expired"]
    """What connecting now showed; also recorded on the connection."""
    auth_detail: str | None
    data: list[GetConnectionsIdToolsResponseDataItem]
    """The tools runs are offered, in the order the server listed them; none when the server could not be used."""


class GetProfilesQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""


class GetProfilesResponse(TypedDict):
    object: Literal["list"]
    data: list[PostRunsIdLiveLoginResponse]
    has_more: bool
    next_cursor: str | None


class PostProfilesBodyCheck(TypedDict):
    url: str
    """A page of the site that shows, only when signed in, the text or the role below."""
    text: NotRequired[str]
    """Text the page shows only when signed in (Sign out, the account name)."""
    role: NotRequired[str]
    """Or: the ARIA role of an element shown only when signed in (link, button), with its `name`."""
    name: NotRequired[str]
    """The accessible name of the element of `role`."""


class PostProfilesBodyStateCookiesItem(TypedDict):
    name: str
    value: str
    domain: str
    path: str
    expires: float
    """Unix time in seconds; -1 for a session cookie."""
    httpOnly: bool
    secure: bool
    sameSite: Literal["Strict", "Lax", "None"]


class PostProfilesBodyStateOriginsItemLocalStorageItem(TypedDict):
    name: str
    value: str


class PostProfilesBodyStateOriginsItem(TypedDict):
    origin: str
    localStorage: list[PostProfilesBodyStateOriginsItemLocalStorageItem]
    indexedDB: NotRequired[list[Any]]
    """Playwright's serialized databases (storageState({ indexedDB: true }))."""


class PostProfilesBodyState(TypedDict):
    """Write-only: a browser state as Playwright's storageState() writes it. Sealed under the master key; never answered. Leave it out for a profile a run or a person fills."""
    cookies: list[PostProfilesBodyStateCookiesItem]
    origins: list[PostProfilesBodyStateOriginsItem]


class PostProfilesBody(TypedDict):
    name: str
    """Letters, digits, ., _ and -, up to 64; unique in the organisation. Runs name it in `profile` and `save_profile`."""
    check: NotRequired[PostProfilesBodyCheck]
    expires_at: NotRequired[str]
    """When its state is erased; default never."""
    state: NotRequired[PostProfilesBodyState]
    """Write-only: a browser state as Playwright's storageState() writes it. Sealed under the master key; never answered. Leave it out for a profile a run or a person fills."""


class DeleteProfilesIdResponse(TypedDict):
    id: str
    object: Literal["profile"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    deleted: Literal[True]


class PatchProfilesIdBodyState(TypedDict):
    """Write-only: a browser state as Playwright's storageState() writes it. Sealed under the master key; never answered. Replaces the saved one."""
    cookies: list[PostProfilesBodyStateCookiesItem]
    origins: list[PostProfilesBodyStateOriginsItem]


class PatchProfilesIdBody(TypedDict):
    name: NotRequired[str]
    """Letters, digits, ., _ and -, up to 64; unique in the organisation. Runs name it in `profile` and `save_profile`."""
    check: NotRequired[PostProfilesBodyCheck | None]
    expires_at: NotRequired[str | None]
    state: NotRequired[PatchProfilesIdBodyState]
    """Write-only: a browser state as Playwright's storageState() writes it. Sealed under the master key; never answered. Replaces the saved one."""


class GetProfilesIdRunsQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""


class GetProfilesIdRunsResponseDataItem(TypedDict):
    object: Literal["profile_use"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    run_id: str
    attempt: int
    access: Literal["read", "read_write"]
    """What the attempt got: read_write when it was the one run that may write the profile back."""
    used_at: str
    saved_at: str | None
    """When it wrote its state back; null when it did not."""


class GetProfilesIdRunsResponse(TypedDict):
    object: Literal["list"]
    data: list[GetProfilesIdRunsResponseDataItem]
    has_more: bool
    next_cursor: str | None


class GetEmailsQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""


class GetEmailsResponseDataItemReplyTo(TypedDict):
    address: str | None
    reason: Literal["sending_domain", "relay_fallback", "override", "none"]
    detail: str


class GetEmailsResponseDataItemRecipientsItem(TypedDict):
    address: str
    kind: Literal["to", "cc", "bcc"]
    status: Literal["queued", "delivered", "deferred", "bounced", "complained", "failed", "suppressed", "rejected"]
    detail: str | None
    updated_at: str


class GetEmailsResponseDataItem(TypedDict):
    id: str
    object: Literal["email"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    message_id: str
    inbox_id: str | None
    status: Literal["sent", "scheduled", "pending_approval", "rejected"]
    from_address: str
    from_name: str
    subject: str
    to: list[str]
    cc: list[str]
    bcc: list[str]
    reply_to: GetEmailsResponseDataItemReplyTo | None
    correlation_token: str
    message_id_header: NotRequired[str]
    metadata: NotRequired[dict[str, Any] | None]
    client_id: NotRequired[str | None]
    send_at: NotRequired[str | None]
    suppressed: NotRequired[list[str]]
    recipients: list[GetEmailsResponseDataItemRecipientsItem]
    created_at: str
    updated_at: NotRequired[str]


class GetEmailsResponse(TypedDict):
    object: Literal["list"]
    data: list[GetEmailsResponseDataItem]
    has_more: bool
    next_cursor: str | None


class PostEmailsBody(TypedDict):
    to: str | list[str]
    """One address, or a list that is ONE message whose recipients see each other."""
    cc: NotRequired[list[str]]
    bcc: NotRequired[list[str]]
    """Never written into a header."""
    subject: str
    body_markdown: NotRequired[str]
    """Rendered to email-safe HTML with inlined CSS."""
    body_html: NotRequired[str]
    """Pre-rendered; takes precedence over body_markdown."""
    text: NotRequired[str]
    from_name: NotRequired[str]
    """Display name; defaults to the inbox's or the organisation's name."""
    reply_to: NotRequired[str]
    """Overrides the correlation Reply-To; replies are then not threaded back."""
    client_id: NotRequired[str]
    """Idempotency key: a repeat returns the original send and sends nothing."""
    metadata: NotRequired[dict[str, Any]]
    """Opaque; echoed byte for byte on the reply webhook."""
    send_at: NotRequired[str]
    """Additive: send at this time (status scheduled)."""


class PostEmailsResponse(TypedDict):
    message_id: str
    from_address: str
    correlation_token: str
    status: Literal["sent", "scheduled", "pending_approval", "rejected"]
    reply_to: GetEmailsResponseDataItemReplyTo | None
    suppressed: list[str]


class GetEmailsIdentityResponseDomain(TypedDict):
    name: str
    verified: bool
    verified_at: str | None


class GetEmailsIdentityResponse(TypedDict):
    object: Literal["email_identity"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    address: str
    username: str
    relay_address: str
    callback_url: str | None
    domain: GetEmailsIdentityResponseDomain | None
    require_approval: bool
    created_at: str
    updated_at: str


class PostEmailsIdentityBody(TypedDict):
    callback_url: NotRequired[str | None]
    """https endpoint for email.received, email.bounced and email.complained."""
    username: NotRequired[str]
    """3 to 32 of a-z, 0-9 and hyphen; the local part of the address."""
    domain: NotRequired[str | None]
    """Additive: the organisation's own sending domain; used once its MX is verified."""
    rotate_webhook_secret: NotRequired[bool]
    """Additive: mint a new webhook_secret; the previous one keeps signing for 24 h."""


class PostEmailsIdentityResponse(TypedDict):
    object: Literal["email_identity"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    address: str
    username: str
    relay_address: str
    callback_url: str | None
    domain: GetEmailsIdentityResponseDomain | None
    require_approval: bool
    created_at: str
    updated_at: str
    webhook_secret: str
    """whsec_...: verifies email webhooks (Standard Webhooks). Returned by POST only."""
    previous_webhook_secret_expires_at: str | None


class PostEmailsIdentityDomainVerifyResponseRecords(TypedDict):
    mx: str
    spf: str
    dkim: str | None


class PostEmailsIdentityDomainVerifyResponse(TypedDict):
    domain: str
    verified: bool
    mx_found: list[str]
    expected_mx: str
    detail: str
    records: PostEmailsIdentityDomainVerifyResponseRecords


class GetEmailsSuppressionsQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page (an address)."""


class GetEmailsSuppressionsResponseDataItem(TypedDict):
    object: Literal["email_suppression"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    address: str
    reason: Literal["bounce", "complaint"]
    detail: str | None
    email_id: str | None
    created_at: str


class GetEmailsSuppressionsResponse(TypedDict):
    object: Literal["list"]
    data: list[GetEmailsSuppressionsResponseDataItem]
    has_more: bool
    next_cursor: str | None


class DeleteEmailsSuppressionsAddressResponse(TypedDict):
    address: str
    object: Literal["email_suppression"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    deleted: Literal[True]


class GetEmailsReceivedQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""
    inbox: NotRequired[str]
    """Only mail to this inbox."""
    run: NotRequired[str]
    """Only mail to this run's address."""
    since: NotRequired[str]
    """Only mail received at or after this time (RFC 3339)."""


GetEmailsReceivedResponseDataItem = TypedDict("GetEmailsReceivedResponseDataItem", {
    "message_id": str,
    "in_reply_to": str | None,
    "correlation_token": str | None,
    "from": str,
    "to": list[str],
    "subject": str,
    "reply_text": str,
    "received_at": str,
    "metadata": dict[str, Any] | None,
    "object": NotRequired[Literal["received_email"]],
    "livemode": bool,
    "kind": NotRequired[Literal["reply", "message", "bounce", "complaint", "run"]],
    "inbox_id": NotRequired[str | None],
    "run_id": NotRequired[str | None],
    "from_name": NotRequired[str | None],
    "message_id_header": NotRequired[str | None],
    "in_reply_to_header": NotRequired[str | None],
    "auth": NotRequired[GetEventsResponseEmailReceivedDataAuth],
    "attachments": NotRequired[list[GetEventsResponseEmailReceivedDataAttachmentsItem]],
    "truncated": NotRequired[bool],
})


class GetEmailsReceivedResponse(TypedDict):
    object: Literal["list"]
    data: list[GetEmailsReceivedResponseDataItem]
    has_more: bool
    next_cursor: str | None


GetEmailsReceivedIdResponse = TypedDict("GetEmailsReceivedIdResponse", {
    "message_id": str,
    "in_reply_to": str | None,
    "correlation_token": str | None,
    "from": str,
    "to": list[str],
    "subject": str,
    "text": str,
    "html": str | None,
    "reply_text": str,
    "received_at": str,
    "metadata": dict[str, Any] | None,
    "object": NotRequired[Literal["received_email"]],
    "livemode": bool,
    "kind": NotRequired[Literal["reply", "message", "bounce", "complaint", "run"]],
    "inbox_id": NotRequired[str | None],
    "run_id": NotRequired[str | None],
    "from_name": NotRequired[str | None],
    "message_id_header": NotRequired[str | None],
    "in_reply_to_header": NotRequired[str | None],
    "auth": NotRequired[GetEventsResponseEmailReceivedDataAuth],
    "attachments": NotRequired[list[GetEventsResponseEmailReceivedDataAttachmentsItem]],
    "truncated": NotRequired[bool],
})


PostEmailsIdSimulateReplyBody = TypedDict("PostEmailsIdSimulateReplyBody", {
    "text": NotRequired[str],
    "html": NotRequired[str],
    "from": NotRequired[str],
})


class GetInboxesQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""


class GetInboxesResponseDataItem(TypedDict):
    id: str
    object: Literal["inbox"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    address: str
    username: str
    display_name: str | None
    callback_url: str | None
    created_at: str
    updated_at: str


class GetInboxesResponse(TypedDict):
    object: Literal["list"]
    data: list[GetInboxesResponseDataItem]
    has_more: bool
    next_cursor: str | None


class PostInboxesBody(TypedDict):
    username: NotRequired[str]
    """3 to 32 of a-z, 0-9 and hyphen, unique; default the identity's username and a random suffix."""
    display_name: NotRequired[str | None]
    """The From name of its messages; default the organisation's name."""
    callback_url: NotRequired[str | None]
    """Target of this inbox's email events; null uses the identity's callback_url."""


class DeleteInboxesIdResponse(TypedDict):
    id: str
    object: Literal["inbox"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    deleted: Literal[True]


class PatchInboxesIdBody(TypedDict):
    display_name: NotRequired[str | None]
    """The From name of its messages; default the organisation's name."""
    callback_url: NotRequired[str | None]
    """Target of this inbox's email events; null uses the identity's callback_url."""


class GetFilesQuery(TypedDict):
    limit: NotRequired[int]
    """Page size, 1 to 200."""
    cursor: NotRequired[str]
    """The next_cursor of the previous page."""
    sha256: NotRequired[str]
    """Only the files of this content: its hex SHA-256, lower case."""


class GetFilesResponseDataItem(TypedDict):
    id: str
    object: Literal["file"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    name: str
    """The sanitised name: what a run sees under /workspace/in/."""
    size: int
    """Bytes."""
    sha256: str
    """Hex SHA-256 of the content, computed while it was received."""
    content_type: str
    created_at: str


class GetFilesResponse(TypedDict):
    object: Literal["list"]
    data: list[GetFilesResponseDataItem]
    has_more: bool
    next_cursor: str | None


class PostFilesQuery(TypedDict):
    name: NotRequired[str]
    """The file's name (required for a raw body; for multipart it replaces the part's filename). Sanitised: directories, control and bidi characters dropped, at most 200 bytes."""


class DeleteFilesIdResponse(TypedDict):
    id: str
    object: Literal["file"]
    livemode: bool
    """False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode)."""
    deleted: Literal[True]


class RunNeedsHumanWebhook(TypedDict):
    event: Literal["run.needs_human"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: GetEventsResponseRunNeedsHumanData


class RunHumanAnsweredWebhook(TypedDict):
    event: Literal["run.human_answered"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: GetEventsResponseRunHumanAnsweredData


class RunCompletedWebhookData(TypedDict):
    task_id: str
    object: Literal["run"]
    status: Literal["queued", "running", "succeeded", "failed", "cancelled"]
    result: dict[str, Any] | None
    confidence: Literal["high", "medium", "low"] | None
    evidence: GetRunsResponseDataItemEvidence | None
    failure_reason: Literal["captcha", "auth_required", "site_down", "timeout", "ambiguous", "not_found"] | None
    failure_code: Literal["budget_exceeded"] | None
    """A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason."""
    failure_detail: str | None
    warnings: list[str]
    usage: PostJobsIdEvalsResponseCasesItemUsage
    max_cost_usd: float | None
    """The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own."""
    created_at: str
    started_at: str | None
    finished_at: str | None
    job_id: str | None
    project_id: str
    name: str | None
    model: Literal["haiku", "sonnet", "opus"]
    """One of haiku, sonnet, opus; default sonnet."""
    attempt: int
    progress: GetRunsResponseDataItemProgress
    waiting_for: GetRunsResponseDataItemWaitingFor | None
    """What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing."""
    live_url: str | None
    """While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise."""
    files: list[GetRunsResponseDataItemFilesItem]
    """The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none."""
    mode: Literal["agent", "replay", "replay_then_agent"]
    """How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay)."""
    sandbox: GetRunsResponseDataItemSandbox
    """Where the run runs (issue 26; docs/api.md, Sandbox hosts)."""
    action_space: Literal["dom", "computer"]
    """How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces."""


class RunCompletedWebhook(TypedDict):
    event: Literal["run.completed"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: RunCompletedWebhookData


class RunFailedWebhook(TypedDict):
    event: Literal["run.failed"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: RunCompletedWebhookData


class RunCancelledWebhook(TypedDict):
    event: Literal["run.cancelled"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: RunCompletedWebhookData


class EvalCompletedWebhookData(TypedDict):
    id: str
    object: Literal["eval"]
    job_id: str
    status: Literal["queued", "running", "completed", "cancelled"]
    replay: Literal["auto", "off"]
    model: Literal["haiku", "sonnet", "opus"]
    """One of haiku, sonnet, opus; default sonnet."""
    prompt: str | None
    """The prompt its runs use instead of the job's; null: the job's."""
    settings: dict[str, Any]
    baseline_id: str | None
    max_parallel: int
    totals: GetJobsIdEvalsResponseDataItemTotals
    created_at: str
    started_at: str | None
    finished_at: str | None


class EvalCompletedWebhook(TypedDict):
    event: Literal["eval.completed"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: EvalCompletedWebhookData


class EvalCancelledWebhook(TypedDict):
    event: Literal["eval.cancelled"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: EvalCompletedWebhookData


EmailReceivedWebhookData = TypedDict("EmailReceivedWebhookData", {
    "message_id": str,
    "in_reply_to": str | None,
    "correlation_token": str | None,
    "from": str,
    "to": list[str],
    "subject": str,
    "text": str,
    "html": str | None,
    "reply_text": str,
    "received_at": str,
    "metadata": dict[str, Any] | None,
    "object": NotRequired[Literal["received_email"]],
    "kind": NotRequired[Literal["reply", "message", "bounce", "complaint", "run"]],
    "inbox_id": NotRequired[str | None],
    "run_id": NotRequired[str | None],
    "from_name": NotRequired[str | None],
    "message_id_header": NotRequired[str | None],
    "in_reply_to_header": NotRequired[str | None],
    "auth": NotRequired[GetEventsResponseEmailReceivedDataAuth],
    "attachments": NotRequired[list[GetEventsResponseEmailReceivedDataAttachmentsItem]],
    "truncated": NotRequired[bool],
})


class EmailReceivedWebhook(TypedDict):
    event: Literal["email.received"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: EmailReceivedWebhookData


class EmailBouncedWebhook(TypedDict):
    event: Literal["email.bounced"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: GetEventsResponseEmailBouncedData


class EmailComplainedWebhook(TypedDict):
    event: Literal["email.complained"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: GetEventsResponseEmailComplainedData


class ConnectionAuthenticatedWebhookData(TypedDict):
    id: str
    object: Literal["connection"]
    name: str
    type: Literal["token", "mcp", "oauth", "totp", "proxy"]
    project_id: str | None
    """The project whose runs use it; null for every run of the organisation."""
    is_enabled: bool
    has_secret: bool
    """Whether a secret is stored. The secret itself is never returned."""
    env_var_name: str | None
    """token and oauth: the environment variable runs get the secret in."""
    url: str | None
    """mcp: the server. proxy: scheme://host:port, never with its credentials."""
    transport: Literal["http", "sse"] | None
    headers: dict[str, str] | None
    """mcp: request headers as given, with ${SECRET} unexpanded."""
    provider: str | None
    """oauth: the configured provider."""
    auth_status: Literal["authenticated", "pending", "failed", "expired"]
    auth_detail: str | None
    """Why the status is what it is, in words."""
    auth_checked_at: str | None
    expires_at: str | None
    """oauth: when the current access token expires (it is refreshed before)."""
    created_at: str
    updated_at: str


class ConnectionAuthenticatedWebhook(TypedDict):
    event: Literal["connection.authenticated"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: ConnectionAuthenticatedWebhookData


class ConnectionExpiredWebhook(TypedDict):
    event: Literal["connection.expired"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: ConnectionAuthenticatedWebhookData


class ProfileSignedOutWebhookData(TypedDict):
    id: str
    object: Literal["profile"]
    name: str
    has_state: bool
    """Whether a state is saved. The state itself (cookies, storage) is never answered."""
    origins: list[str]
    """The sites the state holds: the origins of its storage and the domains of its cookies."""
    size_bytes: int
    """The size of the saved state (profiles.max_state_kb bounds it)."""
    saved_at: str | None
    saved_by_run_id: str | None
    """The run whose browser the state was saved from (by the run, or from its live view); null for an import."""
    saved_via: Literal["run", "live_view", "import"] | None
    """run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file."""
    last_used_at: str | None
    last_used_by_run_id: str | None
    check: PostRunsIdLiveLoginResponseCheck | None
    """How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked)."""
    health: Literal["unknown", "signed_in", "signed_out", "expired"]
    """What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased)."""
    health_detail: str | None
    """What the last check saw, in words."""
    checked_at: str | None
    expires_at: str | None
    """When its state is erased; null: never."""
    created_at: str
    updated_at: str


class ProfileSignedOutWebhook(TypedDict):
    event: Literal["profile.signed_out"]
    livemode: bool
    """False for an event of test mode (docs/api.md, Test mode)."""
    data: ProfileSignedOutWebhookData


class ErrorResponseError(TypedDict):
    type: Literal["invalid_request_error", "authentication_error", "quota_error", "not_found_error", "conflict_error", "rate_limit_error", "api_error"]
    code: str
    message: str
    param: NotRequired[str]


class ErrorResponse(TypedDict):
    error: ErrorResponseError
    request_id: str


PostProjectsResponse = GetProjectsResponseDataItem
GetProjectsIdResponse = GetProjectsResponseDataItem
PatchProjectsIdResponse = GetProjectsResponseDataItem
PostJobsResponse = GetJobsResponseDataItem
GetJobsIdResponse = GetJobsResponseDataItem
PatchJobsIdResponse = GetJobsResponseDataItem
PostJobsIdEvalCasesResponse = GetJobsIdEvalCasesResponseDataItem
GetEvalCasesIdResponse = GetJobsIdEvalCasesResponseDataItem
GetEvalsIdResponse = PostJobsIdEvalsResponse
PostEvalsIdCancelResponse = PostJobsIdEvalsResponse
PostRunsCheckBody = PostRunsBody
PostJobsIdRunsResponse = PostRunsResponse
PostJobsIdRunsCheckBody = PostJobsIdRunsBody
PostJobsIdRunsCheckResponse = PostRunsCheckResponse
GetRunsIdResponse = GetRunsResponseDataItem
PostRunsIdCancelResponse = GetRunsResponseDataItem
PostRunsIdRerunResponse = PostRunsResponse
PostRunsIdHumanResponse = GetRunsResponseDataItem
GetRunsIdLiveFramesResponse = str
PostRunsIdLiveControlBody = dict[str, Any]
PostRunsIdLiveRevokeBody = dict[str, Any]
GetRunsIdFilesFileQuery = GetEvalsIdReportQuery
GetArtifactsIdQuery = GetEvalsIdReportQuery
GetEventsResponse = GetEventsResponseRunStatus | GetEventsResponseRunStep | GetEventsResponseRunNeedsHuman | GetEventsResponseRunHumanAnswered | GetEventsResponseRunCompleted | GetEventsResponseRunFailed | GetEventsResponseRunCancelled | GetEventsResponseEvalCompleted | GetEventsResponseEvalCancelled | GetEventsResponseWebhookAttempted | GetEventsResponseScheduleFired | GetEventsResponseScheduleSkipped | GetEventsResponseSchedulePaused | GetEventsResponseEmailReceived | GetEventsResponseEmailBounced | GetEventsResponseEmailComplained | GetEventsResponseConnectionAuthenticated | GetEventsResponseConnectionExpired | GetEventsResponseProfileSignedOut
GetRunsIdEventsResponse = GetEventsResponseRunStatus | GetEventsResponseRunStep | GetEventsResponseRunNeedsHuman | GetEventsResponseRunHumanAnswered | GetEventsResponseRunCompleted | GetEventsResponseRunFailed | GetEventsResponseRunCancelled | GetEventsResponseEvalCompleted | GetEventsResponseEvalCancelled | GetEventsResponseWebhookAttempted | GetEventsResponseScheduleFired | GetEventsResponseScheduleSkipped | GetEventsResponseSchedulePaused | GetEventsResponseEmailReceived | GetEventsResponseEmailBounced | GetEventsResponseEmailComplained | GetEventsResponseConnectionAuthenticated | GetEventsResponseConnectionExpired | GetEventsResponseProfileSignedOut
PostConnectionsResponse = GetConnectionsResponseDataItem
GetConnectionsIdResponse = GetConnectionsResponseDataItem
PatchConnectionsIdResponse = GetConnectionsResponseDataItem
PostConnectionsIdCheckResponse = GetConnectionsResponseDataItem
PostProfilesResponse = PostRunsIdLiveLoginResponse
GetProfilesIdResponse = PostRunsIdLiveLoginResponse
PatchProfilesIdResponse = PostRunsIdLiveLoginResponse
PostProfilesIdCheckResponse = PostRunsIdLiveLoginResponse
GetEmailsAttachmentsIdQuery = GetEvalsIdReportQuery
GetEmailsIdResponse = GetEmailsResponseDataItem
PostEmailsIdSimulateReplyResponse = GetEmailsReceivedIdResponse
PostInboxesResponse = GetInboxesResponseDataItem
GetInboxesIdResponse = GetInboxesResponseDataItem
PatchInboxesIdResponse = GetInboxesResponseDataItem
PostInboxesIdMessagesBody = PostEmailsBody
PostInboxesIdMessagesResponse = PostEmailsResponse
PostFilesResponse = GetFilesResponseDataItem
GetFilesIdResponse = GetFilesResponseDataItem

WebhookEvent = Union[RunNeedsHumanWebhook, RunHumanAnsweredWebhook, RunCompletedWebhook, RunFailedWebhook, RunCancelledWebhook, EvalCompletedWebhook, EvalCancelledWebhook, EmailReceivedWebhook, EmailBouncedWebhook, EmailComplainedWebhook, ConnectionAuthenticatedWebhook, ConnectionExpiredWebhook, ProfileSignedOutWebhook]

WEBHOOK_EVENT_TYPES: tuple[str, ...] = ('run.needs_human', 'run.human_answered', 'run.completed', 'run.failed', 'run.cancelled', 'eval.completed', 'eval.cancelled', 'email.received', 'email.bounced', 'email.complained', 'connection.authenticated', 'connection.expired', 'profile.signed_out')
