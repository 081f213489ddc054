// Which addresses a webhook may reach. Checked twice: at registration (the URL's host as it
// resolves then) and where each connection is made (the address actually dialled), so a DNS
// answer that changes after registration (rebinding) cannot reach an internal service.
import dns from 'node:dns';
import net from 'node:net';
import { invalidParameter } from '../shared/errors.ts';

const NON_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT (and some clouds' metadata)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, including 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, including fd00:ec2::254 metadata
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** An IPv4 address carried inside an IPv6 one (mapped, NAT64 or 6to4), which is what gets reached. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return mapped[1];
  const groups = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (groups) {
    const high = parseInt(groups[1] ?? '0', 16);
    const low = parseInt(groups[2] ?? '0', 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return undefined;
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== undefined) return isPublicAddress(inner);
    return !NON_PUBLIC.check(address, 'ipv6');
  }
  return false;
}

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
  if (!addresses.every(isPublicAddress)) {
    throw invalid('must point to a public address (loopback, private, link-local and similar are refused)');
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

export class PrivateTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_PRIVATE_TARGET';
}

/**
 * A `lookup` for net/tls connect that resolves as usual and refuses the connection when any
 * answer is not public. Installed on the sending agent, it checks the address at the moment
 * the socket is opened.
 */
export function publicOnlyLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: LookupCallback,
): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, []);
      return;
    }
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) {
      callback(new PrivateTargetError(`${hostname} resolves to non-public address ${refused.address}`), []);
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
}
