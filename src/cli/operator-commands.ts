// Operator commands: accounts, keys, the stream lifecycle, videos and subscriptions. Each
// acts through the same services as the API, on the database named by DATABASE_URL.
import type { Runtime } from '../runtime.ts';
import { parse, requireInteger, requireString, UsageError } from './args.ts';
import { readPassword } from './password-input.ts';
import { notFound } from '../shared/errors.ts';

export interface Command {
  usage: string;
  run(runtime: Runtime, argv: string[], out: (line: string) => void): Promise<void>;
}

export const usersCreate: Command = {
  usage: [
    'tributary users create [--name NAME] [--email EMAIL]',
    '  Creates a user and prints its usr_ id. With --email the user can sign in to the web app:',
    '  the password is read from the terminal (not echoed) or the first line of standard input.',
    '  SIGNUPS=closed does not restrict this.',
  ].join('\n'),
  async run(runtime, argv, out) {
    const { values } = parse(argv, { name: { type: 'string' }, email: { type: 'string' } }, this.usage);
    if (values.email === undefined) {
      const user = await runtime.services.accounts.createUser(values.name ?? 'Unnamed user');
      out(user.id);
      return;
    }
    const password = await readPassword('Password for the new user: ');
    const user = await runtime.services.logins.createUser({
      name: values.name ?? values.email.split('@')[0] ?? 'Unnamed user',
      email: values.email,
      password,
    });
    out(user.id);
  },
};

export const usersSetPassword: Command = {
  usage: [
    'tributary users set-password USR [--email EMAIL]',
    "  Sets a user's web app password (and email, e.g. for a user made without one); the password",
    '  is read from the terminal (not echoed) or the first line of standard input.',
  ].join('\n'),
  async run(runtime, argv, out) {
    const { values, positionals } = parse(argv, { email: { type: 'string' } }, this.usage);
    const id = requireString(positionals[0], 'USR', this.usage);
    const existing = await runtime.services.logins.findUser(id);
    if (!existing) throw notFound('user', id);
    if (existing.email === null && values.email === undefined) {
      throw new UsageError(`${id} has no email to sign in with: give one with --email.\n\n${this.usage}`);
    }
    const password = await readPassword('New password: ');
    const user = await runtime.services.logins.setLogin(id, {
      password,
      ...(values.email === undefined ? {} : { email: values.email }),
    });
    out(`${user.id} can sign in as ${user.email ?? ''}`);
  },
};

export const keysCreate: Command = {
  usage:
    'tributary keys create --user USR --scope read|write\n  Creates an API key and prints it alone on one line. It is shown only this once.',
  async run(runtime, argv, out) {
    const { values } = parse(argv, { user: { type: 'string' }, scope: { type: 'string' } }, this.usage);
    const user = requireString(values.user, '--user', this.usage);
    const scope = requireString(values.scope, '--scope', this.usage);
    if (scope !== 'read' && scope !== 'write')
      throw new UsageError(`--scope must be read or write.\n\n${this.usage}`);
    const key = await runtime.services.accounts.createKey(user, scope);
    out(key.key);
  },
};

export const keysList: Command = {
  usage:
    "tributary keys list --user USR\n  Lists a user's keys: id, scope, last four characters, created, revoked.",
  async run(runtime, argv, out) {
    const { values } = parse(argv, { user: { type: 'string' } }, this.usage);
    const keys = await runtime.services.accounts.listKeys(requireString(values.user, '--user', this.usage));
    for (const key of keys) {
      const revoked =
        key.revoked_at === null ? 'active' : `revoked ${new Date(key.revoked_at).toISOString()}`;
      out(
        `${key.id}\t${key.scope}\t...${key.token_hint}\t${new Date(key.created_at).toISOString()}\t${revoked}`,
      );
    }
  },
};

export const keysRevoke: Command = {
  usage: 'tributary keys revoke KEY_ID\n  Revokes a key (key_...); the API refuses it within one second.',
  async run(runtime, argv, out) {
    const { positionals } = parse(argv, {}, this.usage);
    const id = requireString(positionals[0], 'KEY_ID', this.usage);
    await runtime.services.accounts.revokeKey(id);
    out(`revoked ${id}`);
  },
};

export const streamsGoLive: Command = {
  usage:
    'tributary streams go-live STR\n  Moves a scheduled (or standby) stream to live and emits stream.started.',
  async run(runtime, argv, out) {
    const { positionals } = parse(argv, {}, this.usage);
    const stream = await runtime.services.streams.goLive(requireString(positionals[0], 'STR', this.usage));
    out(`${stream.id} is live`);
  },
};

export const streamsEnd: Command = {
  usage: 'tributary streams end STR\n  Ends a live stream and emits stream.ended.',
  async run(runtime, argv, out) {
    const { positionals } = parse(argv, {}, this.usage);
    const stream = await runtime.services.streams.end(requireString(positionals[0], 'STR', this.usage));
    out(`${stream.id} has ended`);
  },
};

export const streamsViewers: Command = {
  usage: "tributary streams viewers STR COUNT\n  Sets a live stream's current viewer count.",
  async run(runtime, argv, out) {
    const { positionals } = parse(argv, {}, this.usage);
    const id = requireString(positionals[0], 'STR', this.usage);
    const count = requireInteger(positionals[1], 'COUNT', this.usage);
    const stream = await runtime.services.streams.setViewerCount(id, count);
    out(`${stream.id}: ${String(stream.viewer_count)} viewers (peak ${String(stream.peak_viewer_count)})`);
  },
};

export const videosPublish: Command = {
  usage: [
    'tributary videos publish --creator USR --title T --duration SECONDS [--source-stream STR]',
    '                         [--category C] [--private] [--description D] [--tag T]... [--chapter "SECONDS TITLE"]...',
    '  Publishes a video, emits video.published and prints the new vid_ id.',
  ].join('\n'),
  async run(runtime, argv, out) {
    const { values } = parse(
      argv,
      {
        creator: { type: 'string' },
        title: { type: 'string' },
        duration: { type: 'string' },
        'source-stream': { type: 'string' },
        category: { type: 'string' },
        private: { type: 'boolean' },
        description: { type: 'string' },
        tag: { type: 'string', multiple: true },
        chapter: { type: 'string', multiple: true },
      },
      this.usage,
    );
    const chapters = (values.chapter ?? []).map((text) => {
      const match = /^(\d+)\s+(.+)$/.exec(text.trim());
      if (!match)
        throw new UsageError(`--chapter must look like "90 Title" (got "${text}").\n\n${this.usage}`);
      return { start_seconds: Number(match[1]), title: match[2] ?? '' };
    });
    const video = await runtime.services.videos.publish({
      creatorId: requireString(values.creator, '--creator', this.usage),
      title: requireString(values.title, '--title', this.usage),
      durationSeconds: requireInteger(values.duration, '--duration', this.usage),
      sourceStreamId: values['source-stream'],
      category: values.category,
      privacy: values.private === true ? 'private' : 'public',
      description: values.description,
      tags: values.tag,
      chapters,
    });
    out(video.id);
  },
};

export const subscriptionsCreate: Command = {
  usage:
    'tributary subscriptions create --viewer USR --creator USR\n  Subscribes a viewer to a creator, emits subscription.created and prints the sub_ id.',
  async run(runtime, argv, out) {
    const { values } = parse(argv, { viewer: { type: 'string' }, creator: { type: 'string' } }, this.usage);
    const subscription = await runtime.services.subscriptions.subscribe(
      requireString(values.viewer, '--viewer', this.usage),
      requireString(values.creator, '--creator', this.usage),
    );
    out(subscription.id);
  },
};

export const subscriptionsCancel: Command = {
  usage: 'tributary subscriptions cancel SUB\n  Cancels a subscription and emits subscription.cancelled.',
  async run(runtime, argv, out) {
    const { positionals } = parse(argv, {}, this.usage);
    const subscription = await runtime.services.subscriptions.cancel(
      requireString(positionals[0], 'SUB', this.usage),
    );
    out(`${subscription.id} cancelled`);
  },
};

export const migrate: Command = {
  usage: 'tributary migrate\n  Applies pending schema migrations and exits (they also run on every start).',
  async run(_runtime, argv, out) {
    parse(argv, {}, this.usage);
    out('schema is up to date');
  },
};
