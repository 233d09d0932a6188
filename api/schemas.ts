// Shapes of requests and answers, as generated from openapi.yaml: services name them from here
// instead of writing their own copies.
import type { components, operations } from './generated/openapi.ts';

/** A named schema of openapi.yaml (`components.schemas`). */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The JSON request body of an operation, by its operationId. */
export type RequestBody<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
