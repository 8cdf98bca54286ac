import { describe, expect, it } from 'vitest';
import { parseOAuthProviders } from '../../../src/connections/oauth-client/oauth-providers.js';
import { ConfigError } from '../../../src/errors.js';

describe('parseOAuthProviders', () => {
  it('fills a preset from its name, so only the client is configured', () => {
    const github = parseOAuthProviders({ github: { client_id: 'id', client_secret: 'secret' } }, { dev: false }).get('github')!;
    expect(github).toMatchObject({
      authorizeUrl: 'https://github.com/login/oauth/authorize',
      tokenUrl: 'https://github.com/login/oauth/access_token',
      issuer: 'https://github.com',
      clientId: 'id',
      clientSecret: 'secret',
      scopes: ['repo'],
      envVarName: 'GITHUB_TOKEN',
    });
  });

  it('takes a provider given in full, and a preset under another name', () => {
    const providers = parseOAuthProviders(
      {
        crm: { authorize_url: 'https://crm.example/oauth/authorize', token_url: 'https://crm.example/oauth/token', client_id: 'c', scopes: 'read write' },
        'work-google': { preset: 'google', client_id: 'g', client_secret: 's', scopes: ['openid'] },
      },
      { dev: false },
    );
    expect(providers.get('crm')).toMatchObject({ clientSecret: null, scopes: ['read', 'write'], envVarName: 'CRM_ACCESS_TOKEN', tokenAuth: 'client_secret_post' });
    expect(providers.get('work-google')).toMatchObject({ scopes: ['openid'], authorizeParams: { access_type: 'offline', prompt: 'consent' }, envVarName: 'GOOGLE_ACCESS_TOKEN' });
  });

  it.each([
    [{ crm: { token_url: 'https://crm.example/t', client_id: 'c' } }, 'oauth.providers.crm.authorize_url', /is required/],
    [{ crm: { authorize_url: 'http://crm.example/a', token_url: 'https://crm.example/t', client_id: 'c' } }, 'oauth.providers.crm.authorize_url', /https/],
    [{ github: {} }, 'oauth.providers.github.client_id', /is required/],
    [{ github: { client_id: 'c', secret: 'x' } }, 'oauth.providers.github.secret', /not a provider setting/],
    [{ x: { preset: 'nope', client_id: 'c' } }, 'oauth.providers.x.preset', /not a preset/],
    [{ 'bad name': { preset: 'github', client_id: 'c' } }, 'oauth.providers.bad name', /letters, digits/],
  ])('refuses %j, naming %s', (raw, key, message) => {
    let error: unknown;
    try {
      parseOAuthProviders(raw, { dev: false });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).key).toBe(key);
    expect((error as ConfigError).message).toMatch(message);
  });

  it('allows http endpoints in dev mode', () => {
    expect(parseOAuthProviders({ local: { authorize_url: 'http://127.0.0.1:9/a', token_url: 'http://127.0.0.1:9/t', client_id: 'c' } }, { dev: true }).size).toBe(1);
  });
});
