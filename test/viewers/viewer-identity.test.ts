// The viewer cookie: what it sets (attributes, path under PUBLIC_URL's path, Secure on https),
// that a cookie signed under another secret or edited by hand is no identity, and that the id
// a request was counted under is the one its cookie carries on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cookieValue, ViewerIdentities } from '../../src/viewers/viewer-identity.ts';

const request = { cookieHeader: undefined, queryViewer: 'page-load-1', userAgent: 'agent', secure: false };

test('the cookie is HttpOnly, SameSite=Lax, scoped to the watch pages, Secure on https', () => {
  const identities = new ViewerIdentities(Buffer.alloc(32, 1), '/tv');
  const plain = identities.identify(request);
  assert.equal(plain.id, 'c:page-load-1');
  assert.match(
    plain.setCookie ?? '',
    /^tributary_viewer=page-load-1\.[A-Za-z0-9_-]{22}; Path=\/tv\/watch; Max-Age=31536000; HttpOnly; SameSite=Lax$/,
  );
  const secure = identities.identify({ ...request, secure: true });
  assert.match(secure.setCookie ?? '', /; HttpOnly; SameSite=Lax; Secure$/);
});

test('a valid cookie wins over the page id; forged or foreign cookies are no identity', () => {
  const identities = new ViewerIdentities(Buffer.alloc(32, 1), '');
  const issued = cookieValue(identities.identify(request).setCookie?.split(';')[0], 'tributary_viewer') ?? '';
  const again = identities.identify({
    ...request,
    queryViewer: 'page-load-2',
    cookieHeader: `a=b; tributary_viewer=${issued}; c=d`,
  });
  assert.deepEqual(again, { id: 'c:page-load-1', setCookie: undefined });

  const foreign = new ViewerIdentities(Buffer.alloc(32, 2), '').identify({
    ...request,
    cookieHeader: `tributary_viewer=${issued}`,
    queryViewer: 'page-load-3',
  });
  assert.equal(foreign.id, 'c:page-load-3', 'signed under another secret');
  assert.ok(foreign.setCookie);
  const [id, signature = ''] = issued.split('.');
  for (const forged of [
    `someone-else.${signature}`,
    `${id}.${signature.slice(0, -1)}A`,
    `${id}`,
    '',
    '.',
    `${'x'.repeat(200)}.${signature}`,
  ]) {
    const result = identities.identify({
      ...request,
      cookieHeader: `tributary_viewer=${forged}`,
      queryViewer: undefined,
    });
    assert.match(result.id, /^c:agent-/, forged);
  }
});
