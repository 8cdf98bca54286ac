import type { Logger } from 'pino';
import { dataPaths } from '../runtime/paths.js';
import type { Subsystem } from '../subsystem.js';
import { openStore, type Store } from './store.js';
import { WalCheckpointer } from './wal-checkpointer.js';

/** The data directory's store, and the thread that checkpoints it. Everything writes to it: it closes last. */
export function storageSubsystem(options: { home: string; logger: Logger }): Subsystem<{ store: Store }> {
  const store = openStore(dataPaths(options.home).database);
  const checkpointer = new WalCheckpointer(store.db, { logger: options.logger.child({ component: 'checkpoints' }) });
  return {
    name: 'storage',
    services: { store },
    start() {
      checkpointer.start();
      // The count of active runs is kept by the code that changes runs; recounting it here mends any drift (a run
      // deleted by hand) before the first run is admitted.
      store.transaction((uow) => store.runs.recountActive(uow));
    },
    async close() {
      try {
        await checkpointer.close();
      } finally {
        store.close();
      }
    },
  };
}
