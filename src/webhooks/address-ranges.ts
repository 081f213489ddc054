// The ranges a webhook may never reach: every row of the IANA IPv4 and IPv6 Special-Purpose
// Address Registries (the registries' CSVs as of 2026: iana.org/assignments/iana-ipv4-special-registry
// and iana-ipv6-special-registry), plus the ranges outside them that are never a receiver
// (multicast, deprecated site-local). Any IPv6 address outside global unicast 2000::/3 is
// refused as well, so a range IANA adds out there later is covered before this table is.
//
// `globallyReachable` is the registry's column, kept for the record; the policy refuses every
// row whatever it says. The rows marked True are anycast services answered by the nearest
// instance (PCP and SRP servers are the local gateway or border router, TURN, AMT and AS112
// servers are often run inside the operator's own network) or identifier spaces (ORCHIDv2,
// drone DETs) that no HTTPS receiver uses: a target there is either pointless or an internal
// service. The one exception is in address-classifier.ts: the well-known NAT64 prefix
// 64:ff9b::/96 is judged by the IPv4 address it carries.

export interface SpecialRange {
  cidr: string;
  name: string;
  rfc: string;
  /** The registry's "Globally Reachable" column; undefined where it is blank or N/A. */
  globallyReachable: boolean | undefined;
}

const row = (cidr: string, name: string, rfc: string, globallyReachable?: boolean): SpecialRange => ({
  cidr,
  name,
  rfc,
  globallyReachable,
});

export const IPV4_SPECIAL_PURPOSE: readonly SpecialRange[] = [
  row('0.0.0.0/8', '"this network"', 'RFC 791', false),
  row('0.0.0.0/32', '"this host on this network"', 'RFC 1122', false),
  row('10.0.0.0/8', 'private-use', 'RFC 1918', false),
  row('100.64.0.0/10', 'shared address space (carrier-grade NAT)', 'RFC 6598', false),
  row('127.0.0.0/8', 'loopback', 'RFC 1122', false),
  row('169.254.0.0/16', 'link-local (cloud metadata)', 'RFC 3927', false),
  row('172.16.0.0/12', 'private-use', 'RFC 1918', false),
  row('192.0.0.0/24', 'IETF protocol assignments', 'RFC 6890', false),
  row('192.0.0.0/29', 'IPv4 service continuity prefix', 'RFC 7335', false),
  row('192.0.0.8/32', 'IPv4 dummy address', 'RFC 7600', false),
  row('192.0.0.9/32', 'Port Control Protocol anycast', 'RFC 7723', true),
  row('192.0.0.10/32', 'TURN anycast', 'RFC 8155', true),
  row('192.0.0.170/32', 'NAT64/DNS64 discovery', 'RFC 8880', false),
  row('192.0.0.171/32', 'NAT64/DNS64 discovery', 'RFC 8880', false),
  row('192.0.2.0/24', 'documentation (TEST-NET-1)', 'RFC 5737', false),
  row('192.31.196.0/24', 'AS112-v4', 'RFC 7535', true),
  row('192.52.193.0/24', 'AMT', 'RFC 7450', true),
  row('192.88.99.0/24', 'deprecated 6to4 relay anycast', 'RFC 7526'),
  row('192.88.99.2/32', '6a44 relay anycast', 'RFC 6751', false),
  row('192.168.0.0/16', 'private-use', 'RFC 1918', false),
  row('192.175.48.0/24', 'direct delegation AS112 service', 'RFC 7534', true),
  row('198.18.0.0/15', 'benchmarking', 'RFC 2544', false),
  row('198.51.100.0/24', 'documentation (TEST-NET-2)', 'RFC 5737', false),
  row('203.0.113.0/24', 'documentation (TEST-NET-3)', 'RFC 5737', false),
  row('240.0.0.0/4', 'reserved', 'RFC 1112', false),
  row('255.255.255.255/32', 'limited broadcast', 'RFC 919', false),
];

export const IPV6_SPECIAL_PURPOSE: readonly SpecialRange[] = [
  row('::1/128', 'loopback', 'RFC 4291', false),
  row('::/128', 'unspecified', 'RFC 4291', false),
  row('::ffff:0:0/96', 'IPv4-mapped', 'RFC 4291', false),
  row('64:ff9b::/96', 'IPv4-IPv6 translation (NAT64)', 'RFC 6052', true),
  row('64:ff9b:1::/48', 'local-use IPv4-IPv6 translation', 'RFC 8215', false),
  row('100::/64', 'discard-only', 'RFC 6666', false),
  row('100:0:0:1::/64', 'dummy IPv6 prefix', 'RFC 9780', false),
  row('2001::/23', 'IETF protocol assignments', 'RFC 2928', false),
  row('2001::/32', 'Teredo', 'RFC 4380'),
  row('2001:1::1/128', 'Port Control Protocol anycast', 'RFC 7723', true),
  row('2001:1::2/128', 'TURN anycast', 'RFC 8155', true),
  row('2001:1::3/128', 'DNS-SD service registration protocol anycast', 'RFC 9665', true),
  row('2001:2::/48', 'benchmarking', 'RFC 5180', false),
  row('2001:3::/32', 'AMT', 'RFC 7450', true),
  row('2001:4:112::/48', 'AS112-v6', 'RFC 7535', true),
  row('2001:10::/28', 'deprecated ORCHID', 'RFC 4843'),
  row('2001:20::/28', 'ORCHIDv2', 'RFC 7343', true),
  row('2001:30::/28', 'drone remote ID entity tags', 'RFC 9374', true),
  row('2001:db8::/32', 'documentation', 'RFC 3849', false),
  row('2002::/16', '6to4', 'RFC 3056'),
  row('2620:4f:8000::/48', 'direct delegation AS112 service', 'RFC 7534', true),
  row('3fff::/20', 'documentation', 'RFC 9637', false),
  row('5f00::/16', 'segment routing (SRv6) SIDs', 'RFC 9602', false),
  row('fc00::/7', 'unique-local (cloud metadata)', 'RFC 4193', false),
  row('fe80::/10', 'link-local', 'RFC 4291', false),
];

/** Not in the special-purpose registries, but never a webhook receiver either. */
export const IPV4_OTHER: readonly SpecialRange[] = [row('224.0.0.0/4', 'multicast', 'RFC 5771', false)];

export const IPV6_OTHER: readonly SpecialRange[] = [
  row('::/96', 'IPv4-compatible (deprecated)', 'RFC 4291', false),
  row('::ffff:0:0:0/96', 'IPv4-translated', 'RFC 2765', false),
  row('fec0::/10', 'site-local (deprecated)', 'RFC 3879', false),
  row('ff00::/8', 'multicast', 'RFC 4291', false),
];

/** The only IPv6 space a webhook may reach, less the rows above. */
export const IPV6_GLOBAL_UNICAST = '2000::/3';
