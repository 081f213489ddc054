// Forms are checked by the same TypeBox schemas as the API's JSON bodies, with the same
// validator, so a form gets the same rules and the same messages as `POST /v1/...`. A form
// sends text only: each page turns its fields into the JSON the API would have received first.
import type { Static, TSchema } from 'typebox';
import type { ErrorObject } from 'ajv';
import { toValidationError, validatorCompiler } from '../../http/validation.ts';
import { AppError } from '../../shared/errors.ts';

type Check = ((data: unknown) => boolean) & { errors?: Partial<ErrorObject>[] | null };

const compiled = new WeakMap<TSchema, Check>();

/** The body as the API's validator leaves it (trimmed, defaults applied), or its first error. */
export function validateAsApi<S extends TSchema>(schema: S, body: Record<string, unknown>): Static<S> {
  let check = compiled.get(schema);
  if (!check) {
    check = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '' }) as Check;
    compiled.set(schema, check);
  }
  if (!check(body)) throw toValidationError(check.errors ?? [], 'body', true);
  return body as Static<S>;
}

/** What a page shows for a refused form: the message, next to the field it names. */
export interface FormProblem {
  field: string | undefined;
  message: string;
}

export function formProblem(error: unknown): FormProblem | undefined {
  if (!(error instanceof AppError)) return undefined;
  if (
    ![
      'parameter_invalid',
      'parameter_missing',
      'parameter_unknown',
      'webhook_url_taken',
      'webhook_limit_reached',
    ].includes(error.code)
  ) {
    return undefined;
  }
  return { field: error.param?.replace(/\[\d+\]$/, ''), message: error.message };
}

/** A form field's single text value (a repeated field's first), or undefined. */
export function field(form: Record<string, unknown>, name: string): string | undefined {
  const value = form[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}
