/**
 * A table's columns, written once, from which its row type, its SELECT list, the builder of rows read as arrays,
 * and its named-parameter INSERT and UPDATE statements all derive.
 *
 *   const things = defineColumns('things', { id: fixed<string>(), note: patchable<string | null>(null) });
 *   type ThingRow = RowOf<typeof things>;
 */
export interface ColumnSpec<T, Patchable extends boolean = boolean, Defaulted extends boolean = boolean> {
  /** Only carries the column's TypeScript type. */
  readonly type?: T;
  /** Whether a patch may change it after the row was inserted. */
  readonly patchable: Patchable;
  /** Whether an insert may leave it out, and then gives it `defaultValue`. */
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
  /** `INSERT INTO <table> (...) VALUES (@..., ...)` over every column. */
  readonly insertSql: string;
  /** A row from the values of a statement read with `.raw()` over `selectList`. */
  row(values: readonly unknown[]): { [K in keyof C]: TypeOf<C[K]> };
  /** The named parameters of `insertSql`: the given values, and the defaults of the columns left out. */
  insertParams(row: object): { [K in keyof C]: TypeOf<C[K]> };
  /** The names of `patch` that a patch may set, sorted: a statement is prepared once per such set. */
  patchedNames(patch: object): string[];
}

export function defineColumns<C extends Specs>(table: string, specs: C): Columns<C> {
  const names = Object.keys(specs) as (keyof C & string)[];
  const defaults: Record<string, unknown> = {};
  for (const name of names) if (specs[name]!.defaulted) defaults[name] = specs[name]!.defaultValue;
  return {
    table,
    specs,
    names,
    selectList: names.join(', '),
    insertSql: `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`,
    row(values) {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
      return row as { [K in keyof C]: TypeOf<C[K]> };
    },
    insertParams(row) {
      return { ...defaults, ...row } as { [K in keyof C]: TypeOf<C[K]> };
    },
    patchedNames(patch) {
      return Object.keys(patch)
        .filter((name) => specs[name]?.patchable === true)
        .sort();
    },
  };
}
