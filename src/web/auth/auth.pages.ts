// The sign-up, sign-in and sign-in-link pages.
import type { FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../html.ts';
import { renderPage } from '../layout.ts';
import { csrfField } from '../session/csrf.ts';

export interface FormProblem {
  message: string;
  /** The field it is about, which gets aria-invalid and the message beside it. */
  field?: string | undefined;
}

function problemBox(problem: FormProblem | undefined): SafeHtml | undefined {
  return (
    problem && html`<div class="alert alert-error" role="alert" id="form-error">${problem.message}</div>`
  );
}

function invalid(problem: FormProblem | undefined, field: string): SafeHtml | undefined {
  return problem?.field === field ? html` aria-invalid="true" aria-describedby="form-error"` : undefined;
}

export function signUpPage(
  request: FastifyRequest,
  options: { open: boolean; next: string; values?: { name?: string; email?: string }; problem?: FormProblem },
): string {
  const { values = {}, problem } = options;
  const body = options.open
    ? html`<section class="panel narrow">
        <h1>Create your account</h1>
        <p class="muted">
          One account both streams and watches. Already have one?
          <a href="/sign-in?next=${encodeURIComponent(options.next)}">Sign in</a>.
        </p>
        ${problemBox(problem)}
        <form method="post" action="/sign-up" class="stacked-form">
          ${csrfField(request)}
          <input type="hidden" name="next" value="${options.next}" />
          <label for="name">Name <span class="hint">shown on your channel</span></label>
          <input
            id="name"
            name="name"
            type="text"
            autocomplete="nickname"
            required
            maxlength="100"
            value="${values.name ?? ''}"
            ${invalid(problem, 'name')}
          />
          <label for="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="email"
            required
            maxlength="254"
            value="${values.email ?? ''}"
            ${invalid(problem, 'email')}
          />
          <label for="password">Password <span class="hint">at least 10 characters</span></label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="new-password"
            required
            minlength="10"
            maxlength="256"
            ${invalid(problem, 'password')}
          />
          <button type="submit" class="button primary">Create account</button>
        </form>
      </section>`
    : html`<section class="panel narrow">
        <h1>Sign-ups are closed</h1>
        ${problemBox(problem)}
        <p>This server's operator creates accounts. If you have one, <a href="/sign-in">sign in</a>.</p>
      </section>`;
  return renderPage({ title: 'Sign up', request, body });
}

export function signInPage(
  request: FastifyRequest,
  options: { next: string; signupsOpen: boolean; email?: string; problem?: FormProblem },
): string {
  const { problem } = options;
  return renderPage({
    title: 'Sign in',
    request,
    body: html`<section class="panel narrow">
      <h1>Sign in</h1>
      ${problemBox(problem)}
      <form method="post" action="/sign-in" class="stacked-form">
        ${csrfField(request)}
        <input type="hidden" name="next" value="${options.next}" />
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          maxlength="254"
          value="${options.email ?? ''}"
          ${invalid(problem, 'email')}
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          maxlength="256"
          ${invalid(problem, 'password')}
        />
        <button type="submit" class="button primary">Sign in</button>
      </form>
      <p class="muted"><a href="/forgot-password">Forgot your password?</a></p>
      ${options.signupsOpen ? html`<p class="muted">New here? <a href="/sign-up?next=${encodeURIComponent(options.next)}">Create an account</a>.</p>` : undefined}
    </section>`,
  });
}

export function signInLinkPage(request: FastifyRequest, token: string, name: string): string {
  return renderPage({
    title: 'Sign in with a link',
    request,
    body: html`<section class="panel narrow">
      <h1>Sign in as ${name}</h1>
      <p>
        This link signs you in once. Afterwards, set an email and a password on your account page to sign in
        again.
      </p>
      <form method="post" action="/sign-in/link/${token}" class="stacked-form">
        ${csrfField(request)}
        <button type="submit" class="button primary">Sign in as ${name}</button>
      </form>
    </section>`,
  });
}

export function linkUsedPage(request: FastifyRequest): string {
  return renderPage({
    title: 'Link expired',
    request,
    body: html`<section class="panel narrow">
      <h1>This sign-in link no longer works</h1>
      <p>
        Sign-in links work once, for a day. Ask the operator for a new one (<code
          >tributary users set-password</code
        >
        gives an account a password), or <a href="/sign-in">sign in</a>.
      </p>
    </section>`,
  });
}
