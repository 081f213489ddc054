// isUniqueViolation against the errors the real drivers raise, on both dialects.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isUniqueViolation } from '../../src/db/errors.ts';
import { DIALECTS, openMigratedTestDatabase } from '../helpers/databases.ts';

async function failure(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (error) {
    return error;
  }
  throw new Error('the write was expected to fail');
}

for (const dialect of DIALECTS) {
  describe(`database errors on ${dialect}`, () => {
    test('a duplicate in a unique index is a unique violation; a missing NOT NULL value is not', async (t) => {
      const handle = await openMigratedTestDatabase(t, dialect);
      const user = { id: 'usr_1', name: 'one', created_at: 0 };
      await handle.db.insertInto('users').values(user).execute();
      const duplicate = await failure(() => handle.db.insertInto('users').values(user).execute());
      assert.equal(isUniqueViolation(duplicate), true, String(duplicate));
      const missing = await failure(() =>
        handle.db
          .insertInto('users')
          .values({ id: 'usr_2', name: null as unknown as string, created_at: 0 })
          .execute(),
      );
      assert.equal(isUniqueViolation(missing), false, String(missing));
      assert.equal(isUniqueViolation(new Error('connection refused')), false);
    });
  });
}
