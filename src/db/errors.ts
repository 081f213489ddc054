// Driver errors that services act on, recognised the same way on both dialects.

/** A unique index refused the write. SQLite and PostgreSQL report it differently. */
export function isUniqueViolation(error: unknown): boolean {
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  return (
    code === '23505' ||
    errcode === 2067 ||
    (typeof message === 'string' && message.includes('UNIQUE constraint failed'))
  );
}
