/**
 * What a call can throw. An answer in the API's error shape becomes the subclass of APIError its `error.type`
 * names, carrying `type`, `code`, `param`, the HTTP status and the request id (the `X-Request-Id` header, which the
 * body repeats); a request that got no answer is an APIConnectionError (APITimeoutError when the timeout ran out).
 */

/** Every error the SDK throws. */
export class ErrandError extends Error {
  override name = 'ErrandError';
}

/** The error types of the API's error shape (`error.type`); 403s (signed links) are `authentication_error`. */
export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'quota_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'api_error';

export interface APIErrorFields {
  status: number;
  type: string;
  code: string;
  message: string;
  /** Whether the body had the API's error shape (default true). */
  shaped?: boolean;
  param: string | null;
  requestId: string | null;
  headers: Headers;
  body: unknown;
}

/** The daemon (or something between) answered with an error status. */
export class APIError extends ErrandError {
  override name = 'APIError';
  /** The HTTP status. */
  readonly status: number;
  /** `error.type`: the family (`invalid_request_error`, `not_found_error`, ...). */
  readonly type: string;
  /** `error.code`: the precise reason (`resource_missing`, `idempotency_key_reused`, ...). */
  readonly code: string;
  /** `error.param`: the member, parameter or header the error is about, or null. */
  readonly param: string | null;
  /** The request's id (`X-Request-Id`): the daemon's log line for the request has it. */
  readonly requestId: string | null;
  /**
   * `error.message` as the API wrote it, for a person to read (`message` adds the status, code and request id). For
   * an answer not in the API's shape (a proxy's page), the start of its text, or `HTTP <status>`.
   */
  readonly apiMessage: string;
  /** Whether the body had the API's error shape; false for an answer from something in between (a proxy's page). */
  readonly shaped: boolean;
  readonly headers: Headers;
  /** The parsed body (or its text when it was not JSON). */
  readonly body: unknown;

  constructor(fields: APIErrorFields) {
    super(`${fields.status} ${fields.code}: ${fields.message}${fields.requestId ? ` (request ${fields.requestId})` : ''}`);
    this.status = fields.status;
    this.type = fields.type;
    this.code = fields.code;
    this.apiMessage = fields.message;
    this.shaped = fields.shaped ?? true;
    this.param = fields.param;
    this.requestId = fields.requestId;
    this.headers = fields.headers;
    this.body = fields.body;
  }

  /** Snake-case alias of `requestId`, as the API spells it. */
  get request_id(): string | null {
    return this.requestId;
  }
}

export class InvalidRequestError extends APIError { override name = 'InvalidRequestError'; }
export class AuthenticationError extends APIError { override name = 'AuthenticationError'; }
/** 402: a spending cap or budget refused the request. */
export class QuotaError extends APIError { override name = 'QuotaError'; }
export class NotFoundError extends APIError { override name = 'NotFoundError'; }
export class ConflictError extends APIError { override name = 'ConflictError'; }
export class RateLimitError extends APIError { override name = 'RateLimitError'; }
/** 5xx: the daemon failed (`internal_error`), or a proxy in front of it. */
export class InternalServerError extends APIError { override name = 'InternalServerError'; }

const BY_TYPE: Record<string, new (fields: APIErrorFields) => APIError> = {
  invalid_request_error: InvalidRequestError,
  authentication_error: AuthenticationError,
  quota_error: QuotaError,
  not_found_error: NotFoundError,
  conflict_error: ConflictError,
  rate_limit_error: RateLimitError,
  api_error: InternalServerError,
};

const BY_STATUS: Record<number, new (fields: APIErrorFields) => APIError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  402: QuotaError,
  403: AuthenticationError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

/** The APIError subclass for an error answer: by `error.type` when the body has the API's shape, else by status. */
export function errorFromResponse(status: number, headers: Headers, body: unknown): APIError {
  const shaped = errorShape(body);
  const requestId = headers.get('x-request-id') ?? shaped?.requestId ?? null;
  const type = shaped?.type ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  const fields: APIErrorFields = {
    status,
    type,
    code: shaped?.code ?? `http_${status}`,
    message: shaped?.message ?? (typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 500) : `HTTP ${status}`),
    shaped: shaped !== null,
    param: shaped?.param ?? null,
    requestId,
    headers,
    body,
  };
  const Class = (shaped && BY_TYPE[shaped.type]) ?? BY_STATUS[status] ?? (status >= 500 ? InternalServerError : APIError);
  return new Class(fields);
}

function errorShape(body: unknown): { type: string; code: string; message: string; param: string | null; requestId: string | null } | null {
  if (typeof body !== 'object' || body === null) return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const e = error as Record<string, unknown>;
  if (typeof e.type !== 'string' || typeof e.code !== 'string') return null;
  const requestId = (body as { request_id?: unknown }).request_id;
  return {
    type: e.type,
    code: e.code,
    message: typeof e.message === 'string' ? e.message : e.code,
    param: typeof e.param === 'string' ? e.param : null,
    requestId: typeof requestId === 'string' ? requestId : null,
  };
}

/** No answer: the connection failed or was cut. */
export class APIConnectionError extends ErrandError {
  override name = 'APIConnectionError';
  /** The daemon's address that gave no answer (the client's `baseUrl`); null when the error is not about one. */
  readonly baseUrl: string | null;
  constructor(message: string, options?: { cause?: unknown; baseUrl?: string }) {
    super(message, options);
    this.baseUrl = options?.baseUrl ?? null;
  }
}

/** No answer within the configured timeout. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError';
  readonly timeoutMs: number;
  constructor(timeoutMs: number, options?: { baseUrl?: string }) {
    super(`request timed out after ${timeoutMs} ms`, options);
    this.timeoutMs = timeoutMs;
  }
}

/** A waiting call (`runs.createAndWait`, `runs.wait`, `evals.wait`) ran out of time before the run or eval ended. */
export class WaitTimeoutError extends ErrandError {
  override name = 'WaitTimeoutError';
  /** The id waited for: a run's, or an eval's. */
  readonly runId: string;
  constructor(id: string, timeoutMs: number, what: 'run' | 'eval' = 'run') {
    super(`${what} ${id} had not ended after ${timeoutMs} ms`);
    this.runId = id;
  }
}

/** `webhooks.verify` refused a delivery: missing headers, a bad signature, or a timestamp outside the tolerance. */
export class WebhookVerificationError extends ErrandError {
  override name = 'WebhookVerificationError';
  /** `missing_headers`, `invalid_signature`, `timestamp_too_old`, `timestamp_too_new`, `invalid_body`, `invalid_secret`. */
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * The secret given to verify is not a signing secret (code `invalid_secret`): empty (an unset environment variable),
 * without its `whsec_` prefix, not base64, or too short. Nothing is verified with it. A WebhookVerificationError too,
 * so a handler that answers those with a 400 acts on no webhook; the message says what is wrong, never the secret.
 */
export class WebhookSecretError extends WebhookVerificationError {
  override name = 'WebhookSecretError';
  constructor(message: string) {
    super('invalid_secret', message);
  }
}
