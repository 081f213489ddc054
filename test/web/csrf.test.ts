// Every state-changing page route refuses a request without the CSRF token, with another
// session's token, and from another site (Sec-Fetch-Site, or Origin when that is all a browser
// sends), with a 403 page whose code is csrf_failed, and changes nothing; the same request
// from the page itself goes through (so the refusals are not the route refusing anything).
// The routes come from test/web/csrf-routes*.ts; every page route that changes state must be
// in one of them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { declaredAccess } from '../../src/http/access.ts';
import { startTestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { newAgent, signUp } from '../helpers/web.ts';
import type { CsrfContext, CsrfRoute } from './csrf-routes.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Every user's password here; csrf-routes.ts's forms use it. */
const PASSWORD = 'csrf user password';

async function allRoutes(): Promise<CsrfRoute[]> {
  const files = fs.readdirSync(import.meta.dirname).filter((name) => /^csrf-routes.*\.ts$/.test(name));
  const lists = await Promise.all(
    files.map(
      async (name) =>
        ((await import(path.join(import.meta.dirname, name))) as { CSRF_ROUTES: CsrfRoute[] }).CSRF_ROUTES,
    ),
  );
  return lists.flat();
}

async function expectRefused(response: Response, what: string): Promise<void> {
  assert.equal(response.status, 403, what);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/, what);
  assert.match(await response.text(), /<code class="error-code">csrf_failed<\/code>/, what);
}

for (const dialect of DIALECTS) {
  test(`${dialect}: every state-changing page route refuses a missing or wrong token and a cross-site request`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 100_000 });
    const routes = await allRoutes();

    const declared = declaredAccess(server.app).filter(
      (r) => r.access === 'page' && STATE_CHANGING.has(r.method),
    );
    assert.ok(declared.length >= 8, 'the page routes were found');
    assert.deepEqual(
      declared.map((r) => `${r.method} ${r.url}`).sort(),
      routes.map((r) => `${r.method} ${r.route}`).sort(),
      'every state-changing page route is in a test/web/csrf-routes*.ts list (and nothing else is)',
    );

    // Whom the sign-in form signs in.
    await server.services.logins.createUser({
      name: 'Csrf user',
      email: 'csrf-user@example.com',
      password: PASSWORD,
    });
    let users = 0;
    for (const route of routes) {
      const name = `${route.method} ${route.route}`;
      await t.test(name, async () => {
        // A fresh user per route: a route may sign out or change the password.
        const email = `csrf-user-${++users}@example.com`;
        const user = await signUp(server.origin, { name: 'Csrf user', email, password: PASSWORD });
        const userId = (await server.services.logins.signIn({ email, password: PASSWORD, address: 'test' }))
          .id;
        const visitor = newAgent(server.origin);
        const context: CsrfContext = { server, user, userId, visitor };
        const attempt = await route.setup(context);
        const agent = attempt.as === 'user' ? user : visitor;
        const token = await agent.csrf();
        const someoneElses = await newAgent(server.origin).csrf();
        assert.notEqual(someoneElses, token);

        await expectRefused(
          await agent.post(attempt.path, { ...attempt.form, _csrf: '' }),
          `${name}: no token`,
        );
        await expectRefused(
          await agent.post(attempt.path, { ...attempt.form, _csrf: someoneElses }),
          `${name}: another session's token`,
        );
        await expectRefused(
          await agent.post(
            attempt.path,
            { ...attempt.form, _csrf: token },
            { 'sec-fetch-site': 'cross-site' },
          ),
          `${name}: cross-site (Sec-Fetch-Site)`,
        );
        await expectRefused(
          await agent.post(
            attempt.path,
            { ...attempt.form, _csrf: token },
            { 'sec-fetch-site': 'same-site' },
          ),
          `${name}: a sibling subdomain (Sec-Fetch-Site: same-site)`,
        );
        await expectRefused(
          await agent.post(
            attempt.path,
            { ...attempt.form, _csrf: token },
            { origin: 'https://evil.example' },
          ),
          `${name}: cross-site (Origin)`,
        );
        await expectRefused(
          await agent.post(attempt.path, { ...attempt.form, _csrf: token }, { origin: 'null' }),
          `${name}: an opaque origin`,
        );
        // The header works as well as the field, and is checked the same way.
        await expectRefused(
          await agent.post(attempt.path, { ...attempt.form, _csrf: '' }, { 'x-csrf-token': someoneElses }),
          `${name}: another session's token in the header`,
        );
        await attempt.unchanged?.();

        const accepted = attempt.accept
          ? await attempt.accept(token)
          : await agent.post(
              attempt.path,
              { ...attempt.form, _csrf: token },
              { 'sec-fetch-site': 'same-origin', origin: server.origin },
            );
        await accepted.body?.cancel();
        assert.ok(accepted.status < 400, `${name}: the page's own request goes through (${accepted.status})`);
      });
    }
  });
}
