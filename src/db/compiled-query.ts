// Building and compiling a query with Kysely costs more than SQLite takes to run a lookup by
// key, so hot reads are compiled once and then run again with new parameters. Each query is a
// handle made once at module level, which owns its compiled forms: two handles never share
// SQL, and no cache key or parameter order is written by hand.
//
// A handle compiles by calling its build function with a unique sentinel in place of every
// parameter, then reads the compiled parameter list back to learn which parameter each
// position binds. Anything else there (a constant, a value the build function derived from a
// parameter) or a parameter that binds nowhere is refused when the query is first compiled,
// so a mistake fails loudly instead of misreading. Hence the rules for a build function:
// - it may test whether a parameter is undefined (an optional filter), nothing else about it;
// - constants are written into the SQL with sql.lit, not bound;
// - values that change the SQL text itself (a page size, see literalLimit) are literals: the
//   third argument, part of the cache key, never a parameter.
import { sql, type Compilable, type CompiledQuery, type RawBuilder } from 'kysely';
import { LruCache } from '../shared/lru.ts';
import { directReaderOf, scanReaderOf, type Db } from './database.ts';
import { dialectOf, type Dialect } from './dialect.ts';

/** Values a build function writes into the SQL; each distinct set is compiled apart. */
export type Literals = Readonly<Record<string, string | number | boolean | null>>;

type Build<P, L, Row> = (db: Db, parameters: P, literals: L) => Compilable<Row>;

export interface CompiledQueryHandle<P, L, Row> {
  /** Runs the query, compiling it first if this dialect has not seen its shape. */
  execute(db: Db, parameters: P, ...literals: Literals extends L ? [L?] : [L]): Promise<Row[]>;
}

// The shapes (optional parameters present or not, literal values) one query is compiled in
// per dialect. Clients use a few filter and page-size combinations; the bound keeps one that
// cycles through all of them from growing the cache, at the cost of compiling again.
const SHAPES_PER_QUERY = 256;

interface Prepared {
  compiled: CompiledQuery;
  /** A plain SELECT, which SQLite may run without Kysely's driver (directReaderOf). */
  read: boolean;
  /** For each bound position, the path of the parameter it takes (`after.id`). */
  slots: readonly (readonly string[])[];
}

export interface CompiledQueryOptions {
  /**
   * SQLite: run the read on the mapped reader (database.ts, mappedReaderOf), for reads that walk
   * many pages of a large table; it sees committed rows only.
   */
  mapped?: boolean;
}

class Sentinel {
  readonly path: readonly string[];
  constructor(path: readonly string[]) {
    this.path = path;
  }
}

/**
 * A query compiled once per dialect and shape. `build` must not keep state between calls:
 * it runs again whenever a new shape is seen.
 */
export function compiledQuery<P extends object, Row, L extends Literals = Literals>(
  build: Build<P, L, Row>,
  options: CompiledQueryOptions = {},
): CompiledQueryHandle<P, L, Row> {
  const readerOf = options.mapped === true ? scanReaderOf : directReaderOf;
  const byDialect = new Map<Dialect, LruCache<string, Prepared>>();
  return {
    async execute(db, parameters, ...rest) {
      const literals = (rest[0] ?? {}) as L;
      const executor = db.getExecutor();
      if (executor.plugins.length > 0) {
        // A plugin rewrites queries as they are compiled: its work would be skipped on reuse.
        throw new Error('compiledQuery: a Kysely instance with plugins cannot reuse compiled queries');
      }
      const dialect = dialectOf(db);
      let shapes = byDialect.get(dialect);
      if (!shapes) {
        shapes = new LruCache(SHAPES_PER_QUERY);
        byDialect.set(dialect, shapes);
      }
      const key = shapeKey(parameters, literals);
      let prepared = shapes.get(key);
      if (!prepared) {
        prepared = prepare(build, db, parameters, literals);
        shapes.set(key, prepared);
      }
      const bound = prepared.slots.map((path) => valueAt(parameters, path));
      if (prepared.read) {
        const rows = readerOf(db)?.(prepared.compiled.sql, bound);
        if (rows !== undefined) return rows as Row[];
      }
      const result = await db.executeQuery<Row>({ ...prepared.compiled, parameters: bound });
      return result.rows;
    },
  };
}

function prepare<P extends object, L, Row>(
  build: Build<P, L, Row>,
  db: Db,
  parameters: P,
  literals: L,
): Prepared {
  const sentinels = new Set<Sentinel>();
  const compiled = build(db, withSentinels(parameters, [], sentinels) as P, literals).compile();
  const unused = new Set(sentinels);
  const slots = compiled.parameters.map((value, position) => {
    if (!(value instanceof Sentinel) || !sentinels.has(value)) {
      throw new Error(
        `compiledQuery: bound value ${position + 1} is not a named parameter (${describe(value)}); ` +
          'write constants with sql.lit and pass every bound value as a parameter, unchanged',
      );
    }
    unused.delete(value);
    return value.path;
  });
  if (unused.size > 0) {
    const names = [...unused].map((sentinel) => sentinel.path.join('.')).join(', ');
    throw new Error(`compiledQuery: parameter ${names} is given but the query never binds it`);
  }
  return { compiled, slots, read: compiled.query.kind === 'SelectQueryNode' };
}

/** A copy of `value` with every defined leaf replaced by a sentinel naming its path. */
function withSentinels(value: unknown, path: readonly string[], sentinels: Set<Sentinel>): unknown {
  if (value === undefined) return undefined;
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(value)) {
      copy[name] = withSentinels(inner, [...path, name], sentinels);
    }
    return copy;
  }
  if (typeof value === 'object' && value !== null) {
    // An array or other object would bind as one value or several depending on its contents.
    throw new Error(`compiledQuery: parameter ${path.join('.')} must be a plain value or a plain object`);
  }
  const sentinel = new Sentinel(path);
  sentinels.add(sentinel);
  return sentinel;
}

/**
 * Which parameters are present (their values are bound, so not part of it) and the literals.
 * Names in the order the caller wrote them, unsorted: a call site always writes them in one
 * order, and two orders of the same shape only compile it twice.
 */
function shapeKey(parameters: object, literals: Literals): string {
  let key = '';
  for (const name in parameters) {
    const value = (parameters as Record<string, unknown>)[name];
    if (value === undefined) continue;
    key += isPlainObject(value) ? `${name}{${shapeKey(value, {})}},` : `${name},`;
  }
  const names = Object.keys(literals);
  if (names.length === 0) return key;
  return `${key}|${JSON.stringify(names.sort().map((name) => [name, literals[name]]))}`;
}

function valueAt(parameters: object, path: readonly string[]): unknown {
  let value: unknown = parameters;
  for (const name of path) value = (value as Record<string, unknown>)[name];
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (value instanceof Sentinel) return `a parameter of another query (${value.path.join('.')})`;
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/**
 * A page size written into the SQL instead of bound: SQLite re-plans a statement whose LIMIT
 * is a bound parameter every time it runs, which cost a page as much as preparing it anew.
 * Pass it as a literal of the compiled query, so each page size is compiled apart.
 */
export function literalLimit(rows: number): RawBuilder<number> {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`page size ${rows} is not a count`);
  return sql.lit(rows);
}
