// What makes two requests "the same request" for an Idempotency-Key: method, route, path
// parameters, query and the parsed JSON body, canonicalised so that key order and whitespace
// do not matter (objects with sorted keys, no insignificant whitespace).
import { createHash } from 'node:crypto';

export interface RequestShape {
  method: string;
  route: string;
  params: unknown;
  query: unknown;
  body: unknown;
}

export function requestFingerprint(shape: RequestShape): string {
  const text = canonicalJson([shape.method, shape.route, shape.params, shape.query, shape.body]);
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with object keys sorted at every depth; `undefined` (no body) is written as null. */
export function canonicalJson(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const fields = Object.keys(record)
      .filter((name) => record[name] !== undefined)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson(record[name])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value);
}
