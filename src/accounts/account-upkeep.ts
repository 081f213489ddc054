// The periodic upkeep of logins: failures older than their window, expired sessions and spent
// links are deleted (login.service.ts's prune), at start and then every UPKEEP_EVERY_MS. Every
// serving process runs it; deleting what is already gone costs nothing.
import type { Logger } from 'pino';
import type { LoginService } from './login.service.ts';

export const UPKEEP_EVERY_MS = 15 * 60_000;

export function startAccountUpkeep(
  logins: Pick<LoginService, 'prune'>,
  logger: Logger,
  everyMs = UPKEEP_EVERY_MS,
): { stop: () => void } {
  const run = () => {
    logins.prune().then(
      (pruned) => {
        if (pruned.failures + pruned.sessions + pruned.links > 0) logger.info(pruned, 'logins pruned');
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'pruning logins failed; trying again later');
      },
    );
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
    },
  };
}
