// The operations the client can call, typed from the generated OpenAPI types (`npm run
// sdk:types` writes them from the document the service serves).
import type { operations } from './generated/openapi.js';
import { operationRoutes } from './generated/routes.js';

export type Operations = operations;
export type OperationId = keyof Operations;

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
}

export const routes: Record<OperationId, Route> = operationRoutes;

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON body of an operation's success answer (200, 201 or 202). */
export type ResponseOf<Id extends OperationId> = Operations[Id] extends { responses: infer R }
  ? JsonOf<R[Extract<keyof R, 200 | 201 | 202>]>
  : never;

/** The operation's JSON request body. */
export type BodyOf<Id extends OperationId> = Operations[Id] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : Operations[Id] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;

/** The operation's query parameters. */
export type QueryOf<Id extends OperationId> = Operations[Id] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;
