/**
 * A table's columns, written once, from which its row type, its SELECT list, the builder of rows read as arrays,
 * and its named-parameter INSERT and UPDATE statements all derive. A column with a default has the same DEFAULT in
 * its migration: an insert names only the columns it is given, and `withDefaults` says what SQLite then stored.
 *
 *   const things = defineColumns('things', { id: fixed<string>(), note: patchable<string | null>(null) });
 *   type ThingRow = RowOf<typeof things>;
 */
export interface ColumnSpec<T, Patchable extends boolean = boolean, Defaulted extends boolean = boolean> {
  /** Only carries the column's TypeScript type. */
  readonly type?: T;
  /** Whether a patch may change it after the row was inserted. */
  readonly patchable: Patchable;
  /** Whether an insert may leave it out, and then gets `defaultValue` (its SQL DEFAULT). */
  readonly defaulted: Defaulted;
  readonly defaultValue?: T;
}

/** Set at insert, never patched (a patch cannot name it; only a dedicated statement changes it). */
export function fixed<T>(): ColumnSpec<T, false, false> {
  return { patchable: false, defaulted: false };
}

/** May be patched; given a default, an insert may leave it out. */
export function patchable<T>(): ColumnSpec<T, true, false>;
export function patchable<T>(defaultValue: T): ColumnSpec<T, true, true>;
export function patchable<T>(...defaultValue: [] | [T]): ColumnSpec<T, true, boolean> {
  return defaultValue.length === 0 ? { patchable: true, defaulted: false } : { patchable: true, defaulted: true, defaultValue: defaultValue[0] };
}

type Specs = Record<string, ColumnSpec<unknown>>;
type TypeOf<S> = S extends ColumnSpec<infer T> ? T : never;
type Defaulted<C extends Specs> = { [K in keyof C]: C[K] extends ColumnSpec<unknown, boolean, true> ? K : never }[keyof C];
type Patchable<C extends Specs> = { [K in keyof C]: C[K] extends ColumnSpec<unknown, true> ? K : never }[keyof C];
type SpecsOf<T extends { readonly specs: Specs }> = T['specs'];

export type RowOf<T extends { readonly specs: Specs }> = { [K in keyof SpecsOf<T>]: TypeOf<SpecsOf<T>[K]> };
export type InsertOf<T extends { readonly specs: Specs }> = { [K in Exclude<keyof SpecsOf<T>, Defaulted<SpecsOf<T>>>]: TypeOf<SpecsOf<T>[K]> } & {
  [K in Defaulted<SpecsOf<T>>]?: TypeOf<SpecsOf<T>[K]>;
};
export type PatchOf<T extends { readonly specs: Specs }> = { [K in Patchable<SpecsOf<T>>]?: TypeOf<SpecsOf<T>[K]> };

export interface Columns<C extends Specs> {
  readonly table: string;
  readonly specs: C;
  readonly names: readonly (keyof C & string)[];
  /** `id, org_id, ...` in the order `row` reads them. */
  readonly selectList: string;
  /** A row from the values of a statement read with `.raw()` over `selectList`. */
  row(values: readonly unknown[]): { [K in keyof C]: TypeOf<C[K]> };
  /** `INSERT INTO <table> (a, b) VALUES (@a, @b)` for the columns `row` names: the others get their defaults. */
  insertSql(row: object): string;
  /** The row as inserted from `row`: its values, and the defaults of the columns it left out. */
  withDefaults(row: object): { [K in keyof C]: TypeOf<C[K]> };
  /** The names of `patch` that a patch may set, sorted: a statement is prepared once per such set. */
  patchedNames(patch: object): string[];
}

export function defineColumns<C extends Specs>(table: string, specs: C): Columns<C> {
  const names = Object.keys(specs) as (keyof C & string)[];
  const bad = names.find((n) => !/^[a-z][a-z0-9_]*$/.test(n));
  if (bad !== undefined) throw new Error(`column name ${JSON.stringify(bad)} of ${table} is not a plain identifier`);
  const insertSql = new Map<string, string>();
  type Row = { [K in keyof C]: TypeOf<C[K]> };
  // Rows are built by functions compiled once from the column list, each returning an object literal: filled column
  // by column in a loop (a megamorphic store per column), building the row stood out in profiles of POST /v1/runs
  // (bench/api.ts).
  const fromValues = new Function('v', `return { ${names.map((n, i) => `${n}: v[${i}]`).join(', ')} };`) as (values: readonly unknown[]) => Row;
  const defaults = names.map((n) => specs[n]!.defaultValue);
  const fromGiven = new Function(
    'r',
    'd',
    `return { ${names.map((n, i) => `${n}: r.${n} !== undefined ? r.${n} : d[${i}]`).join(', ')} };`,
  ) as (row: object, defaults: unknown[]) => Row;
  return {
    table,
    specs,
    names,
    selectList: names.join(', '),
    row: fromValues,
    insertSql(row) {
      const given = Object.keys(row);
      const key = given.join(',');
      let sql = insertSql.get(key);
      if (sql === undefined) {
        const unknown = given.find((name) => !(name in specs));
        if (unknown !== undefined) throw new Error(`${table} has no column ${unknown}`);
        sql = `INSERT INTO ${table} (${given.join(', ')}) VALUES (${given.map((n) => `@${n}`).join(', ')})`;
        insertSql.set(key, sql);
      }
      return sql;
    },
    withDefaults(row) {
      return fromGiven(row, defaults);
    },
    patchedNames(patch) {
      return Object.keys(patch)
        .filter((name) => specs[name]?.patchable === true)
        .sort();
    },
  };
}
