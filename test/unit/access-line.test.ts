// The access line is formatted by hand (src/shared/logger.ts, accessLogFor) for speed; it must be
// the line pino itself writes for the same fields, byte for byte apart from the time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import pino from 'pino';
import { accessLogFor, createLogger, type AccessFields } from '../../src/shared/logger.ts';

function capture() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
}

const TIME = /"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/;

const CASES: AccessFields[] = [
  { reqId: 'req_abc', method: 'GET', url: '/v1/streams/str_1', status: 200, ms: 1.23, key: 'key_1' },
  { reqId: 'req_abc', method: 'GET', url: '/healthz', status: 200, ms: 0, key: undefined },
  // What a client controls: the request target, quoted, escaped, control and latin-1 characters.
  {
    reqId: 'req_x',
    method: 'POST',
    url: '/v1/"quoted"\\back\tslash\u0001\u00e9\u00ff',
    status: 404,
    ms: 12.5,
    key: undefined,
  },
  {
    reqId: 'req_y',
    method: 'DELETE',
    url: `/v1/${'long'.repeat(40)}?a=1&b="2"`,
    status: 500,
    ms: 1234.56,
    key: 'key_z',
  },
  { reqId: 'req_z', method: 'GET', url: '/', status: 200, ms: Number.NaN, key: undefined },
];

test('the access line is the line pino writes for the same fields, time apart', () => {
  for (const fields of CASES) {
    const fast = capture();
    const slow = capture();
    accessLogFor(createLogger('info', fast.stream))(fields);
    createLogger('info', slow.stream).info({ ...fields }, 'request');
    assert.equal(fast.lines.length, 1);
    assert.match(fast.lines[0] ?? '', TIME);
    assert.equal(
      (fast.lines[0] ?? '').replace(TIME, '"time":"T"'),
      (slow.lines[0] ?? '').replace(TIME, '"time":"T"'),
      JSON.stringify(fields.url),
    );
  }
});

test('the access line follows the logger level, also when it changes', () => {
  const out = capture();
  const logger = createLogger('warn', out.stream);
  const accessLog = accessLogFor(logger);
  accessLog(CASES[0]!);
  assert.equal(out.lines.length, 0, 'not written at level warn');
  logger.level = 'info';
  accessLog(CASES[0]!);
  assert.equal(out.lines.length, 1, 'written once the level is info');
});

test('any other logger gets the fields through info()', () => {
  const out = capture();
  const logger = pino({ base: null, timestamp: false }, out.stream);
  accessLogFor(logger)(CASES[0]!);
  assert.deepEqual(JSON.parse(out.lines[0] ?? ''), { level: 30, ...CASES[0], msg: 'request' });
});

test("Fastify's app.log (a child of the logger given) takes the template, with the same line", () => {
  const out = capture();
  const app = Fastify({ loggerInstance: createLogger('info', out.stream) });
  const accessLog = accessLogFor(app.log);
  let infoCalls = 0;
  const info = app.log.info.bind(app.log);
  app.log.info = (...args: Parameters<typeof info>) => {
    infoCalls++;
    info(...args);
  };
  accessLog(CASES[0]!);
  assert.equal(infoCalls, 0, 'pino was not asked to format the line');
  app.log.info({ ...CASES[0] }, 'request');
  assert.equal(out.lines.length, 2);
  assert.equal(out.lines[0]?.replace(TIME, ''), out.lines[1]?.replace(TIME, ''));
});

test('a child logger with bindings of its own gets its line from pino, bindings included', () => {
  const out = capture();
  const child = createLogger('info', out.stream).child({ worker: 'w1' });
  accessLogFor(child)(CASES[0]!);
  assert.deepEqual(JSON.parse(out.lines[0] ?? '').worker, 'w1');
});
