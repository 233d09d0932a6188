// Assembles the Express application: conventions, docs, auth, validation, routes, errors.
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Config } from '../stack/config.ts';
import type { ObjectStorage } from '../storage/storage.ts';
import { FsStorage } from '../storage/fsStorage.ts';
import { authenticate } from './auth.ts';
import { AuthCache } from './authCache.ts';
import { AppError, errorHandler } from './errors.ts';
import { absentBodyAsEmpty, canonicalIds, correlation, exactJson, inflateMultipart, multipartStreamHandler, refuseUnstorableText, requestLog } from './http.ts';
import { loadOpenApi, openApiRoutes } from './openapi.ts';
import { cacheRouteMatchers } from './routeMatcherCache.ts';
import { healthRoutes, identityRoutes } from './routes/platform.ts';
import { projectRoutes } from './routes/projects.ts';
import { inventoryRoutes } from './routes/inventory.ts';
import { storageRoutes } from './routes/storage.ts';
import { measurementDataRoutes } from './routes/measurementData.ts';
import { simulationRoutes } from './routes/simulations.ts';
import { pipelineRoutes } from './routes/pipelines.ts';
import { fitFromDataRoutes } from './routes/fitFromData.ts';
import { organizationRoutes } from './routes/organizations.ts';

export interface AppDeps {
  config: Config;
  orm: MikroORM;
  temporal: Client;
  storage: ObjectStorage;
  /** Tests also validate every response against openapi.yaml. */
  validateResponses?: boolean;
}

/** Routes that need no API key and are not JSON operations of the interface. */
const UNVALIDATED = /^\/(healthz|openapi\.(json|yaml)|docs(\/.*)?|storage\/objects\/.*)$/;

export function createApp(deps: AppDeps): Express {
  const spec = loadOpenApi();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.use(correlation, exactJson, requestLog);

  app.use(healthRoutes(deps.orm, deps.temporal));
  app.use(openApiRoutes(spec));
  if (deps.storage instanceof FsStorage) app.use(storageRoutes(deps.storage));

  // Gzip and deflate bodies are inflated by the parser; the size limit applies after inflation.
  // Not strict: a body of valid JSON that is not an object (`null`, `5`) reaches the validator
  // and gets its 422 at `body`, not a 400 calling it malformed.
  app.use(express.json({ limit: deps.config.bodyLimitBytes, inflate: true, strict: false, type: ['application/json', 'application/*+json'] }));
  app.use(absentBodyAsEmpty);
  // After the storage routes: a signed object key is taken as signed.
  app.use(canonicalIds);
  const authCache = new AuthCache(deps.config.databaseUrl!);
  app.locals.stop = () => authCache.stop();
  const auth = authenticate(deps.orm, { config: deps.config, temporal: deps.temporal, storage: deps.storage }, authCache);
  app.use((req, res, next) => (UNVALIDATED.test(req.path) ? next() : auth(req, res, next)));
  app.use(refuseUnstorableText);
  app.use(inflateMultipart);
  cacheRouteMatchers();
  app.use(
    OpenApiValidator.middleware({
      apiSpec: spec.doc as never,
      validateApiSpec: true,
      validateRequests: { removeAdditional: true, allErrors: true, coerceTypes: false },
      validateResponses: deps.validateResponses ? { removeAdditional: false } : false,
      ignorePaths: (path: string) => UNVALIDATED.test(path),
      validateFormats: true,
      // Full checks: a date-time such as 2026-02-30 is refused at its field (the fast ones let it
      // through, and PostgreSQL then failed the request with a 500).
      ajvFormats: { mode: 'full' },
      // multer 2's streamHandler is missing from the validator's (multer 1) option types.
      fileUploader: { streamHandler: multipartStreamHandler } as object,
      $refParser: { mode: 'dereference' },
    }),
  );

  app.use(identityRoutes());
  app.use(projectRoutes());
  // Feature routers: one line each.
  app.use(inventoryRoutes());
  app.use(measurementDataRoutes());
  app.use(simulationRoutes());
  app.use(pipelineRoutes());
  app.use(fitFromDataRoutes());
  app.use(organizationRoutes());

  app.use((req) => {
    throw new AppError('NOT_FOUND', `no route for ${req.method} ${req.path}`);
  });
  app.use(errorHandler);
  return app;
}
