import { ErrandError } from '../errors.js';

/**
 * A signed artifact link whose signature does not match (a changed id, expiry or sig, or no signature at all).
 * 403 rather than 404: the link is not one the daemon made, whatever it points at.
 */
export class LinkSignatureError extends ErrandError {
  readonly type = 'invalid_request_error';
  readonly status = 403;
  constructor() {
    super('invalid_link_signature', 'This link is not valid: its signature does not match. Ask the API for the run again to get a fresh link');
  }
}

/** A genuine link past its expiry: 410, since it will never work again; polling the run gives a fresh one. */
export class LinkExpiredError extends ErrandError {
  readonly type = 'invalid_request_error';
  readonly status = 410;
  constructor(expiredAt: string) {
    super('link_expired', `This link expired at ${expiredAt}. Ask the API for the run again to get a fresh link`);
  }
}
