/**
 * The error catalogue. Every error a caller can see is one of these classes; `daemon/plugins/error-handler.ts`
 * maps them to the shared error shape in exactly one place.
 */
export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'quota_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'api_error';

export interface ErrandErrorOptions {
  param?: string;
  headers?: Record<string, string>;
}

export abstract class ErrandError extends Error {
  abstract readonly type: ErrorType;
  abstract readonly status: number;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: string,
    message: string,
    options: ErrandErrorOptions = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.param = options.param;
    this.headers = options.headers ?? {};
  }
}

export class InvalidRequestError extends ErrandError {
  readonly type = 'invalid_request_error';
  readonly status: number = 400;
}

export class PayloadTooLargeError extends InvalidRequestError {
  override readonly status = 413;
}

export class UnsupportedMediaTypeError extends InvalidRequestError {
  override readonly status = 415;
}

/** The request line and headers were larger than Node's parser takes. */
export class HeadersTooLargeError extends InvalidRequestError {
  override readonly status = 431;
}

/** The request did not arrive within Node's request timeout. */
export class RequestTimeoutError extends InvalidRequestError {
  override readonly status = 408;
}

/** A known path asked with a method it does not take; `Allow` lists those it does (RFC 9110 §15.5.6). */
export class MethodNotAllowedError extends InvalidRequestError {
  override readonly status = 405;
  constructor(method: string, path: string, allowed: readonly string[]) {
    super('method_not_allowed', `${path} does not take ${method}; it takes ${allowed.join(', ')}`, { headers: { Allow: allowed.join(', ') } });
  }
}

export class AuthenticationError extends ErrandError {
  readonly type = 'authentication_error';
  readonly status = 401;
  constructor(code: string, message: string) {
    super(code, message, { headers: { 'WWW-Authenticate': 'Bearer' } });
  }
}

export class QuotaError extends ErrandError {
  readonly type = 'quota_error';
  readonly status = 402;
}

/** `resource_missing` in words of its own, for a resource that has no id of its caller's to name (the organisation's identity). */
export class ResourceMissingError extends ErrandError {
  readonly type = 'not_found_error';
  readonly status = 404;
  constructor(message: string, param?: string) {
    super('resource_missing', message, param === undefined ? {} : { param });
  }
}

export class NotFoundError extends ResourceMissingError {
  constructor(resource: string, id: string, param?: string) {
    super(`No such ${resource}: '${id}'`, param);
  }
}

export class RouteNotFoundError extends ErrandError {
  readonly type = 'not_found_error';
  readonly status = 404;
}

export class ConflictError extends ErrandError {
  readonly type = 'conflict_error';
  readonly status = 409;
}

export class RateLimitError extends ErrandError {
  readonly type = 'rate_limit_error';
  readonly status = 429;
  constructor(code: string, message: string, retryAfterSeconds: number) {
    super(code, message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
  }
}

export class InternalError extends ErrandError {
  readonly type = 'api_error';
  readonly status = 500;
}

/** Raised for bad configuration: the daemon refuses to start and names the key. */
export class ConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`config ${key}: ${message}`);
    this.name = 'ConfigError';
  }
}

/**
 * An error of the OAuth 2.1 endpoints and of the MCP resource server's bearer check. OAuth clients read RFC 6749's
 * shape (`{"error": "invalid_grant", "error_description": "..."}`, §5.2) and RFC 6750's `WWW-Authenticate`
 * challenge, not the REST API's, so these are a family of their own; `daemon/plugins/error-handler.ts` maps them.
 */
export class OAuthServerError extends Error {
  constructor(
    /** The RFC's error code: `invalid_request`, `invalid_client`, `invalid_grant`, `invalid_token`, ... */
    readonly error: string,
    readonly description: string,
    readonly status: number = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthServerError';
  }
}
