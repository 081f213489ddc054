// Upload commands: the operator's per-account storage quota, and what an account uses.
import { formatBytes } from '../uploads/upload.service.ts';
import { notFound } from '../shared/errors.ts';
import { parse, requireString, UsageError } from './args.ts';
import type { Command } from './operator-commands.ts';

export const usersSetQuota: Command = {
  usage: [
    'tributary users set-quota USR BYTES|default',
    '  Sets how many bytes of uploads the account may hold (its originals). `default` goes back to',
    '  UPLOAD_QUOTA_BYTES. Prints what the account uses of its quota.',
  ].join('\n'),
  async run(runtime, argv, out) {
    const { positionals } = parse(argv, {}, this.usage);
    const id = requireString(positionals[0], 'USR', this.usage);
    const raw = requireString(positionals[1], 'BYTES', this.usage);
    if (raw !== 'default' && !/^\d{1,16}$/.test(raw)) {
      throw new UsageError(
        `BYTES must be a whole number of bytes or "default" (got "${raw}").\n\n${this.usage}`,
      );
    }
    const uploads = runtime.services.uploads;
    if (!(await uploads.setQuota(id, raw === 'default' ? null : Number(raw)))) throw notFound('user', id);
    const { storedBytes, quotaBytes } = await uploads.usage(id);
    out(`${id} uses ${formatBytes(storedBytes)} of ${formatBytes(quotaBytes)}`);
  },
};
