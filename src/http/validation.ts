// Request validation: bodies are checked strictly (no type coercion, unknown fields refused),
// query strings and path parameters with coercion from text ("20" -> 20). Each ajv failure
// becomes one catalogued error naming the offending field.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError } from '../shared/errors.ts';
import { TRIM_KEYWORD } from './schemas.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under type stripping.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;

function newAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  // Runs before the length keywords, so they count the trimmed value, and writes the trimmed
  // value back: the route receives what was measured.
  ajv.addKeyword({
    keyword: TRIM_KEYWORD,
    type: 'string',
    modifying: true,
    errors: false,
    before: 'maxLength',
    validate: (
      enabled: boolean,
      data: string,
      _schema: unknown,
      where?: { parentData: unknown; parentDataProperty: string | number },
    ) => {
      // A top-level string has no parent to write back to; no schema marks one.
      if (enabled && where?.parentData !== undefined) {
        (where.parentData as Record<string | number, unknown>)[where.parentDataProperty] = data.trim();
      }
      return true;
    },
  });
  return addFormats(ajv);
}

const strictAjv = newAjv(false);
const coercingAjv = newAjv(true);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strictAjv : coercingAjv;
  return ajv.compile(schema);
};

export type ValidationPart = 'body' | 'querystring' | 'params' | 'headers';

/** Turns the first ajv error into a client error that names the field. */
export function toValidationError(
  errors: readonly Partial<ErrorObject>[],
  part: ValidationPart,
  bodyPresent: boolean,
): AppError {
  if (part === 'body' && !bodyPresent) {
    return new AppError(
      'parameter_missing',
      'A JSON object is required as the request body, with Content-Type: application/json.',
    );
  }
  const error = errors[0];
  if (!error) return new AppError('parameter_invalid', 'The request is invalid.');
  const params = (error.params ?? {}) as Record<string, unknown>;
  const base = fieldName(error.instancePath ?? '');
  const where = part === 'querystring' ? 'query parameter' : 'field';

  if (error.keyword === 'required') {
    const name = join(base, String(params.missingProperty));
    return new AppError('parameter_missing', `The ${where} '${name}' is required.`, name);
  }
  if (error.keyword === 'additionalProperties') {
    const name = join(base, String(params.additionalProperty));
    return new AppError('parameter_unknown', `The ${where} '${name}' is not recognised.`, name);
  }
  if (base === '') {
    const what = part === 'body' ? 'The request body' : 'The query string';
    return new AppError('parameter_invalid', `${what} must be a JSON object.`);
  }
  return new AppError('parameter_invalid', `The ${where} '${base}' ${describe(error, params)}.`, base);
}

function describe(error: Partial<ErrorObject>, params: Record<string, unknown>): string {
  switch (error.keyword) {
    case 'type':
      return `must be ${article(String(params.type))}`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters`;
    case 'minLength':
      return Number(params.limit) === 1
        ? 'must not be empty'
        : `must be at least ${String(params.limit)} characters`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'minItems':
      return `must have at least ${String(params.limit)} item${Number(params.limit) === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} items`;
    case 'uniqueItems':
      return 'must not contain duplicates';
    case 'format':
      return `must be a valid ${String(params.format)}`;
    case 'pattern':
      return 'has an invalid format';
    default:
      return 'is invalid';
  }
}

function article(type: string): string {
  const names: Record<string, string> = {
    string: 'a string',
    integer: 'an integer',
    number: 'a number',
    boolean: 'a boolean (true or false)',
    array: 'an array',
    object: 'an object',
  };
  return type
    .split(',')
    .map((t) => names[t] ?? t)
    .join(' or ');
}

/** `/events/0` -> `events[0]`, `/a/b` -> `a.b`. */
function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
}

function join(base: string, name: string): string {
  return base === '' ? name : `${base}.${name}`;
}
