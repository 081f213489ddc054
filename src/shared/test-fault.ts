// TEST ONLY: a fault injected on purpose, for test/ingest/crash-recovery.test.ts, which kills a
// real `tributary serve` with SIGKILL at a chosen point. With TRIBUTARY_TEST_FAULT set to the
// point's name the process logs that it reached it and never goes past it (the rest of the
// process keeps running, so the test can wait for the line and kill it there). Unset, as in any
// real deployment, this does nothing. Not a setting: never set it outside a test.
import type { Logger } from 'pino';

export type TestFaultPoint = 'pause-before-video-publish';

export async function testFault(
  point: TestFaultPoint,
  logger: Pick<Logger, 'warn'> | undefined,
  fields: object,
): Promise<void> {
  if (process.env.TRIBUTARY_TEST_FAULT !== point) return;
  const message = `test fault ${point}: paused here until the process is killed`;
  if (logger) logger.warn({ ...fields, testFault: point }, message);
  else process.stderr.write(`${message}\n`);
  await new Promise<never>(() => undefined);
}
