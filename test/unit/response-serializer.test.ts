import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { compileResponseSerializer } from '../../src/http/response-serializer.ts';
import { ErrorResponse, Nullable } from '../../src/http/schemas.ts';
import { StreamDetail, StreamPage } from '../../src/streams/stream.schemas.ts';

const Item = Type.Object({
  id: Type.String(),
  note: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  owner: Type.Object({ id: Type.String(), secret: Type.Optional(Type.String()) }),
  extra: Type.Optional(Type.Integer()),
});
const Page = Type.Object({
  data: Type.Array(Item),
  pagination: Type.Object({ next_cursor: Nullable(Type.String()), has_more: Type.Boolean() }),
});

test('fields the schema does not name are dropped at every depth, in schema order', () => {
  const serialize = compileResponseSerializer(Page);
  const body = serialize({
    internal_column: 1,
    pagination: { has_more: true, next_cursor: 'cur_x', debug: 'no' },
    data: [
      {
        stream_key: 'sk_secret',
        owner: { password_hash: 'h', id: 'usr_1' },
        tags: ['a', 'b'],
        note: null,
        id: 'str_1',
      },
    ],
  });
  assert.equal(
    body,
    '{"data":[{"id":"str_1","note":null,"tags":["a","b"],"owner":{"id":"usr_1"}}],' +
      '"pagination":{"next_cursor":"cur_x","has_more":true}}',
  );
});

test('optional fields appear when set; strings are escaped as JSON requires', () => {
  const serialize = compileResponseSerializer(Item);
  const text = 'quote " backslash \\ newline \n control \u0001 lone surrogate \ud800 emoji 🎥';
  const body = serialize({ id: text, note: 'n', tags: [], owner: { id: 'o', secret: 's' }, extra: 3 });
  assert.deepEqual(JSON.parse(body), {
    id: text,
    note: 'n',
    tags: [],
    owner: { id: 'o', secret: 's' },
    extra: 3,
  });
  assert.ok(body.includes('\\ud800'), 'a lone surrogate is written as an escape, keeping the JSON valid');
});

test('a required field that is missing is an error naming it, not a silently thinner response', () => {
  const serialize = compileResponseSerializer(Page);
  assert.throws(
    () =>
      serialize({
        data: [{ id: 'a', note: null, tags: [] }],
        pagination: { next_cursor: null, has_more: false },
      }),
    /missing required field #\/properties\/data\/items\/owner/,
  );
});

test("the API's response schemas compile, and a stream leaks neither its key nor its columns", () => {
  for (const schema of [StreamPage, StreamDetail, ErrorResponse]) compileResponseSerializer(schema);
  const detail = JSON.parse(
    compileResponseSerializer(StreamDetail)({
      id: 'str_1',
      title: 't',
      description: null,
      status: 'scheduled',
      category: 'talk',
      privacy: 'public',
      latency_mode: 'normal',
      creator_id: 'usr_1',
      viewer_count: null,
      started_at: null,
      scheduled_at: null,
      thumbnail_url: null,
      stream_url: 'http://localhost/watch/str_1',
      created_at: '2026-01-01T00:00:00.000Z',
      peak_viewer_count: null,
      ended_at: null,
      updated_at: '2026-01-01T00:00:00.000Z',
      stream_key: 'sk_must_not_leak',
      record: 1,
    }),
  ) as Record<string, unknown>;
  assert.equal('stream_key' in detail, false);
  assert.equal('record' in detail, false);
  assert.equal(detail.id, 'str_1');
});

test('schemas whose values could take shapes a copy cannot follow are refused when compiled', () => {
  assert.throws(
    () =>
      compileResponseSerializer(
        Type.Object({ x: Type.Union([Type.Object({ a: Type.String() }), Type.Null()]) }),
      ),
    /#\/properties\/x uses "anyOf"/,
  );
  assert.throws(
    () => compileResponseSerializer(Type.Object({}, { additionalProperties: true })),
    /allows additional properties/,
  );
});
