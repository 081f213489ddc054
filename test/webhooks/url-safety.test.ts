// Which addresses a webhook may reach, one row per entry of the IANA IPv4 and IPv6
// Special-Purpose Address Registries (the CSVs as of 2026), plus multicast, the IPv6 forms
// that carry an IPv4 address, odd notations, and global addresses that must stay reachable.
// Every row is checked three ways: by the classifier, at registration through the API (the
// URL's host is the literal address, private targets not allowed), and where the sender
// connects (a name that a test resolver answers with the address).
import assert from 'node:assert/strict';
import type dns from 'node:dns';
import net from 'node:net';
import { describe, test } from 'node:test';
import { WebhookSender } from '../../src/webhooks/delivery/sender.ts';
import { IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE } from '../../src/webhooks/address-ranges.ts';
import {
  classifyAddress,
  isPublicAddress,
  publicOnlyLookup,
  type Resolver,
} from '../../src/webhooks/url-safety.ts';
import { startReceiver } from '../helpers/https-receiver.ts';
import { testCa } from '../helpers/test-ca.ts';
import { startWebhookServer } from './harness.ts';

interface Row {
  /** The registry entry (or other form) the address stands for. */
  entry: string;
  address: string;
  allowed: boolean;
}

const refused = (entry: string, address: string): Row => ({ entry, address, allowed: false });
const allowed = (entry: string, address: string): Row => ({ entry, address, allowed: true });

// IANA IPv4 Special-Purpose Address Registry, every row. Rows marked "Globally Reachable:
// True" are anycast services answered by the nearest instance, which may be inside our own
// network; they are refused too (see src/webhooks/address-ranges.ts).
const IPV4_REGISTRY: Row[] = [
  refused('0.0.0.0/8 "This network"', '0.1.2.3'),
  refused('0.0.0.0/32 "This host on this network"', '0.0.0.0'),
  refused('10.0.0.0/8 Private-Use', '10.255.255.254'),
  refused('100.64.0.0/10 Shared Address Space', '100.127.255.254'),
  refused('127.0.0.0/8 Loopback', '127.53.0.1'),
  refused('169.254.0.0/16 Link Local (cloud metadata)', '169.254.169.254'),
  refused('172.16.0.0/12 Private-Use', '172.31.255.254'),
  refused('192.0.0.0/24 IETF Protocol Assignments', '192.0.0.200'),
  refused('192.0.0.0/29 IPv4 Service Continuity Prefix', '192.0.0.1'),
  refused('192.0.0.8/32 IPv4 dummy address', '192.0.0.8'),
  refused('192.0.0.9/32 Port Control Protocol Anycast (globally reachable)', '192.0.0.9'),
  refused('192.0.0.10/32 TURN Anycast (globally reachable)', '192.0.0.10'),
  refused('192.0.0.170/32 NAT64/DNS64 Discovery', '192.0.0.170'),
  refused('192.0.0.171/32 NAT64/DNS64 Discovery', '192.0.0.171'),
  refused('192.0.2.0/24 Documentation (TEST-NET-1)', '192.0.2.1'),
  refused('192.31.196.0/24 AS112-v4 (globally reachable)', '192.31.196.1'),
  refused('192.52.193.0/24 AMT (globally reachable)', '192.52.193.1'),
  refused('192.88.99.0/24 Deprecated (6to4 Relay Anycast)', '192.88.99.1'),
  refused('192.88.99.2/32 6a44-relay anycast address', '192.88.99.2'),
  refused('192.168.0.0/16 Private-Use', '192.168.1.1'),
  refused('192.175.48.0/24 Direct Delegation AS112 Service (globally reachable)', '192.175.48.6'),
  refused('198.18.0.0/15 Benchmarking', '198.19.255.254'),
  refused('198.51.100.0/24 Documentation (TEST-NET-2)', '198.51.100.7'),
  refused('203.0.113.0/24 Documentation (TEST-NET-3)', '203.0.113.9'),
  refused('240.0.0.0/4 Reserved', '250.1.2.3'),
  refused('255.255.255.255/32 Limited Broadcast', '255.255.255.255'),
];

// IANA IPv6 Special-Purpose Address Registry, every row.
const IPV6_REGISTRY: Row[] = [
  refused('::1/128 Loopback Address', '::1'),
  refused('::/128 Unspecified Address', '::'),
  refused('::ffff:0:0/96 IPv4-mapped Address (of a private IPv4)', '::ffff:10.0.0.1'),
  refused('64:ff9b::/96 IPv4-IPv6 Translation (of a loopback IPv4)', '64:ff9b::127.0.0.1'),
  refused('64:ff9b:1::/48 IPv4-IPv6 Translation, local use', '64:ff9b:1::808:808'),
  refused('100::/64 Discard-Only Address Block', '100::1'),
  refused('100:0:0:1::/64 Dummy IPv6 Prefix', '100:0:0:1::1'),
  refused('2001::/23 IETF Protocol Assignments', '2001:1ff:ffff::1'),
  refused('2001::/32 TEREDO', '2001:0:4136:e378:8000:63bf:3fff:fdd2'),
  refused('2001:1::1/128 Port Control Protocol Anycast (globally reachable)', '2001:1::1'),
  refused('2001:1::2/128 TURN Anycast (globally reachable)', '2001:1::2'),
  refused('2001:1::3/128 DNS-SD Service Registration Protocol Anycast (globally reachable)', '2001:1::3'),
  refused('2001:2::/48 Benchmarking', '2001:2:0:ffff::1'),
  refused('2001:3::/32 AMT (globally reachable)', '2001:3::1'),
  refused('2001:4:112::/48 AS112-v6 (globally reachable)', '2001:4:112::1'),
  refused('2001:10::/28 Deprecated (previously ORCHID)', '2001:1f::1'),
  refused('2001:20::/28 ORCHIDv2 (globally reachable)', '2001:2f:ffff::1'),
  refused('2001:30::/28 Drone Remote ID Protocol Entity Tags (globally reachable)', '2001:30::1'),
  refused('2001:db8::/32 Documentation', '2001:db8::1'),
  refused('2002::/16 6to4 (of a public IPv4)', '2002:808:808::1'),
  refused('2620:4f:8000::/48 Direct Delegation AS112 Service (globally reachable)', '2620:4f:8000::1'),
  refused('3fff::/20 Documentation', '3fff:fff::1'),
  refused('5f00::/16 Segment Routing (SRv6) SIDs', '5f00::1'),
  refused('fc00::/7 Unique-Local', 'fc00::1'),
  refused('fc00::/7 Unique-Local (cloud metadata)', 'fd00:ec2::254'),
  refused('fe80::/10 Link-Local Unicast', 'febf::1'),
];

// Outside the special-purpose registries but never a webhook receiver.
const OTHER_NON_GLOBAL: Row[] = [
  refused('224.0.0.0/4 multicast', '239.255.255.250'),
  refused('ff00::/8 multicast', 'ff02::1'),
  refused('fec0::/10 site-local (deprecated)', 'fec0::1'),
  refused('outside 2000::/3 (unassigned)', '4000::1'),
  refused('outside 2000::/3 (unassigned, just below)', '1fff:ffff::1'),
];

// IPv6 forms that carry an IPv4 address: the embedded address is decoded and judged, and
// a blocked wrapper stays blocked whatever it carries.
const EMBEDDED_IPV4: Row[] = [
  refused('IPv4-mapped ::ffff:a.b.c.d of loopback', '::ffff:127.0.0.1'),
  refused('IPv4-mapped ::ffff:a.b.c.d of metadata', '::ffff:169.254.169.254'),
  refused('IPv4-mapped in hex groups', '::ffff:7f00:1'),
  allowed('IPv4-mapped ::ffff:a.b.c.d of a public IPv4 (that IPv4 is what is dialled)', '::ffff:8.8.8.8'),
  refused('IPv4-compatible ::a.b.c.d of loopback', '::127.0.0.1'),
  refused('IPv4-compatible ::a.b.c.d of metadata', '::169.254.169.254'),
  refused('IPv4-compatible ::a.b.c.d of a public IPv4 (deprecated form)', '::8.8.8.8'),
  refused('IPv4-translated ::ffff:0:a.b.c.d of loopback', '::ffff:0:127.0.0.1'),
  refused('IPv4-translated ::ffff:0:a.b.c.d of a public IPv4', '::ffff:0:8.8.8.8'),
  refused('NAT64 64:ff9b::/96 of private', '64:ff9b::10.0.0.1'),
  refused('NAT64 64:ff9b::/96 of metadata', '64:ff9b::a9fe:a9fe'),
  allowed('NAT64 64:ff9b::/96 of a public IPv4 (DNS64 networks)', '64:ff9b::8.8.8.8'),
  refused('local-use NAT64 64:ff9b:1::/48 of loopback', '64:ff9b:1::7f00:1'),
  refused('6to4 2002::/16 of loopback', '2002:7f00:1::1'),
  refused('6to4 2002::/16 of metadata', '2002:a9fe:a9fe::'),
  refused('Teredo, server 10.0.0.1', '2001:0:a00:1:8000:63bf:3fff:fdd2'),
  refused('Teredo, client 10.0.0.1 (obfuscated)', '2001:0:4136:e378:8000:63bf:f5ff:fffe'),
];

// Global addresses, including the first ones past the edge of a blocked range, so the
// table proves the classifier does not refuse everything.
const GLOBAL: Row[] = [
  allowed('public IPv4 (Google DNS)', '8.8.8.8'),
  allowed('public IPv4 (Cloudflare DNS)', '1.1.1.1'),
  allowed('public IPv4 past 100.64.0.0/10', '100.128.0.1'),
  allowed('public IPv4 past 172.16.0.0/12', '172.32.0.1'),
  allowed('public IPv4 past 198.18.0.0/15', '198.20.0.1'),
  allowed('public IPv4 below 224.0.0.0/4', '223.255.255.254'),
  allowed('public IPv6 (Cloudflare DNS)', '2606:4700:4700::1111'),
  allowed('public IPv6 (Google DNS, inside 2001::/16 but past 2001::/23)', '2001:4860:4860::8888'),
  allowed('public IPv6 past 2001::/23', '2001:200::1'),
  allowed('public IPv6 past 2620:4f:8000::/48', '2620:4f:8001::1'),
  allowed('public IPv6 past 3fff::/20', '3fff:1000::1'),
];

// Spellings the classifier may be handed: uppercase, leading zeros, mixed notation, zone ids
// and things that are not addresses at all (which cannot be judged, so are refused).
const NOTATIONS: Row[] = [
  refused('uppercase link-local', 'FE80::1'),
  refused('uppercase unique-local', 'FD00:EC2::254'),
  refused('uppercase IPv4-mapped', '::FFFF:7F00:1'),
  refused('loopback with every zero written', '0000:0000:0000:0000:0000:0000:0000:0001'),
  refused('IPv4-mapped written in full', '0:0:0:0:0:ffff:127.0.0.1'),
  refused('link-local with a zone id', 'fe80::1%eth0'),
  refused('loopback with a zone id', '::1%lo'),
  refused('IPv4 with leading zeros (ambiguous octal)', '127.000.000.001'),
  refused('IPv4 in hex (not an address string)', '0x7f.0.0.1'),
  refused('a name, not an address', 'localhost'),
  refused('empty', ''),
  refused('two "::"', '1::2::3'),
  refused('IPv4 octet out of range in mapped form', '::ffff:256.0.0.1'),
];

const ROWS = [...IPV4_REGISTRY, ...IPV6_REGISTRY, ...OTHER_NON_GLOBAL, ...EMBEDDED_IPV4, ...GLOBAL];

const verdict = (row: Row) => (row.allowed ? 'allowed' : 'refused');

describe('the address classifier', () => {
  for (const row of [...ROWS, ...NOTATIONS]) {
    test(`${row.entry}: ${row.address || '(empty)'} is ${verdict(row)}`, () => {
      assert.equal(isPublicAddress(row.address), row.allowed);
    });
  }
});

describe('the range table and the reasons given', () => {
  test("the table holds exactly the registries' rows, and this file has a row for each", () => {
    const cidrs = (rows: Row[]) => [...new Set(rows.map((row) => row.entry.split(' ')[0]))].sort();
    assert.deepEqual(IPV4_SPECIAL_PURPOSE.map((range) => range.cidr).sort(), cidrs(IPV4_REGISTRY));
    assert.deepEqual(IPV6_SPECIAL_PURPOSE.map((range) => range.cidr).sort(), cidrs(IPV6_REGISTRY));
  });

  const reasons: [string, RegExp][] = [
    ['10.1.2.3', /^10\.1\.2\.3 is private-use \(10\.0\.0\.0\/8\)$/],
    ['2001:1::1', /Port Control Protocol anycast \(2001:1::1\/128\)$/],
    ['::ffff:10.0.0.1', /^IPv4-mapped: 10\.0\.0\.1 is private-use/],
    ['64:ff9b::808:808', /^NAT64 \(64:ff9b::\/96\): 8\.8\.8\.8 is public$/],
    ['64:ff9b::a9fe:a9fe', /^NAT64 \(64:ff9b::\/96\): 169\.254\.169\.254 is link-local/],
    ['::7f00:1', /IPv4-compatible \(deprecated\) \(::\/96\), carrying 127\.0\.0\.1 is loopback/],
    ['::ffff:0:a00:1', /IPv4-translated \(::ffff:0:0:0\/96\), carrying 10\.0\.0\.1 is private-use/],
    ['2002:a9fe:a9fe::', /6to4 \(2002::\/16\), carrying 169\.254\.169\.254 is link-local/],
    // RFC 4380's example: server 65.54.227.120, client 192.0.2.45 (stored inverted).
    [
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      /Teredo \(2001::\/32\), carrying 65\.54\.227\.120 is public; 192\.0\.2\.45 is documentation/,
    ],
    ['4000::1', /outside global unicast \(2000::\/3\)$/],
    ['fe80::1%eth0', /zone id/],
    ['0x7f.0.0.1', /not an IP address/],
  ];
  for (const [address, reason] of reasons) {
    test(`${address}: ${String(reason)}`, () => {
      assert.match(classifyAddress(address).reason, reason);
    });
  }
});

/** The URL a receiver would register for a literal address. */
function literalUrl(address: string, port?: number): string {
  const host = net.isIPv6(address) ? `[${address}]` : address;
  return `https://${host}${port === undefined ? '' : `:${port}`}/hook`;
}

describe('registration through the API (private targets not allowed)', () => {
  test('each row: a URL whose host is the literal address is registered or refused as the table says', async (t) => {
    const { server } = await startWebhookServer(t, {
      dialect: 'sqlite',
      worker: false,
      webhooks: { allowPrivateTargets: false },
    });
    const account = await server.createAccount();
    for (const row of ROWS) {
      const url = literalUrl(row.address);
      await t.test(`${row.entry}: ${url} is ${verdict(row)}`, async () => {
        const res = await server.request('POST', '/v1/webhooks', {
          key: account.writeKey,
          body: { url, events: ['*'] },
        });
        // Keeps the account under its webhook limit, whatever this row's verdict.
        if (res.status === 201) {
          const removed = await server.request('DELETE', `/v1/webhooks/${res.body.id}`, {
            key: account.writeKey,
          });
          assert.equal(removed.status, 200);
        }
        if (row.allowed) {
          assert.equal(res.status, 201, JSON.stringify(res.body));
        } else {
          assert.equal(res.status, 400, JSON.stringify(res.body));
          assert.equal(res.body.error.code, 'parameter_invalid');
          assert.equal(res.body.error.param, 'url');
        }
      });
    }
  });

  test('the error names the range for a literal address, but not what a name resolves to', async (t) => {
    const { server } = await startWebhookServer(t, {
      dialect: 'sqlite',
      worker: false,
      webhooks: { allowPrivateTargets: false },
    });
    const account = await server.createAccount();
    const register = (url: string) =>
      server.request('POST', '/v1/webhooks', { key: account.writeKey, body: { url, events: ['*'] } });
    const literal = await register('https://[2001:0:a00:1:8000:63bf:3fff:fdd2]/hook');
    assert.equal(literal.status, 400);
    assert.match(literal.body.error.message, /Teredo \(2001::\/32\), carrying 10\.0\.0\.1 is private-use/);
    const named = await register('https://localhost/hook');
    assert.equal(named.status, 400);
    assert.equal(named.body.error.param, 'url');
    assert.doesNotMatch(named.body.error.message, /127\.0\.0\.1|::1/);
  });

  test('odd spellings of a blocked address are normalised by the URL parser and still refused', async (t) => {
    const { server } = await startWebhookServer(t, {
      dialect: 'sqlite',
      worker: false,
      webhooks: { allowPrivateTargets: false },
    });
    const account = await server.createAccount();
    for (const url of [
      'https://0x7f.1/hook',
      'https://2130706433/hook',
      'https://0177.0.0.1/hook',
      'https://127.1/hook',
      'https://127.0.0.1./hook',
      'https://%31%32%37.0.0.1/hook',
      'https://127\u30020\u30020\u30021/hook',
      'https://0xa9.0xfe.0xa9.0xfe/latest/meta-data',
      'https://[::FFFF:7F00:1]/hook',
      'https://[0:0:0:0:0:ffff:127.0.0.1]/hook',
      'https://[0000:0000:0000:0000:0000:0000:0000:0001]/hook',
      'https://[FE80::1]/hook',
      'https://[fe80::1%25eth0]/hook',
      'https://[64:ff9b:0:0:0:0:a9fe:a9fe]/hook',
      'https://[2001:0:4136:E378:8000:63BF:F5FF:FFFE]/hook',
    ]) {
      await t.test(url, async () => {
        const res = await server.request('POST', '/v1/webhooks', {
          key: account.writeKey,
          body: { url, events: ['*'] },
        });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.code, 'parameter_invalid');
        assert.equal(res.body.error.param, 'url');
      });
    }
  });
});

/** A resolver that answers `row-<n>.test` with the n-th row's address and nothing else. */
function tableResolver(rows: Row[]): Resolver {
  return (hostname, _options, callback) => {
    const match = /^row-(\d+)\.test$/.exec(hostname);
    const row = match ? rows[Number(match[1])] : undefined;
    if (!row) {
      callback(Object.assign(new Error(`${hostname} not found`), { code: 'ENOTFOUND' }), []);
      return;
    }
    callback(null, [{ address: row.address, family: net.isIP(row.address) }]);
  };
}

function lookupOnce(
  lookup: ReturnType<typeof publicOnlyLookup>,
  hostname: string,
  options: dns.LookupOptions,
): Promise<{ error: Error | null; address: string | dns.LookupAddress[] }> {
  return new Promise((resolve) => {
    lookup(hostname, options, (error, address) => {
      resolve({ error, address });
    });
  });
}

describe('where the sender connects (private targets not allowed)', () => {
  test('each refused row: a name resolving to it, and the literal address, are refused without a request', async (t) => {
    const receiver = await startReceiver();
    const sender = new WebhookSender({
      timeoutMs: 1000,
      allowPrivateTargets: false,
      ca: testCa().caPem,
      resolve: tableResolver(ROWS),
    });
    t.after(async () => {
      await sender.close();
      await receiver.close();
    });
    const send = (url: string) =>
      sender.send({ url, body: Buffer.from('{}'), headers: {}, controller: new AbortController() });
    for (const [index, row] of ROWS.entries()) {
      if (row.allowed) continue;
      await t.test(`${row.entry}: ${row.address}`, async () => {
        const byName = await send(`https://row-${index}.test:${receiver.port}/hook`);
        assert.equal(byName.kind, 'failed');
        assert.match(byName.error, /non-public/);
        const byAddress = await send(literalUrl(row.address, receiver.port));
        assert.equal(byAddress.kind, 'failed');
        assert.match(byAddress.error, /refused: .* is not a public address/);
      });
    }
    assert.equal(receiver.requests.length, 0);
  });

  test('each allowed row: the lookup the sender installs hands the address to the socket', async (t) => {
    const lookup = publicOnlyLookup(tableResolver(ROWS));
    for (const [index, row] of ROWS.entries()) {
      if (!row.allowed) continue;
      await t.test(`${row.entry}: ${row.address}`, async () => {
        const all = await lookupOnce(lookup, `row-${index}.test`, { all: true });
        assert.equal(all.error, null);
        assert.deepEqual(all.address, [{ address: row.address, family: net.isIP(row.address) }]);
        const one = await lookupOnce(lookup, `row-${index}.test`, {});
        assert.equal(one.error, null);
        assert.equal(one.address, row.address);
      });
    }
  });

  test('a name with one public and one non-public answer is refused', async () => {
    const lookup = publicOnlyLookup((_hostname, _options, callback) => {
      callback(null, [
        { address: '8.8.8.8', family: 4 },
        { address: '2001:20::1', family: 6 },
      ]);
    });
    const result = await lookupOnce(lookup, 'mixed.test', { all: true });
    assert.match(result.error?.message ?? '', /non-public address: 2001:20::1 is ORCHIDv2 \(2001:20::\/28\)/);
  });
});
