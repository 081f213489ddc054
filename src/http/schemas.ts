// Schema building blocks shared by every route. Each route's schemas drive validation,
// response serialization (unknown fields are dropped), TypeScript types and OpenAPI.
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

/** A string restricted to a fixed set, as a plain JSON Schema `enum`. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A value that may also be null, written as OpenAPI 3.1 / JSON Schema `type: [T, 'null']`. */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const plain = schema as unknown as { type: string } & Record<string, unknown>;
  return Type.Unsafe<Static<T> | null>({ ...plain, type: [plain.type, 'null'] });
}

/**
 * Marks a string whose surrounding whitespace (as String.prototype.trim) is removed before
 * its other keywords are checked; the handler receives the trimmed value. An OpenAPI
 * extension keyword, so the document shows it next to the limits it changes.
 */
export const TRIM_KEYWORD = 'x-trim';

/** A string whose length limits count the trimmed value (`title`: 1 to 120 after trimming). */
export function TrimmedString(options: { minLength?: number; maxLength?: number; description?: string }) {
  return Type.String({ ...options, [TRIM_KEYWORD]: true });
}

export const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601 timestamp in UTC with milliseconds.',
});

export const Url = Type.String({ format: 'uri' });

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Machine-readable error code.' }),
      message: Type.String({ description: 'Human-readable explanation; not stable across versions.' }),
      param: Type.Optional(Type.String({ description: 'The offending field or query parameter.' })),
      retry_after_seconds: Type.Optional(
        Type.Integer({
          minimum: 0,
          description:
            'With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header.',
        }),
      ),
    }),
  },
  { title: 'Error', description: 'Every failed response has this shape.' },
);

export const Pagination = Type.Object({
  next_cursor: Nullable(Type.String({ description: 'Pass as `cursor` to get the next page.' })),
  has_more: Type.Boolean(),
});

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size.' })),
  cursor: Type.Optional(Type.String({ description: "The previous page's `pagination.next_cursor`." })),
};

/** For routes that take no query parameters: any given is `parameter_unknown`. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

/** The error responses every authenticated route can give, for the OpenAPI document. */
export const commonErrorResponses = {
  400: ErrorResponse,
  401: ErrorResponse,
  429: ErrorResponse,
  500: ErrorResponse,
};
