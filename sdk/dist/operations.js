import { operationRoutes } from './generated/routes.js';
import { pendingRoutes } from './pending-operations.js';
export const routes = { ...pendingRoutes, ...operationRoutes };
