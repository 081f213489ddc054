import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.ts';
import { html, renderPage, sendPage } from './core.ts';

/**
 * Another account's stream, video or webhook answers exactly as a missing one: the same 404
 * page, so an id reveals nothing about whether it exists.
 */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply, what: string): FastifyReply {
  const body = html`<h1>Not found</h1>
    <p>There is no ${what} with this id in your account.</p>
    <p><a href="/dashboard">Back to the dashboard</a></p>`;
  return sendPage(reply, renderPage({ title: 'Not found', request, body, section: 'dashboard' }), 404);
}

export function isNotFound(error: unknown): boolean {
  return error instanceof AppError && error.code === 'resource_not_found';
}

/** The value, or undefined when the service says the resource is missing (or not the caller's). */
export async function orMissing<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
