import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attemptErrorKind } from '../../src/webhooks/delivery/error-kind.ts';

test('stored attempt errors map to the short words the API shows', () => {
  // The descriptions the sender writes (sender.ts), as stored in attempt rows.
  const cases: [string, string][] = [
    ['timeout: no complete answer within 5000 ms', 'timeout'],
    ['refused: 10.0.0.7 is not a public address', 'unsafe_target'],
    ['ERR_WEBHOOK_PRIVATE_TARGET: hooks.example resolves to a non-public address: private', 'unsafe_target'],
    ['ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9', 'connection_refused'],
    ['ENOTFOUND: getaddrinfo ENOTFOUND nowhere.invalid', 'dns'],
    ['EAI_AGAIN: getaddrinfo EAI_AGAIN hooks.example', 'dns'],
    ['UND_ERR_CONNECT_TIMEOUT: Connect Timeout Error', 'timeout'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match', 'tls'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate', 'tls'],
    ['ECONNRESET: read ECONNRESET', 'connection_reset'],
    ['UND_ERR_SOCKET: other side closed', 'connection_reset'],
    ['request failed', 'network'],
  ];
  for (const [stored, kind] of cases) assert.equal(attemptErrorKind(stored), kind, stored);
});
