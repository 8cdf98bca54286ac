/**
 * The addresses of the MCP front door, all built from the daemon's public address (`public_url`, or where it
 * listens): the protected resource `/mcp` (RFC 8707 resource indicator and RFC 9728 metadata), and the
 * authorization server whose issuer is the public address itself (RFC 8414).
 */
export class McpEndpoints {
  constructor(private readonly publicUrl: () => string) {}

  private base(): string {
    return this.publicUrl().replace(/\/+$/, '');
  }

  /** The resource identifier tokens are issued for, and the MCP endpoint clients connect to. */
  resource(): string {
    return `${this.base()}/mcp`;
  }

  /** RFC 9728 §3.1: the well-known path inserted before the resource's path. */
  resourceMetadata(): string {
    return `${this.base()}/.well-known/oauth-protected-resource/mcp`;
  }

  issuer(): string {
    return this.base();
  }

  authorizationEndpoint(): string {
    return `${this.base()}/oauth/authorize`;
  }

  tokenEndpoint(): string {
    return `${this.base()}/oauth/token`;
  }

  registrationEndpoint(): string {
    return `${this.base()}/oauth/register`;
  }

  revocationEndpoint(): string {
    return `${this.base()}/oauth/revoke`;
  }

  /** The origin browsers send in `Origin` when a page of the daemon itself calls it. */
  origin(): string {
    return new URL(this.base()).origin;
  }
}
