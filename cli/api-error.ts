/** An error answer of the /v1 API, in the decisions page's shape. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    message: string,
    readonly param: string | null,
    readonly requestId: string | null,
  ) {
    super(message);
  }

  /** Builds the error from a response body, tolerating bodies that are not in the shared shape (a proxy's page). */
  static fromResponse(status: number, body: unknown, headerRequestId: string | null): ApiError {
    const envelope = isRecord(body) && isRecord(body.error) ? body.error : null;
    const requestId = isRecord(body) && typeof body.request_id === 'string' ? body.request_id : headerRequestId;
    if (!envelope) {
      const text = typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 200) : `HTTP ${status}`;
      return new ApiError(status, 'api_error', `http_${status}`, text, null, requestId);
    }
    return new ApiError(
      status,
      typeof envelope.type === 'string' ? envelope.type : 'api_error',
      typeof envelope.code === 'string' ? envelope.code : `http_${status}`,
      typeof envelope.message === 'string' ? envelope.message : `HTTP ${status}`,
      typeof envelope.param === 'string' ? envelope.param : null,
      requestId,
    );
  }
}

/** The API could not be reached at all (refused, DNS, reset): the daemon is probably not running. */
export class ApiConnectionError extends Error {
  override readonly name = 'ApiConnectionError';

  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`cannot reach the Errand API at ${url} (${reason})`);
  }
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
