import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { HeadersTooLargeError, InvalidRequestError, RequestTimeoutError, type ErrandError } from '../src/errors.js';

/** How long a socket whose request could not be parsed may stay open for the client to read the answer and close. */
const LINGER_MS = 2_000;

/**
 * What a request Node's HTTP parser refused is told (#10): the errors Node raises before Fastify sees a request
 * (`clientError`), in the same catalogue as every other error.
 */
export function clientErrorOf(err: NodeJS.ErrnoException): ErrandError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HeadersTooLargeError('headers_too_large', 'The request line and headers are larger than 16 KiB');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RequestTimeoutError('request_timeout', 'The request was not received in time');
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new InvalidRequestError('invalid_content_length', 'The Content-Length header is not a single non-negative decimal number, or contradicts Transfer-Encoding');
    default:
      return new InvalidRequestError('malformed_request', `The request is not valid HTTP/1.1 (${reasonOf(err)})`);
  }
}

/** Node's parse errors read "Parse Error: Invalid header value char"; the part after the colon says what. */
function reasonOf(err: NodeJS.ErrnoException): string {
  const reason = (err as { reason?: unknown }).reason;
  return typeof reason === 'string' && reason !== '' ? reason : err.message.replace(/^Parse Error:\s*/, '');
}

/**
 * Answers a request Node could not parse, on its raw socket, in the shared error shape with a request id, and closes
 * the connection the way a client can see coming: `Connection: close`, then a half-close once the answer is
 * written, so that a keep-alive client reads the answer instead of a reset and does not send on the socket again.
 * Nothing is written when the client is gone.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket, requestId: string): ErrandError | null {
  if (err.code === 'ECONNRESET' || socket.destroyed) return null;
  if (!socket.writable) {
    socket.destroy();
    return null;
  }
  const error = clientErrorOf(err);
  const body = JSON.stringify({ error: { type: error.type, code: error.code, message: error.message }, request_id: requestId });
  const head = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  // The client normally closes its end once it has the answer; one that keeps the socket open loses it.
  socket.setTimeout(LINGER_MS, () => socket.destroy());
  return error;
}
