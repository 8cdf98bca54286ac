/**
 * Names for the generated OpenAPI types (src/generated/openapi.ts): what each call takes and answers. Nothing here
 * is written by hand but the names; a route schema change reaches the SDK through the generator.
 */
import type { paths, webhooks } from './generated/openapi.js';

type Operation<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];
type Json<T> = T extends { 'application/json': infer J } ? J : never;
type Success<R> = R extends Record<string, unknown> ? Json<R['200' & keyof R] | R['201' & keyof R] | R['202' & keyof R]> : never;

/** What the operation at `P` with method `M` answers on success. */
export type ResponseOf<P extends keyof paths, M extends keyof paths[P]> = Success<Operation<P, M> extends { responses: infer R } ? R : never>;
/** The JSON body the operation takes. */
export type BodyOf<P extends keyof paths, M extends keyof paths[P]> = Operation<P, M> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;
/** The query parameters the operation takes. */
export type QueryOf<P extends keyof paths, M extends keyof paths[P]> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type ListItem<L> = L extends { data: (infer I)[] } ? I : never;

export type Project = ResponseOf<'/v1/projects/{id}', 'get'>;
export type ProjectCreateParams = BodyOf<'/v1/projects', 'post'>;
export type ProjectUpdateParams = BodyOf<'/v1/projects/{id}', 'patch'>;
export type Job = ResponseOf<'/v1/jobs/{id}', 'get'>;
export type JobCreateParams = BodyOf<'/v1/jobs', 'post'>;
export type JobUpdateParams = BodyOf<'/v1/jobs/{id}', 'patch'>;
export type JobListParams = QueryOf<'/v1/jobs', 'get'>;
/** A job's recipe, its newest version (replay: docs/api.md, Replay). */
export type Recipe = ResponseOf<'/v1/jobs/{id}/recipe', 'get'>;
export type RecipeDeleted = ResponseOf<'/v1/jobs/{id}/recipe', 'delete'>;
export type SkippedFiring = ListItem<ResponseOf<'/v1/jobs/{id}/skipped_firings', 'get'>>;
/** An eval of a job (docs/api.md, Evaluations): its cases with their grades, totals, and the baseline comparison. */
export type Eval = ResponseOf<'/v1/evals/{id}', 'get'>;
export type EvalCreateParams = BodyOf<'/v1/jobs/{id}/evals', 'post'>;
/** An eval as `GET /v1/jobs/{id}/evals` lists it: its totals, without its cases. */
export type EvalListItem = ListItem<ResponseOf<'/v1/jobs/{id}/evals', 'get'>>;
export type EvalListParams = QueryOf<'/v1/jobs/{id}/evals', 'get'>;
export type EvalCaseResult = Eval['cases'][number];
/** A case as an eval takes it inline, or a job keeps it: inputs and what a good result is (`expect`). */
export type EvalCaseParams = BodyOf<'/v1/jobs/{id}/eval_cases', 'post'>;
/** A case a job keeps. */
export type EvalCase = ResponseOf<'/v1/eval_cases/{id}', 'get'>;
export type EvalCaseListParams = QueryOf<'/v1/jobs/{id}/eval_cases', 'get'>;
/** A run's envelope, as `GET /v1/runs/{id}` answers it. */
export type Run = ResponseOf<'/v1/runs/{id}', 'get'>;
/** What `POST /v1/runs` answers (202): the envelope with the billing hint and warnings. */
export type RunCreated = ResponseOf<'/v1/runs', 'post'>;
export type RunCreateParams = BodyOf<'/v1/runs', 'post'>;
export type JobRunCreateParams = BodyOf<'/v1/jobs/{id}/runs', 'post'>;
export type RunCheck = ResponseOf<'/v1/runs/check', 'post'>;
export type RunListParams = QueryOf<'/v1/runs', 'get'>;
export type RunListItem = ListItem<ResponseOf<'/v1/runs', 'get'>>;
export type RunHumanAnswer = BodyOf<'/v1/runs/{id}/human', 'post'>;
export type Step = ListItem<ResponseOf<'/v1/runs/{id}/steps', 'get'>>;
export type RunStatus = Run['status'];
/** One event of a stream (`GET /v1/events`, `GET /v1/runs/{id}/events`), `data` typed by `type`. */
export type ErrandEvent = NonNullable<paths['/v1/events']['get']['responses']['200']>['text/event-stream'];
export type EventType = ErrandEvent['type'];
export type LiveState = ResponseOf<'/v1/runs/{id}/live/state', 'get'>;
export type LiveControl = ResponseOf<'/v1/runs/{id}/live/control', 'post'>;
export type LiveInput = BodyOf<'/v1/runs/{id}/live/input', 'post'>;
export type Status = ResponseOf<'/v1/status', 'get'>;
export type Connection = ResponseOf<'/v1/connections/{id}', 'get'>;
export type ConnectionCreateParams = BodyOf<'/v1/connections', 'post'>;
export type ConnectionUpdateParams = BodyOf<'/v1/connections/{id}', 'patch'>;
export type ConnectLinkParams = BodyOf<'/v1/connections/links', 'post'>;
export type ConnectLink = ResponseOf<'/v1/connections/links/{id}', 'get'>;
export type ConnectionCheck = ResponseOf<'/v1/connections/{id}/check', 'post'>;
export type ConnectionTools = ResponseOf<'/v1/connections/{id}/tools', 'get'>;
/** A saved login as the API shows it: the sites it holds and its health, never its state (docs/api.md, Profiles). */
export type Profile = ResponseOf<'/v1/profiles/{id}', 'get'>;
export type ProfileCreateParams = BodyOf<'/v1/profiles', 'post'>;
export type ProfileUpdateParams = BodyOf<'/v1/profiles/{id}', 'patch'>;
/** A Playwright storage state (`context.storageState()`), as a profile is imported from. */
export type StorageState = NonNullable<ProfileCreateParams['state']>;
/** One run's use of a profile: read or read_write, and whether it saved it. */
export type ProfileUse = ListItem<ResponseOf<'/v1/profiles/{id}/runs', 'get'>>;
export type EmailSendParams = BodyOf<'/v1/emails', 'post'>;
export type EmailSent = ResponseOf<'/v1/emails', 'post'>;
export type Email = ResponseOf<'/v1/emails/{id}', 'get'>;
export type EmailListItem = ListItem<ResponseOf<'/v1/emails', 'get'>>;
export type EmailIdentity = ResponseOf<'/v1/emails/identity', 'get'>;
export type EmailIdentityParams = BodyOf<'/v1/emails/identity', 'post'>;
export type DomainVerification = ResponseOf<'/v1/emails/identity/domain/verify', 'post'>;
export type Suppression = ListItem<ResponseOf<'/v1/emails/suppressions', 'get'>>;
export type ReceivedEmail = ResponseOf<'/v1/emails/received/{id}', 'get'>;
export type ReceivedEmailListItem = ListItem<ResponseOf<'/v1/emails/received', 'get'>>;
export type ReceivedEmailListParams = QueryOf<'/v1/emails/received', 'get'>;
export type SimulateReplyParams = BodyOf<'/v1/emails/{id}/simulate_reply', 'post'>;
export type SimulatedReply = ResponseOf<'/v1/emails/{id}/simulate_reply', 'post'>;
export type Inbox = ResponseOf<'/v1/inboxes/{id}', 'get'>;
export type InboxCreateParams = BodyOf<'/v1/inboxes', 'post'>;
export type InboxUpdateParams = BodyOf<'/v1/inboxes/{id}', 'patch'>;
export type InboxMessageParams = BodyOf<'/v1/inboxes/{id}/messages', 'post'>;
export type InboxMessageSent = ResponseOf<'/v1/inboxes/{id}/messages', 'post'>;
/** An uploaded file's record (`POST /v1/files`); its id goes in a run's `files`. */
export type FileObject = ResponseOf<'/v1/files/{id}', 'get'>;
export type FileListParams = QueryOf<'/v1/files', 'get'>;
/** One of a run's own files: what its browser downloaded and its code wrote, with a signed `url`. */
export type RunFile = ListItem<ResponseOf<'/v1/runs/{id}/files', 'get'>>;
export type Deleted<P extends keyof paths> = P extends keyof paths ? ResponseOf<P, 'delete' & keyof paths[P]> : never;

/** A webhook's body, `{event, data}`, typed by `event`. */
export type WebhookEvent = { [K in keyof webhooks]: Json<webhooks[K]['post']['requestBody']> }[keyof webhooks];
export type WebhookEventType = WebhookEvent['event'];

export type { paths, webhooks, components } from './generated/openapi.js';
