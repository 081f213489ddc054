// Decides whether one IP address (a URL's literal host, or a DNS answer where a socket is
// opened) is a public webhook target. IPv4: anything outside the special-purpose ranges.
// IPv6: global unicast 2000::/3 outside the special-purpose ranges. An IPv6 address that
// carries an IPv4 one is decoded and the IPv4 judged too; a blocked wrapper stays blocked
// whatever it carries, so an embedded private IPv4 is never reached.
import {
  IPV4_OTHER,
  IPV4_SPECIAL_PURPOSE,
  IPV6_GLOBAL_UNICAST,
  IPV6_OTHER,
  IPV6_SPECIAL_PURPOSE,
  type SpecialRange,
} from './address-ranges.ts';

export interface AddressVerdict {
  public: boolean;
  /** Why, for error messages and logs: the range matched and any IPv4 found inside. */
  reason: string;
}

interface Prefix {
  bytes: Uint8Array;
  bits: number;
  range: SpecialRange;
}

function compile(range: SpecialRange): Prefix {
  const [network = '', bits = ''] = range.cidr.split('/');
  const bytes = network.includes(':') ? parseIpv6(network) : parseIpv4(network);
  if (!bytes) throw new Error(`bad range ${range.cidr}`);
  return { bytes, bits: Number(bits), range };
}

/** A prefix used only to recognise a form, not to name a blocked range. */
const formPrefix = (cidr: string) => compile({ cidr, name: cidr, rfc: '', globallyReachable: undefined });

const IPV4_RANGES = [...IPV4_SPECIAL_PURPOSE, ...IPV4_OTHER].map(compile);
const IPV6_RANGES = [...IPV6_SPECIAL_PURPOSE, ...IPV6_OTHER].map(compile);
const GLOBAL_UNICAST = formPrefix(IPV6_GLOBAL_UNICAST);
const MAPPED = formPrefix('::ffff:0:0/96');
const NAT64 = formPrefix('64:ff9b::/96');
const COMPATIBLE = formPrefix('::/96');
const TRANSLATED = formPrefix('::ffff:0:0:0/96');
const SIX_TO_FOUR = formPrefix('2002::/16');
const TEREDO = formPrefix('2001::/32');

function contains(prefix: Prefix, address: Uint8Array): boolean {
  if (prefix.bytes.length !== address.length) return false;
  const whole = prefix.bits >> 3;
  for (let i = 0; i < whole; i++) if (prefix.bytes[i] !== address[i]) return false;
  const rest = prefix.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((prefix.bytes[whole] ?? 0) & mask) === ((address[whole] ?? 0) & mask);
}

/** The most specific range holding the address, so 2001:1::1 is named for itself, not 2001::/23. */
function narrowest(ranges: Prefix[], address: Uint8Array): Prefix | undefined {
  let found: Prefix | undefined;
  for (const prefix of ranges) {
    if (contains(prefix, address) && (!found || prefix.bits > found.bits)) found = prefix;
  }
  return found;
}

const describe = (prefix: Prefix) => `${prefix.range.name} (${prefix.range.cidr})`;
const dotted = (bytes: Uint8Array) => Array.from(bytes).join('.');

/** Strict dotted decimal: four parts, 0-255, no leading zeros (which some parsers read as octal). */
export function parseIpv4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (const [i, part] of parts.entries()) {
    if (!/^(?:0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes[i] = value;
  }
  return bytes;
}

/** RFC 4291 text (any case, leading zeros, "::", a dotted IPv4 tail); no zone id. */
export function parseIpv6(text: string): Uint8Array | undefined {
  let hex = text;
  const lastColon = text.lastIndexOf(':');
  if (lastColon === -1) return undefined;
  if (text.includes('.', lastColon)) {
    const tail = parseIpv4(text.slice(lastColon + 1));
    if (!tail) return undefined;
    const high = ((tail[0] ?? 0) << 8) | (tail[1] ?? 0);
    const low = ((tail[2] ?? 0) << 8) | (tail[3] ?? 0);
    hex = `${text.slice(0, lastColon + 1)}${high.toString(16)}:${low.toString(16)}`;
  }
  const halves = hex.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groupsOf(halves[0] ?? '');
  const right = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const zeros = Array.from({ length: halves.length === 2 ? missing : 0 }, () => '0');
  const groups = [...left, ...zeros, ...right];
  const bytes = new Uint8Array(16);
  for (const [i, group] of groups.entries()) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
    const value = parseInt(group, 16);
    bytes[2 * i] = value >> 8;
    bytes[2 * i + 1] = value & 0xff;
  }
  return bytes;
}

function classifyIpv4(bytes: Uint8Array): AddressVerdict {
  const blocked = narrowest(IPV4_RANGES, bytes);
  if (blocked) return { public: false, reason: `${dotted(bytes)} is ${describe(blocked)}` };
  return { public: true, reason: `${dotted(bytes)} is public` };
}

/** The IPv4 addresses an IPv6 address carries, by the form that carries them. */
function embeddedIpv4(bytes: Uint8Array): { form: string; addresses: Uint8Array[] } | undefined {
  const last = bytes.slice(12, 16);
  // :: and ::1 are in ::/96 too, but carry nothing.
  if (contains(COMPATIBLE, bytes) && last.some((byte, i) => byte > (i === 3 ? 1 : 0))) {
    return { form: 'IPv4-compatible', addresses: [last] };
  }
  if (contains(TRANSLATED, bytes)) return { form: 'IPv4-translated', addresses: [last] };
  if (contains(SIX_TO_FOUR, bytes)) return { form: '6to4', addresses: [bytes.slice(2, 6)] };
  if (contains(TEREDO, bytes)) {
    // RFC 4380: the server's address in bits 32-63, the client's in the last 32, inverted.
    return {
      form: 'Teredo server and client',
      addresses: [bytes.slice(4, 8), last.map((byte) => byte ^ 0xff)],
    };
  }
  return undefined;
}

function classifyIpv6(bytes: Uint8Array, text: string): AddressVerdict {
  // The socket dials the IPv4 address itself: the mapped form is only how IPv6 APIs spell it.
  if (contains(MAPPED, bytes)) return within('IPv4-mapped', classifyIpv4(bytes.slice(12, 16)));
  // A NAT64 gateway (DNS64 networks) reaches the IPv4 address inside; judge that address.
  if (contains(NAT64, bytes)) return within('NAT64 (64:ff9b::/96)', classifyIpv4(bytes.slice(12, 16)));

  const blocked = narrowest(IPV6_RANGES, bytes);
  const outside = !contains(GLOBAL_UNICAST, bytes);
  if (!blocked && !outside) return { public: true, reason: `${text} is global unicast` };
  let reason = `${text} is ${blocked ? describe(blocked) : 'outside global unicast (2000::/3)'}`;
  const embedded = embeddedIpv4(bytes);
  if (embedded) {
    const inner = embedded.addresses.map((address) => classifyIpv4(address).reason).join('; ');
    reason += `, carrying ${inner}`;
  }
  return { public: false, reason };
}

function within(form: string, inner: AddressVerdict): AddressVerdict {
  return { public: inner.public, reason: `${form}: ${inner.reason}` };
}

/** Judges one address as text. Anything that is not a plain IPv4 or IPv6 address is refused. */
export function classifyAddress(text: string): AddressVerdict {
  // Only scoped (link-local, multicast) addresses need a zone, and those are never public.
  if (text.includes('%')) return { public: false, reason: `${text} has a zone id (a scoped address)` };
  const ipv4 = parseIpv4(text);
  if (ipv4) return classifyIpv4(ipv4);
  const ipv6 = text.includes(':') ? parseIpv6(text) : undefined;
  if (ipv6) return classifyIpv6(ipv6, text.toLowerCase());
  return { public: false, reason: `'${text}' is not an IP address` };
}

export function isPublicAddress(text: string): boolean {
  return classifyAddress(text).public;
}
