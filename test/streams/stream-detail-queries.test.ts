// GET /v1/streams/{id} reads the stream with one query, whoever asks: the creator's stream key
// comes with the row instead of from a second query, and only the creator's write keys are
// shown it. Counted through Kysely's query log on a real database, over real HTTP.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { LogEvent } from 'kysely';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import type { Dialect } from '../../src/db/dialect.ts';

interface CountedServer {
  server: TestServer;
  /** The SQL run while `during` ran. */
  queriesDuring: (during: () => Promise<unknown>) => Promise<string[]>;
}

async function countedServer(t: TestContext, dialect: Dialect): Promise<CountedServer> {
  const executed: string[] = [];
  const server = await startTestServer(t, {
    dialect,
    databaseLog: (event: LogEvent) => {
      executed.push(event.query.sql);
    },
  });
  return {
    server,
    async queriesDuring(during) {
      const from = executed.length;
      await during();
      return executed.slice(from);
    },
  };
}

for (const dialect of DIALECTS) {
  describe(`reading one stream on ${dialect}`, () => {
    test('the creator gets the row and the stream key from one query; others get the row alone', async (t) => {
      const { server, queriesDuring } = await countedServer(t, dialect);
      const creator = await server.createAccount('Creator');
      const other = await server.createAccount('Viewer');
      const created = await server.createStream(creator);
      // Each key has been seen once, so its lookup is cached: what remains is the read itself.
      await server.request('GET', '/v1/streams', { key: creator.readKey });
      await server.request('GET', '/v1/streams', { key: other.writeKey });

      const readers = [
        { who: "the creator's write key", key: creator.writeKey, seesKey: true },
        { who: "the creator's read key", key: creator.readKey, seesKey: false },
        { who: "another account's write key", key: other.writeKey, seesKey: false },
      ];
      for (const { who, key, seesKey } of readers) {
        let status = 0;
        let body: any;
        const queries = await queriesDuring(async () => {
          ({ status, body } = await server.request('GET', `/v1/streams/${created.id}`, { key }));
        });
        assert.equal(status, 200, who);
        assert.equal(body.id, created.id, who);
        assert.equal(body.ingest?.stream_key, seesKey ? created.ingest.stream_key : undefined, who);
        assert.equal(queries.length, 1, `${who}: ${queries.join(' | ')}`);
      }
    });
  });
}
