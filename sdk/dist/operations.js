import { operationRoutes } from './generated/routes.js';
export const routes = operationRoutes;
