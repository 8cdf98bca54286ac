import type { SecretBox } from '../secrets/secret-box.js';
import type { ConnectionRow } from '../store/connections-table.js';
import { parseTotpSeed } from './totp/totp-seed.js';
import { splitSecret } from './proxy/proxy-url.js';

/** What an oauth connection's sealed secret holds. */
export interface OAuthTokens {
  access_token: string;
  refresh_token: string | null;
}

/**
 * Seals and opens connections' secrets, bound to the connection's id (a sealed value copied onto another
 * connection does not open). Nothing outside the connections code sees a sealed or opened value.
 */
export class ConnectionSecrets {
  constructor(private readonly box: SecretBox) {}

  seal(connectionId: string, secret: string): string {
    return this.box.seal(secret, connectionId);
  }

  sealTokens(connectionId: string, tokens: OAuthTokens): string {
    return this.box.seal(JSON.stringify(tokens), connectionId);
  }

  /** The secret of a token, mcp, totp or proxy connection (a proxy's is `user:password`), or null when none is stored. */
  secretOf(row: ConnectionRow): string | null {
    return row.type === 'oauth' || row.secret_enc === null ? null : this.box.open(row.secret_enc, row.id);
  }

  /** The tokens of an oauth connection, or null before the connect flow has stored any. */
  tokensOf(row: ConnectionRow): OAuthTokens | null {
    return row.type !== 'oauth' || row.secret_enc === null ? null : (JSON.parse(this.box.open(row.secret_enc, row.id)) as OAuthTokens);
  }

  /** Every secret value the row holds, for masking: a totp seed in each form it may be written in, a proxy's password alone too. */
  valuesOf(row: ConnectionRow): string[] {
    if (row.type === 'totp') {
      const secret = this.secretOf(row);
      return secret === null ? [] : parseTotpSeed(secret).forms;
    }
    if (row.type === 'proxy') {
      const secret = this.secretOf(row);
      return secret === null ? [] : [secret, splitSecret(secret).password].filter((v) => v !== '');
    }
    if (row.type !== 'oauth') return [this.secretOf(row)].filter((v): v is string => v !== null);
    const tokens = this.tokensOf(row);
    return tokens === null ? [] : [tokens.access_token, tokens.refresh_token].filter((v): v is string => v !== null && v !== '');
  }
}
