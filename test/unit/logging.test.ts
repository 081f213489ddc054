import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { setTimeout as delay, setImmediate as nextTurn } from 'node:timers/promises';
import Fastify, { LogController } from 'fastify';
import pino from 'pino';
import { deferredChildLogger } from '../../src/http/request-logger.ts';
import { BatchedDestination, createLogger } from '../../src/shared/logger.ts';

function recordingTarget() {
  const writes: string[] = [];
  return { writes, write: (chunk: string) => void writes.push(chunk) };
}

test('lines are written together, in order, once the first has waited its delay', async () => {
  const target = recordingTarget();
  const logger = createLogger('info', new BatchedDestination(target, { maxDelayMs: 40 }));
  const before = Date.now();
  logger.info({ n: 1 }, 'first');
  await nextTurn();
  logger.info({ n: 2 }, 'second');
  const after = Date.now();
  await nextTurn();
  assert.equal(target.writes.length, 0, 'nothing is written before the delay is over');

  await delay(80);
  assert.equal(target.writes.length, 1, 'one write for both lines');
  const lines = (target.writes[0] ?? '')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { msg: string; time: string });
  assert.deepEqual(
    lines.map((line) => line.msg),
    ['first', 'second'],
  );
  for (const line of lines) {
    assert.match(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The time a line was logged, not when it was written.
    assert.ok(Date.parse(line.time) >= before && Date.parse(line.time) <= after, line.time);
  }

  logger.info('third');
  await delay(80);
  assert.equal(target.writes.length, 2, 'a later line waits for a delay of its own');
  assert.match(target.writes[1] ?? '', /"msg":"third"/);
});

test('an error line is written at once, after the lines that were waiting', () => {
  const target = recordingTarget();
  const logger = createLogger('info', new BatchedDestination(target, { maxDelayMs: 60_000 }));
  logger.info('before');
  logger.warn('still waiting');
  assert.equal(target.writes.length, 0);
  logger.error({ code: 'boom' }, 'broke');
  assert.equal(target.writes.length, 1);
  assert.deepEqual(
    (target.writes[0] ?? '')
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { msg: string }).msg),
    ['before', 'still waiting', 'broke'],
  );
  logger.fatal('worse');
  assert.equal(target.writes.length, 2);
});

test('lines are written as soon as enough of them wait, without waiting for the delay', () => {
  const target = recordingTarget();
  const logger = createLogger('info', new BatchedDestination(target, { maxDelayMs: 60_000, maxChars: 1000 }));
  let logged = 0;
  while (target.writes.length === 0 && logged < 100) {
    logger.info({ n: logged }, 'filler line');
    logged++;
  }
  assert.equal(target.writes.length, 1);
  assert.ok(logged > 1 && logged < 20, `${logged} lines made the first write`);
  assert.ok((target.writes[0] ?? '').length >= 1000);
  assert.equal((target.writes[0] ?? '').trimEnd().split('\n').length, logged);
});

test('flush writes pending lines at once', () => {
  const target = recordingTarget();
  const logger = createLogger('info', new BatchedDestination(target));
  logger.warn('now');
  logger.flush();
  assert.equal(target.writes.length, 1);
  assert.match(target.writes[0] ?? '', /"msg":"now"/);
});

test('a request logger becomes a child bound to the request id only when something logs through it', () => {
  const target = recordingTarget();
  const root = pino({ base: null, timestamp: false }, target);
  let children = 0;
  const counting = Object.assign(Object.create(root) as typeof root, {
    child: (...args: Parameters<typeof root.child>) => {
      children++;
      return root.child(...args);
    },
  });

  const quiet = deferredChildLogger(counting, { reqId: 'req_quiet' }, {});
  assert.equal(quiet.level, 'info');
  const chatty = deferredChildLogger(counting, { reqId: 'req_chatty' }, { level: 'debug' });
  assert.equal(chatty.level, 'debug', "a route's log level shows before the child is made");
  assert.equal(children, 0);

  const loud = deferredChildLogger(counting, { reqId: 'req_loud' }, {});
  loud.error({ code: 'boom' }, 'failed %s', 'here');
  loud.debug('below the level');
  assert.equal(children, 1);
  assert.deepEqual(
    target.writes.map((line) => JSON.parse(line) as unknown),
    [{ level: 50, reqId: 'req_loud', code: 'boom', msg: 'failed here' }],
  );

  loud.level = 'debug';
  loud.debug('now shown');
  assert.equal(children, 1, 'one child per request, however many lines');
  assert.equal(target.writes.length, 2);
  assert.equal(root.level, 'info', "raising one request's level leaves the others alone");
});

test('a process that exits with lines waiting still writes them', () => {
  const loggerModule = new URL('../../src/shared/logger.ts', import.meta.url).href;
  const script = `
    const { createLogger } = await import(${JSON.stringify(loggerModule)});
    createLogger('info').info('last words');
    process.exit(3);
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 3, child.stderr);
  assert.match(child.stdout, /"msg":"last words"/);
});

test("Fastify accepts the deferred request logger, and a request's error line carries its id", async () => {
  const target = recordingTarget();
  const app = Fastify({
    loggerInstance: pino({ base: null, timestamp: false }, target),
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: deferredChildLogger,
  });
  app.get('/fails', (request) => {
    request.log.error({ code: 'boom' }, 'it broke');
    return { id: request.id };
  });
  app.get('/quiet', () => ({ ok: true }));
  try {
    const failed = await app.inject({ method: 'GET', url: '/fails' });
    await app.inject({ method: 'GET', url: '/quiet' });
    assert.deepEqual(
      target.writes.map((line) => JSON.parse(line) as unknown),
      [{ level: 50, reqId: failed.json<{ id: string }>().id, code: 'boom', msg: 'it broke' }],
    );
  } finally {
    await app.close();
  }
});
