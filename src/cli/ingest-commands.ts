// A creator's channel stream key from the operator's side: what `GET /v1/ingest` and
// `POST /v1/ingest/reset-key` give the creator, for support ("OBS says the key is wrong").
import { parse, requireString } from './args.ts';
import type { Command } from './operator-commands.ts';
import type { Runtime } from '../runtime.ts';
import type { ChannelKey } from '../channels/channel-key.service.ts';

function print(runtime: Runtime, key: ChannelKey, out: (line: string) => void): void {
  out(`server\t${runtime.services.urls.rtmpIngest}`);
  out(`key\t${key.streamKey}`);
}

export const ingestShow: Command = {
  usage: [
    'tributary ingest show --user USR',
    "  Prints the user's RTMP server URL and channel stream key (created on first use), one per line.",
  ].join('\n'),
  async run(runtime, argv, out) {
    const { values } = parse(argv, { user: { type: 'string' } }, this.usage);
    const user = requireString(values.user, '--user', this.usage);
    print(runtime, await runtime.services.channels.show(user), out);
  },
};

export const ingestResetKey: Command = {
  usage: [
    'tributary ingest reset-key --user USR',
    "  Replaces the user's channel stream key and prints the new one; the old key stops working for",
    '  new publishes at once (a broadcast already running goes on).',
  ].join('\n'),
  async run(runtime, argv, out) {
    const { values } = parse(argv, { user: { type: 'string' } }, this.usage);
    const user = requireString(values.user, '--user', this.usage);
    print(runtime, await runtime.services.channels.reset(user), out);
  },
};
