// Moderation at the server's terminal: who is an operator, suspending and reinstating an
// account, and reading the audit log. Actions taken here are audited as the `cli` actor.
import { CLI_ACTOR } from '../moderation/moderation.service.ts';
import { toIso } from '../shared/clock.ts';
import { parse, requireInteger, requireString, UsageError } from './args.ts';
import type { Command } from './operator-commands.ts';

export const usersSetRole: Command = {
  usage: [
    'tributary users set-role USR|EMAIL operator|user',
    '  Makes an account an operator (who may use the admin area at /admin) or a user again.',
  ].join('\n'),
  async run(runtime, argv, out) {
    const { positionals } = parse(argv, {}, this.usage);
    const who = requireString(positionals[0], 'USR or EMAIL', this.usage);
    const role = requireString(positionals[1], 'the role (operator or user)', this.usage);
    if (role !== 'operator' && role !== 'user') {
      throw new UsageError(`The role must be operator or user (got "${role}").\n\n${this.usage}`);
    }
    const user = await runtime.services.moderation.setRole(CLI_ACTOR, who, role);
    out(`${user.id} (${user.name}) is now ${role === 'operator' ? 'an operator' : 'a user'}`);
  },
};

export const usersSuspend: Command = {
  usage: [
    'tributary users suspend USR|EMAIL --reason TEXT',
    '  Suspends an account: its sessions and API keys stop, its live streams end, its content is',
    '  hidden everywhere; it can still sign in to read the reason.',
  ].join('\n'),
  async run(runtime, argv, out) {
    const { values, positionals } = parse(argv, { reason: { type: 'string' } }, this.usage);
    const { moderation } = runtime.services;
    const user = await moderation.findUser(requireString(positionals[0], 'USR or EMAIL', this.usage));
    await moderation.suspend(CLI_ACTOR, user.id, requireString(values.reason, '--reason', this.usage));
    out(`${user.id} (${user.name}) is suspended`);
  },
};

export const usersReinstate: Command = {
  usage: 'tributary users reinstate USR|EMAIL --reason TEXT\n  Lifts a suspension.',
  async run(runtime, argv, out) {
    const { values, positionals } = parse(argv, { reason: { type: 'string' } }, this.usage);
    const { moderation } = runtime.services;
    const user = await moderation.findUser(requireString(positionals[0], 'USR or EMAIL', this.usage));
    await moderation.reinstate(CLI_ACTOR, user.id, requireString(values.reason, '--reason', this.usage));
    out(`${user.id} (${user.name}) is reinstated`);
  },
};

export const auditLog: Command = {
  usage: [
    'tributary audit-log [--limit N] [--target ID]',
    '  Prints operator actions, newest first, one per line: time, who, action, target, reason',
    '  (tab-separated). --target shows one user, stream, video or report only; --limit is 1-1000 (50).',
  ].join('\n'),
  async run(runtime, argv, out) {
    const { values } = parse(argv, { limit: { type: 'string' }, target: { type: 'string' } }, this.usage);
    const limit = values.limit === undefined ? 50 : requireInteger(values.limit, '--limit', this.usage);
    if (limit < 1 || limit > 1000) throw new UsageError(`--limit must be 1 to 1000.\n\n${this.usage}`);
    const rows = await runtime.services.moderation.auditLog({ targetId: values.target }, limit);
    for (const row of rows) {
      const who = row.actor_id === null ? row.actor_name : `${row.actor_name} (${row.actor_id})`;
      // One line per action: a reason's line breaks are shown as spaces.
      const reason = row.reason.replace(/\s+/g, ' ');
      out([toIso(row.created_at), who, row.action, `${row.target_kind} ${row.target_id}`, reason].join('\t'));
    }
  },
};
