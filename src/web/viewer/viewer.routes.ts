import type { FastifyInstance } from 'fastify';
import type { WebRoutesOptions } from '../web-options.ts';

// Placeholder: web-viewer replaces this file with the home, channel and subscribe pages.
export async function viewerRoutes(_app: FastifyInstance, _options: WebRoutesOptions): Promise<void> {}
