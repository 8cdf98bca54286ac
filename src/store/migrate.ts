import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

/** The first line of a migration that rebuilds a table, which must run with foreign keys off. */
const REBUILDS_TABLES = '-- migrate: rebuilds tables';

/**
 * Applies `migrations/NNN-name.sql` in order, tracked by SQLite's `user_version`. Each file runs in its own
 * transaction, so a failed migration leaves the database at the previous version. A hand-rolled runner because
 * the libraries for this (umzug, knex) bring async storage adapters that a synchronous driver doesn't need.
 */
export function migrate(db: Database.Database, dir: string = defaultMigrationsDir()): { from: number; to: number } {
  const files = readdirSync(dir)
    .filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f))
    .sort();
  const from = db.pragma('user_version', { simple: true }) as number;
  let version = from;
  for (const file of files) {
    const n = Number(file.slice(0, 3));
    if (n <= version) continue;
    if (n !== version + 1) throw new Error(`migration ${file} skips a version (database is at ${version})`);
    const sql = readFileSync(`${dir}/${file}`, 'utf8');
    // Rebuilding a table (to change a CHECK) drops the old one, which with foreign keys on would delete every row
    // that references it: SQLite's procedure turns them off around the transaction and checks them before commit.
    const rebuilds = sql.startsWith(REBUILDS_TABLES);
    const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
    if (rebuilds) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(sql);
        if (rebuilds && (db.pragma('foreign_key_check') as unknown[]).length > 0) throw new Error(`migration ${file} breaks a foreign key`);
        db.pragma(`user_version = ${n}`);
      })();
    } finally {
      if (rebuilds) db.pragma(`foreign_keys = ${foreignKeys}`);
    }
    version = n;
  }
  return { from, to: version };
}

/** The migration number a database reaches once this build has migrated it. */
export function latestSchemaVersion(dir: string = defaultMigrationsDir()): number {
  return Math.max(0, ...readdirSync(dir).filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f)).map((f) => Number(f.slice(0, 3))));
}

function defaultMigrationsDir(): string {
  // Compiled code runs from dist/src/store; the .sql files stay in src/store/migrations beside the sources.
  const here = fileURLToPath(new URL('.', import.meta.url));
  return here.includes('/dist/') ? here.replace(/\/dist\/src\/store\/?$/, '/src/store/migrations') : `${here}migrations`;
}
