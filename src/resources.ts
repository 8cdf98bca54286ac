import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Config } from './config/schema.js';
import type { EventBus } from './events.js';
import type { IdFactory } from './ids.js';
import type { Store } from './store/store.js';

/** What every service receives: wired once by the daemon (or the CLI's admin commands), never global. */
export interface Resources {
  store: Store;
  clock: Clock;
  logger: Logger;
  events: EventBus;
  config: Config;
  ids: IdFactory;
  /** The data directory (ERRAND_HOME). */
  home: string;
}
