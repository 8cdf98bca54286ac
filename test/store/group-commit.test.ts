import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/database.js';
import { GroupCommit } from '../../src/store/group-commit.js';
import { tempDir } from '../fixtures/temp-dir.js';

describe('GroupCommit', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Db;
  let observer: Database.Database;
  let group: GroupCommit;

  beforeEach(() => {
    dir = tempDir('errand-group-');
    db = openDatabase(`${dir.path}/errand.db`);
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
    // A second connection looks at what is committed.
    observer = new Database(`${dir.path}/errand.db`);
    group = new GroupCommit(db);
  });
  afterEach(() => {
    observer.close();
    db.close();
    dir.remove();
  });

  const insert = (text: string) => () => Number(db.prepare('INSERT INTO notes (text) VALUES (?)').run(text).lastInsertRowid);
  const notes = () => observer.prepare('SELECT text FROM notes ORDER BY id').pluck().all();
  /**
   * Pages the commits made by `fn` wrote to the write-ahead log. A checkpoint first copies the log into the
   * database, so that the next commit starts the log over.
   */
  const framesWrittenBy = async (fn: () => Promise<unknown>): Promise<number> => {
    observer.pragma('wal_checkpoint(PASSIVE)');
    await fn();
    return (observer.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
  };

  it('commits the units of one turn in one transaction, and settles each once that commit is visible', async () => {
    const oneUnit = await framesWrittenBy(() => group.run(insert('alone')));
    expect(oneUnit).toBeGreaterThan(0);
    const seenAtSettle: unknown[][] = [];
    const threeUnits = await framesWrittenBy(async () => {
      const units = ['a', 'b', 'c'].map((t) => group.run(insert(t)).then((id) => (seenAtSettle.push(notes()), id)));
      expect(await Promise.all(units)).toEqual([2, 3, 4]);
    });
    expect(threeUnits).toBe(oneUnit);
    const all = ['alone', 'a', 'b', 'c'];
    expect(seenAtSettle).toEqual([all, all, all]);
  });

  it('rejects a unit that refuses before writing, alone, and commits the others', async () => {
    const refused = group.run(() => {
      throw new Error('refused');
    });
    const kept = [group.run(insert('a')), group.run(insert('b'))];
    await expect(refused).rejects.toThrow('refused');
    await Promise.all(kept);
    expect(notes()).toEqual(['a', 'b']);
  });

  it('undoes the writes of a unit that fails after writing, and still commits the others', async () => {
    const first = group.run(insert('a'));
    const broken = group.run(() => {
      insert('half-done')();
      insert('a')(); // UNIQUE: fails after the unit has written
    });
    const last = group.run(insert('z'));
    await expect(broken).rejects.toThrow(/UNIQUE/);
    await expect(first).resolves.toBe(1);
    await expect(last).resolves.toBeGreaterThan(1);
    expect(notes()).toEqual(['a', 'z']);
  });

  it('starts a new group for units submitted after a flush', async () => {
    const oneUnit = await framesWrittenBy(() => group.run(insert('a')));
    const twoTurns = await framesWrittenBy(async () => {
      await group.run(insert('b'));
      await group.run(insert('c'));
    });
    expect(twoTurns).toBe(2 * oneUnit);
  });
});
