// The drivers of the scaled-out mode, PostgreSQL's and Redis's, load on first use: the
// embedded mode (SQLite, in-memory rate limits) then does not carry them, about 20 MB of a
// process's resident memory. Both are CommonJS packages, so loading them is synchronous.
import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';
import type Pg from 'pg';

const require = createRequire(import.meta.url);

export function loadPg(): typeof Pg {
  return require('pg') as typeof Pg;
}

export function loadIoRedis(): typeof IoRedis {
  return require('ioredis') as typeof IoRedis;
}
