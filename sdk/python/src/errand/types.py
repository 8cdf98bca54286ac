"""Names for the generated types (``_generated.py``): what each call takes and answers. Nothing here is written by
hand but the names; a route schema change reaches the SDK through the generator (test S10)."""
from __future__ import annotations

from ._generated import (
    DeleteProjectsIdResponse as DeletedProject,
    ErrorResponse,
    GetConnectionsIdResponse as Connection,
    GetConnectionsIdToolsResponse as ConnectionTools,
    GetConnectionsLinksIdResponse as ConnectionLinkStatus,
    GetEmailsIdentityResponse as EmailIdentity,
    GetEmailsIdResponse as Email,
    GetEmailsReceivedIdResponse as ReceivedEmail,
    GetEventsResponse as Event,
    GetFilesIdResponse as File,
    GetInboxesIdResponse as Inbox,
    GetJobsIdResponse as Job,
    GetJobsQuery as JobListParams,
    GetProjectsIdResponse as Project,
    GetRunsIdLiveStateResponse as LiveState,
    GetRunsIdResponse as Run,
    GetRunsQuery as RunListParams,
    GetStatusResponse as Status,
    PatchConnectionsIdBody as ConnectionUpdateParams,
    PatchInboxesIdBody as InboxUpdateParams,
    PatchJobsIdBody as JobUpdateParams,
    PatchProjectsIdBody as ProjectUpdateParams,
    PostConnectionsBody as ConnectionCreateParams,
    PostConnectionsLinksBody as ConnectionLinkCreateParams,
    PostConnectionsLinksResponse as ConnectionLink,
    PostEmailsBody as EmailSendParams,
    PostEmailsResponse as EmailSent,
    PostInboxesBody as InboxCreateParams,
    PostJobsBody as JobCreateParams,
    PostJobsIdRunsBody as JobRunCreateParams,
    PostProjectsBody as ProjectCreateParams,
    PostRunsBody as RunCreateParams,
    PostRunsCheckResponse as RunCheck,
    PostRunsIdHumanBody as RunHumanAnswer,
    PostRunsResponse as RunCreated,
    WebhookEvent,
    WEBHOOK_EVENT_TYPES,
)
from ._generated import GetEvalCasesIdResponse as EvalCase
from ._generated import GetEvalsIdResponse as Eval
from ._generated import GetJobsIdEvalsResponseDataItem as EvalListItem
from ._generated import PostJobsIdEvalCasesBody as EvalCaseParams
from ._generated import PostJobsIdEvalsBody as EvalCreateParams
from ._generated import GetJobsIdRecipeResponse as Recipe
from ._generated import GetJobsIdSkippedFiringsResponseDataItem as SkippedFiring
from ._generated import GetRunsResponseDataItemFilesItem as RunFile
from ._generated import GetRunsIdStepsResponseDataItem as Step

__all__ = [
    "Connection", "ConnectionCreateParams", "ConnectionLink", "ConnectionLinkCreateParams", "ConnectionLinkStatus",
    "ConnectionTools", "ConnectionUpdateParams", "DeletedProject", "Email", "EmailIdentity", "EmailSendParams",
    "EmailSent", "ErrorResponse", "Eval", "EvalCase", "EvalCaseParams", "EvalCreateParams", "EvalListItem", "Event", "File", "Inbox", "InboxCreateParams", "InboxUpdateParams", "Job",
    "JobCreateParams", "JobListParams", "JobRunCreateParams", "JobUpdateParams", "LiveState", "Project",
    "ProjectCreateParams", "ProjectUpdateParams", "ReceivedEmail", "Run", "RunCheck", "RunCreateParams",
    "Recipe", "RunCreated", "RunFile", "RunHumanAnswer", "RunListParams", "SkippedFiring", "Status", "Step", "WEBHOOK_EVENT_TYPES",
    "WebhookEvent",
]
