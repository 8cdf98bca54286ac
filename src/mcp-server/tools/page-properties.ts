import { listQuery } from '../../http-schemas/common.js';

/** `limit` and `cursor` of the list tools: the REST lists' bounds, with a smaller default page for a model to read. */
export function pageProperties(prefix: string) {
  const { limit, cursor } = listQuery(prefix).properties;
  return {
    limit: { type: limit.type, minimum: limit.minimum, maximum: limit.maximum, description: 'Page size, 1 to 200; default 20.' },
    cursor,
  } as const;
}
