/**
 * A connection the run named cannot be used after all (its MCP server refused or did not answer): the run fails
 * with auth_required, and the message says which connection and why.
 */
export class ConnectionRequiredError extends Error {
  constructor(
    readonly connectionName: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectionRequiredError';
  }
}
