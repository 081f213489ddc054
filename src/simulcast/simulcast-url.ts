// What a destination may be: an RTMP or RTMPS server URL with a host and nothing secret in it
// (no user information; the key is given apart), and a stream key the relay can append to it.
// Unless private targets are allowed, a destination must not be this machine or its private
// network: the relay would otherwise let a creator reach internal services from the server.
import dns from 'node:dns';
import net from 'node:net';
import { invalidParameter } from '../shared/errors.ts';
import { classifyAddress } from '../webhooks/url-safety.ts';
import { MAX_KEY_LENGTH, MAX_URL_LENGTH } from './simulcast.schemas.ts';

/** Checks a server URL; returns it as given (without trailing slashes, which the relay adds). */
export async function checkServerUrl(raw: string, allowPrivateTargets: boolean): Promise<string> {
  const invalid = (why: string) => invalidParameter('url', `The url ${why}.`);
  if (raw.length > MAX_URL_LENGTH) throw invalid(`must be at most ${MAX_URL_LENGTH} characters`);
  if (!/^[\x21-\x7e]+$/.test(raw)) throw invalid('must not contain spaces or control characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('must be an absolute rtmp:// or rtmps:// URL, such as rtmp://a.rtmp.youtube.com/live2');
  }
  if (url.protocol !== 'rtmp:' && url.protocol !== 'rtmps:') {
    throw invalid('must start with rtmp:// or rtmps://');
  }
  if (url.hostname === '') throw invalid('must name a host');
  if (url.username !== '' || url.password !== '') throw invalid('must not contain user information');
  if (raw.includes('?') || raw.includes('#')) {
    throw invalid('must not contain a query or a fragment; give the stream key in stream_key');
  }
  const trimmed = raw.replace(/\/+$/, '');
  if (allowPrivateTargets) return trimmed;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost')) throw invalid('must point to a public address');
  const addresses = net.isIP(host) ? [host] : await resolveAll(host);
  if (addresses === undefined || addresses.length === 0) throw invalid(`host '${host}' does not resolve`);
  const refused = addresses.map(classifyAddress).find((verdict) => !verdict.public);
  if (refused) {
    const why = net.isIP(host)
      ? `: ${refused.reason}`
      : ' (loopback, private, link-local and similar are refused)';
    throw invalid(`must point to a public address${why}`);
  }
  return trimmed;
}

/** Checks a stream key: visible ASCII (the relay appends it to the URL), of a bounded length. */
export function checkStreamKey(key: string): string {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw invalidParameter('stream_key', `The stream_key must be 1 to ${MAX_KEY_LENGTH} characters.`);
  }
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw invalidParameter(
      'stream_key',
      'The stream_key must be visible ASCII characters, without spaces (copy it as the platform shows it).',
    );
  }
  return key;
}

/** A URL that ends with the key (pasted as one) would send the key twice, and show it to all. */
export function checkKeyNotInUrl(url: string, key: string): void {
  if (key.length >= 4 && url.includes(key)) {
    throw invalidParameter(
      'url',
      'The url must not include the stream key: give the server URL in url and the key in stream_key.',
    );
  }
}

async function resolveAll(host: string): Promise<string[] | undefined> {
  try {
    return (await dns.promises.lookup(host, { all: true, order: 'verbatim' })).map((entry) => entry.address);
  } catch {
    return undefined;
  }
}
