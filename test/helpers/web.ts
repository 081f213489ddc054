// A browser-like client of the web app for tests: real fetch, a cookie jar, and the CSRF
// token read from a page the way a form would carry it. Redirects are not followed, so a test
// sees each 303 and where it goes.
import type { BrowserContext } from 'playwright-core';

export interface WebAgent {
  /** The Cookie header the agent sends (`name=value; ...`). */
  readonly cookie: string;
  /** The CSRF token of the agent's session (or pre-session), read from a page (`/sign-in` unless told). */
  csrf(path?: string): Promise<string>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** Posts a form; `_csrf` is added from the agent's session unless the form has one. */
  post(path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  /** The session cookie's value, when there is one. */
  sessionToken(): string | undefined;
}

const CSRF_FIELD = /name="_csrf" value="([^"]+)"/;

export function newAgent(baseUrl: string): WebAgent {
  const origin = new URL(baseUrl).origin;
  const jar = new Map<string, string>();
  let token: string | undefined;
  let tokenFor: string | undefined;

  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  };
  const send = async (path: string, init: RequestInit & { headers: Record<string, string> }) => {
    const cookie = cookieHeader();
    if (cookie !== '') init.headers.cookie = cookie;
    const response = await fetch(`${origin}${path}`, { ...init, redirect: 'manual' });
    remember(response);
    return response;
  };
  const agent: WebAgent = {
    get cookie() {
      return cookieHeader();
    },
    sessionToken() {
      for (const [name, value] of jar) if (name.endsWith('tributary_session')) return value;
      return undefined;
    },
    async csrf(path = '/sign-in') {
      const binding = cookieHeader();
      if (token !== undefined && tokenFor === binding) return token;
      let response = await send(path, { method: 'GET', headers: {} });
      // A signed-in agent is sent on from the sign-in page: any page of the app has the token.
      if (response.status === 303 && path === '/sign-in') {
        await response.body?.cancel();
        response = await send('/account', { method: 'GET', headers: {} });
      }
      const found = CSRF_FIELD.exec(await response.text())?.[1];
      if (found === undefined) throw new Error(`no CSRF field on ${path} (${response.status})`);
      token = found;
      tokenFor = cookieHeader();
      return token;
    },
    get(path, headers = {}) {
      return send(path, { method: 'GET', headers: { ...headers } });
    },
    async post(path, form, headers = {}) {
      const fields = '_csrf' in form ? form : { _csrf: await agent.csrf(), ...form };
      return send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
      });
    },
  };
  return agent;
}

export interface SignUpInput {
  email: string;
  password: string;
  name: string;
}

/** Signs up through the form; the agent is then signed in. */
export async function signUp(baseUrl: string, input: SignUpInput): Promise<WebAgent> {
  const agent = newAgent(baseUrl);
  const response = await agent.post('/sign-up', { ...input }, {});
  await response.body?.cancel();
  if (response.status !== 303) throw new Error(`sign-up failed with ${response.status}`);
  return agent;
}

/** Signs in through the form; the agent is then signed in. */
export async function signIn(baseUrl: string, input: { email: string; password: string }): Promise<WebAgent> {
  const agent = newAgent(baseUrl);
  const response = await agent.post('/sign-in', { ...input });
  await response.body?.cancel();
  if (response.status !== 303) throw new Error(`sign-in failed with ${response.status}`);
  return agent;
}

/** Signs a browser context in through the real form (its cookies are then the session's). */
export async function signInBrowser(
  context: BrowserContext,
  baseUrl: string,
  input: { email: string; password: string },
): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto(`${new URL(baseUrl).origin}/sign-in?next=/account`);
    await page.getByLabel('Email').fill(input.email);
    await page.getByLabel('Password').fill(input.password);
    // The path, not the whole URL: /sign-in?next=/account already ends in /account, and closing the
    // page while the form's POST and redirect are under way could hang Chromium's close for ever.
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/account'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
  } finally {
    await page.close();
  }
}
