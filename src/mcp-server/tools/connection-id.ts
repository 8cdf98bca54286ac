/** The `connection_id` argument of the tools that act on one connection. */
export const connectionIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description: 'The connection\'s id (conn_...), from list_connections or connect_link.',
} as const;
