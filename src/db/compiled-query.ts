// Building and compiling a query with Kysely costs more than SQLite takes to run a lookup by
// key, so hot reads are compiled once per database handle and query shape, then run again
// with new parameters. Each caller lists its parameters in the order its query binds them;
// the first compilation checks that order, so a mistake fails loudly instead of misreading.
import { isDeepStrictEqual } from 'node:util';
import { sql, type Compilable, type CompiledQuery, type RawBuilder } from 'kysely';
import type { Db } from './database.ts';

const compiledQueries = new WeakMap<Db, Map<string, CompiledQuery>>();

export async function runCompiledOnce<Row>(
  db: Db,
  shape: string,
  parameters: readonly unknown[],
  build: () => Compilable<Row>,
): Promise<Row[]> {
  let byShape = compiledQueries.get(db);
  if (!byShape) {
    byShape = new Map();
    compiledQueries.set(db, byShape);
  }
  let compiled = byShape.get(shape);
  if (!compiled) {
    compiled = build().compile();
    if (!isDeepStrictEqual(compiled.parameters, parameters)) {
      throw new Error(`query "${shape}": parameters listed out of order`);
    }
    byShape.set(shape, compiled);
  }
  const result = await db.executeQuery<Row>({ ...compiled, parameters });
  return result.rows;
}

/**
 * A page size written into the SQL instead of bound: SQLite re-plans a statement whose LIMIT
 * is a bound parameter every time it runs, which cost a page as much as preparing it anew.
 * Each page size is then a query shape of its own, so callers put it in the shape's name.
 */
export function literalLimit(rows: number): RawBuilder<number> {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`page size ${rows} is not a count`);
  return sql.lit(rows);
}
