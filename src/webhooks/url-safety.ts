// Which addresses a webhook may reach. Checked twice: at registration (the URL's host as it
// resolves then) and where each connection is made (the address actually dialled), so a DNS
// answer that changes after registration (rebinding) cannot reach an internal service.
import dns from 'node:dns';
import net from 'node:net';
import { invalidParameter } from '../shared/errors.ts';
import { classifyAddress, isPublicAddress } from './address-classifier.ts';

export { classifyAddress, isPublicAddress };

export const MAX_URL_LENGTH = 2048;

/**
 * Checks a URL given at registration: https, absolute, no user info or fragment, and (unless
 * private targets are allowed) a host that resolves only to public addresses. Returns the URL
 * as given, since the receiver registered that exact text.
 */
export async function checkWebhookUrl(raw: string, allowPrivateTargets: boolean): Promise<string> {
  const invalid = (why: string) => invalidParameter('url', `The webhook url ${why}.`);
  if (raw.length > MAX_URL_LENGTH) throw invalid(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('must be an absolute https:// URL');
  }
  if (url.protocol === 'http:') throw invalid('must use https://; http:// is not supported');
  if (url.protocol !== 'https:') throw invalid('must be an absolute https:// URL');
  if (url.username !== '' || url.password !== '') throw invalid('must not contain user information');
  if (raw.includes('#')) throw invalid('must not contain a fragment');
  if (url.hostname === '') throw invalid('must name a host');
  if (allowPrivateTargets) return raw;

  const host = hostOf(url);
  const addresses = net.isIP(host) ? [host] : await resolveAll(host);
  if (addresses === undefined || addresses.length === 0) throw invalid(`host '${host}' does not resolve`);
  const refused = addresses.map(classifyAddress).find((verdict) => !verdict.public);
  if (refused) {
    // The reason names the address, so it is given only for a literal one: for a name it would
    // tell the caller what our resolver answers (internal names included).
    const why = net.isIP(host)
      ? `: ${refused.reason}`
      : ' (loopback, private, link-local and similar are refused)';
    throw invalid(`must point to a public address${why}`);
  }
  return raw;
}

/** The URL's host without IPv6 brackets, as net and dns expect it. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

async function resolveAll(host: string): Promise<string[] | undefined> {
  try {
    return (await dns.promises.lookup(host, { all: true, order: 'verbatim' })).map((entry) => entry.address);
  } catch {
    return undefined;
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** Every address of a name, as `dns.lookup` with `all: true` gives them. */
export type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

export const systemResolver: Resolver = (hostname, options, callback) => {
  dns.lookup(hostname, options, callback);
};

export class PrivateTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_PRIVATE_TARGET';
}

/**
 * A `lookup` for net/tls connect that resolves through `resolve` and refuses the connection
 * when any answer is not public. Installed on the sending agent, it checks the address at the
 * moment the socket is opened.
 */
export function publicOnlyLookup(resolve: Resolver = systemResolver) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, []);
        return;
      }
      const refused = addresses
        .map((entry) => classifyAddress(entry.address))
        .find((verdict) => !verdict.public);
      if (refused) {
        callback(
          new PrivateTargetError(`${hostname} resolves to a non-public address: ${refused.reason}`),
          [],
        );
        return;
      }
      if (options.all === true) {
        callback(null, addresses);
        return;
      }
      const first = addresses[0];
      if (!first) {
        callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
        return;
      }
      callback(null, first.address, first.family);
    });
  };
}
