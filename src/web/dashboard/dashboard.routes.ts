import type { FastifyInstance } from 'fastify';
import type { WebRoutesOptions } from '../web-options.ts';

// Placeholder: web-creator replaces this file with the creator's dashboard.
export async function dashboardRoutes(_app: FastifyInstance, _options: WebRoutesOptions): Promise<void> {}
