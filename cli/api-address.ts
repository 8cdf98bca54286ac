import { readCredentials } from '../src/runtime/credentials.js';
import { readDaemonState } from '../src/runtime/daemon-state.js';
import { dataPaths } from '../src/runtime/paths.js';
import { UsageError, UserError } from './cli-errors.js';
import { cliName } from './invocation.js';

export type AddressSource = 'environment' | 'credentials' | 'daemon';

export interface ApiAddress {
  url: string;
  key: string;
  urlSource: AddressSource;
  keySource: Exclude<AddressSource, 'daemon'>;
}

/**
 * Where the API is and which key to use: `ERRAND_API_URL` / `ERRAND_API_KEY`, then the credentials saved by
 * `errand login` (or by the daemon's first start), then, for the address only, the daemon running on this data
 * directory. Each part is resolved on its own, so a saved key works against a daemon that moved port.
 */
export function resolveApiAddress(home: string, env: NodeJS.ProcessEnv): ApiAddress {
  const paths = dataPaths(home);
  const creds = readCredentials(paths.credentials);
  let url: string | null = null;
  let urlSource: AddressSource = 'environment';
  if (env.ERRAND_API_URL) url = checkedApiUrl(env.ERRAND_API_URL, 'ERRAND_API_URL');
  else if (creds?.api_url) {
    url = creds.api_url;
    urlSource = 'credentials';
  } else {
    const running = readDaemonState(paths.daemonState);
    if (running) {
      url = running.url;
      urlSource = 'daemon';
    }
  }
  if (url === null) {
    const cli = cliName(env);
    throw new UserError(`no Errand API to talk to: no daemon runs on ${home} (start one with '${cli} daemon start'), and neither ERRAND_API_URL nor '${cli} login --url' names one`, 'no_daemon');
  }
  let key: string | null = null;
  let keySource: ApiAddress['keySource'] = 'environment';
  if (env.ERRAND_API_KEY) key = env.ERRAND_API_KEY;
  else if (creds?.api_key) {
    key = creds.api_key;
    keySource = 'credentials';
  }
  if (key === null) throw new UserError(`no API key: set ERRAND_API_KEY or run '${cliName(env)} login' (mint one with '${cliName(env)} keys create')`, 'no_api_key');
  return { url, key, urlSource, keySource };
}

/**
 * An API address given by the user (`name`: ERRAND_API_URL, --url) must say its scheme: `localhost:7370` would be
 * read as a URL of scheme "localhost".
 */
export function checkedApiUrl(value: string, name: string): string {
  if (!/^https?:\/\/[^/\s]/i.test(value)) {
    throw new UsageError(`${name} must be an http:// or https:// URL such as http://127.0.0.1:7370, got '${value}'`, 'invalid_api_url', name);
  }
  return value;
}

/** `http://host:port`, whether the address was given as the origin or as the `/v1` base the spec speaks of. */
export function apiOrigin(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}
