// The client a request is counted, limited or locked out under (media limits, viewer counts,
// the RTMP wrong-key lockout). An IPv4 address is one client; an
// IPv6 client is its /64, the block one subscriber is usually given whole, so a single home
// cannot pose as 2^64 viewers by changing the low bits of its address.
import net from 'node:net';

/** A peer address (for HTTP, `request.ip`, which honours TRUST_PROXY) reduced to the client it stands for. */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)?.[1];
  if (mapped !== undefined) return mapped;
  if (!net.isIPv6(ip)) return ip;
  return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in lower-case hex without leading zeros. */
function ipv6Groups(ip: string): string[] {
  const [address = ''] = ip.split('%');
  const [head = '', tail] = address.split('::');
  const split = (part: string) => (part === '' ? [] : part.split(':').flatMap(embeddedIpv4));
  const first = split(head);
  const last = tail === undefined ? [] : split(tail);
  const zeros = Array.from({ length: 8 - first.length - last.length }, () => '0');
  return [...first, ...zeros, ...last].map((group) => Number.parseInt(group, 16).toString(16));
}

/** `1.2.3.4` written at the end of an IPv6 address fills two groups. */
function embeddedIpv4(group: string): string[] {
  if (!group.includes('.')) return [group];
  const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
