import { readCredentials } from '../src/runtime/credentials.js';
import { readDaemonState } from '../src/runtime/daemon-state.js';
import { dataPaths } from '../src/runtime/paths.js';
import { UserError } from './cli-errors.js';

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
  if (env.ERRAND_API_URL) url = env.ERRAND_API_URL;
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
    throw new UserError(`no Errand API to talk to: no daemon runs on ${home} (start one with 'errand daemon start'), and neither ERRAND_API_URL nor 'errand login --url' names one`);
  }
  let key: string | null = null;
  let keySource: ApiAddress['keySource'] = 'environment';
  if (env.ERRAND_API_KEY) key = env.ERRAND_API_KEY;
  else if (creds?.api_key) {
    key = creds.api_key;
    keySource = 'credentials';
  }
  if (key === null) throw new UserError(`no API key: set ERRAND_API_KEY or run 'errand login' (mint one with 'errand keys create')`);
  return { url, key, urlSource, keySource };
}
