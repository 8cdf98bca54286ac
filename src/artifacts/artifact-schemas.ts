import { idParam, signedLinkQuery } from '../http-schemas/common.js';

const errorResponse = { $ref: 'ErrorResponse#' } as const;

/**
 * `expires` and `sig` are optional here so that a link without them is a 403 (not signed) rather than a 400:
 * whatever is wrong with a signed link, the answer is the same.
 */
export const artifactRouteSchemas = {
  get: {
    params: idParam('art'),
    querystring: signedLinkQuery,
    response: {
      200: {
        description: 'The artifact: a PNG screenshot, a WebM recording of the browser, or a Playwright trace (zip; open it with `errand runs open <id> --trace`).',
        content: {
          'image/png': { schema: { type: 'string', format: 'binary' } },
          'video/webm': { schema: { type: 'string', format: 'binary' } },
          'application/zip': { schema: { type: 'string', format: 'binary' } },
        },
      },
      403: errorResponse,
      404: errorResponse,
      410: errorResponse,
    },
  },
} as const;
