// Response bodies are written from each route's response schema: the schema decides which
// fields appear and in which order, at every depth, so a field a serializer forgets to leave
// out (an internal column, someone else's secret) never reaches the client.
//
// fast-json-stringify, Fastify's default, does the same but also encodes every string in
// JavaScript; on a page of 100 items that was a fifth of the request. Here the schema is
// compiled into a function that copies exactly the named fields, and V8's native
// JSON.stringify does the encoding. Types are not coerced: the serializers that build these
// objects are typed from the same schemas.
type Schema = Record<string, unknown>;
type Serialize = (data: unknown) => string;

// Keywords that would let a value take a shape the copy below cannot follow; no response
// schema uses them, and one that did would fail at start rather than leak.
const UNSUPPORTED = ['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', 'patternProperties'] as const;

export function compileResponseSerializer(schema: unknown): Serialize {
  const functions: string[] = [];
  const root = compileNode(asSchema(schema), '#', functions);
  if (root === undefined) return (data) => JSON.stringify(data);
  // The generated source is built only from the schema's property names, each written as a
  // JSON string literal; compiling it once gives V8 one fixed object shape per schema.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const build = new Function('missing', `'use strict';\n${functions.join('\n')}\nreturn ${root};`) as (
    missing: typeof missingField,
  ) => (data: unknown) => unknown;
  const copy = build(missingField);
  return (data) => JSON.stringify(copy(data));
}

/** The name of the generated function that copies values of this schema, or undefined when
 * its values are written as they are (strings, numbers, booleans, arrays of those). */
function compileNode(schema: Schema, path: string, functions: string[]): string | undefined {
  for (const keyword of UNSUPPORTED) {
    if (keyword in schema) {
      throw new Error(`response schema at ${path} uses "${keyword}", which responses do not support`);
    }
  }
  const types = typesOf(schema);
  if (types.includes('object')) return compileObject(schema, path, functions);
  if (types.includes('array') && schema.items !== undefined) {
    const item = compileNode(asSchema(schema.items), `${path}/items`, functions);
    if (item === undefined) return undefined;
    const name = `copy${functions.length}`;
    functions.push(
      `function ${name}(v) {
        if (!Array.isArray(v)) return v;
        const out = new Array(v.length);
        for (let i = 0; i < v.length; i++) out[i] = ${item}(v[i]);
        return out;
      }`,
    );
    return name;
  }
  return undefined;
}

function compileObject(schema: Schema, path: string, functions: string[]): string {
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    throw new Error(
      `response schema at ${path} allows additional properties, which responses do not support`,
    );
  }
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set((schema.required ?? []) as string[]);
  const checks: string[] = [];
  const fields: string[] = [];
  for (const [key, property] of Object.entries(properties)) {
    const literal = JSON.stringify(key);
    const nested = compileNode(asSchema(property), `${path}/properties/${key}`, functions);
    if (required.has(key)) {
      checks.push(`if (v[${literal}] === undefined) missing(${JSON.stringify(`${path}/${key}`)});`);
    }
    fields.push(`${literal}: ${nested === undefined ? `v[${literal}]` : `${nested}(v[${literal}])`}`);
  }
  const name = `copy${functions.length}`;
  functions.push(
    `function ${name}(v) {
      if (v === null || typeof v !== 'object') return v;
      ${checks.join('\n')}
      return { ${fields.join(',\n')} };
    }`,
  );
  return name;
}

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === 'string');
  return schema.properties === undefined ? [] : ['object'];
}

function asSchema(value: unknown): Schema {
  return typeof value === 'object' && value !== null ? (value as Schema) : {};
}

// A response missing a field its schema requires is a bug in the service: the error handler
// logs it with the field's path and answers internal_error.
function missingField(path: string): never {
  throw new Error(`response is missing required field ${path}`);
}
