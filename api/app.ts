// Assembles the Express application: conventions, docs, auth, validation, routes, errors.
import express, { type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Config } from '../stack/config.ts';
import type { ObjectStorage } from '../storage/storage.ts';
import { FsStorage } from '../storage/fsStorage.ts';
import { authenticate } from './auth.ts';
import { AuthCache } from './authCache.ts';
import { conditionalLabStatus } from './conditionalLabStatus.ts';
import { AppError, errorHandler } from './errors.ts';
import { absentBodyAsEmpty, canonicalIds, correlation, exactJson, refuseUnstorableText, requestLog } from './http.ts';
import { jsonBody, PROTOCOL_BODY_LIMIT } from './bodyLimits.ts';
import { multipartBodies } from './multipart.ts';
import { fitFileGate } from './services/fitFromData.ts';
import { uploadCustomModelGate } from './services/models.ts';
import { loadOpenApi, openApiRoutes } from './openapi.ts';
import { cacheRouteMatchers } from './routeMatcherCache.ts';
import { warmValidators } from './validatorWarmup.ts';
import { leanValidatorSchemas } from './leanValidatorSchemas.ts';
import { healthRoutes, identityRoutes } from './routes/platform.ts';
import { projectRoutes } from './routes/projects.ts';
import { inventoryRoutes } from './routes/inventory.ts';
import { storageRoutes } from './routes/storage.ts';
import { measurementDataRoutes } from './routes/measurementData.ts';
import { simulationRoutes } from './routes/simulations.ts';
import { pipelineRoutes } from './routes/pipelines.ts';
import { fitFromDataRoutes } from './routes/fitFromData.ts';
import { plannedMeasurementRoutes } from './routes/plannedMeasurements.ts';
import { rawDataRoutes } from './routes/rawData.ts';
import { materialRoutes } from './routes/materials.ts';
import { analysisRoutes } from './routes/analyses.ts';
import { modelBuilderRoutes } from './routes/modelBuilders.ts';
import { createGate as analysisCreateGate } from './services/analyses/analyses.ts';
import { createGate as datasetCreateGate, replaceGate as datasetReplaceGate } from './services/materials/datasets.ts';
import { boardRoutes } from './routes/board.ts';
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
const UNVALIDATED = /^\/(healthz|openapi\.(json|yaml)|docs(\/.*)?|lab(\/.*)?|storage\/objects\/.*)?$/;

export function createApp(deps: AppDeps): Express {
  const spec = loadOpenApi();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.use(correlation, exactJson, requestLog);
  const authCache = new AuthCache(deps.config.databaseUrl!);
  app.locals.stop = () => authCache.stop();
  // A conditional lab status of an unchanged lab: 304 before any parsing or validation.
  app.use(conditionalLabStatus(deps.orm, deps.config.staleAfterHours, authCache));

  app.use(healthRoutes(deps.orm, deps.temporal));
  app.use(openApiRoutes(spec));
  app.use(boardRoutes(deps.config));
  if (deps.storage instanceof FsStorage) app.use(storageRoutes(deps.storage));

  // Who is asking comes before any body byte is read: an unknown caller costs no parsing.
  const auth = authenticate(
    deps.orm,
    { config: deps.config, temporal: deps.temporal, storage: deps.storage },
    authCache,
  );
  app.use((req, res, next) => (UNVALIDATED.test(req.path) ? next() : auth(req, res, next)));
  // Gzip, deflate and br bodies are inflated by the parser, the limit counted on inflated bytes.
  app.use('/protocols', jsonBody(PROTOCOL_BODY_LIMIT));
  app.use(jsonBody(deps.config.bodyLimitBytes));
  app.use(absentBodyAsEmpty);
  // After the storage routes: a signed object key is taken as signed.
  app.use(canonicalIds);
  app.use(refuseUnstorableText);
  app.use(
    multipartBodies(deps.config.bodyLimitBytes, {
      'POST /models/upload-custom': (req) => uploadCustomModelGate(req.ctx),
      'POST /fit-from-file': (req, fields) => fitFileGate(req.ctx, fields),
      'POST /material_property_datasets': datasetCreateGate,
      'PATCH /material_property_datasets/{dataset_id}/file': datasetReplaceGate,
      'POST /analyses': analysisCreateGate,
    }),
  );
  cacheRouteMatchers();
  leanValidatorSchemas();
  const validator = OpenApiValidator.middleware({
    apiSpec: spec.doc as never,
    validateApiSpec: true,
    // An unknown body field is refused (422 naming it), never dropped: docs/decisions/unknown-fields.md.
    validateRequests: { removeAdditional: false, allErrors: true, coerceTypes: false },
    validateResponses: deps.validateResponses ? { removeAdditional: false } : false,
    ignorePaths: (path: string) => UNVALIDATED.test(path),
    validateFormats: true,
    // Full checks: a date-time such as 2026-02-30 is refused at its field (the fast ones let it
    // through, and PostgreSQL then failed the request with a 500).
    ajvFormats: { mode: 'full' },
    // Multipart bodies are read by multipartBodies, with limits.
    fileUploader: false,
    $refParser: { mode: 'dereference' },
  }) as unknown as RequestHandler[];
  app.use(validator);
  // Run by the server before it listens (warmValidatorsOf).
  app.locals.warmValidators = () => warmValidators(app, validator, spec.doc);

  app.use(identityRoutes());
  app.use(projectRoutes());
  // Feature routers: one line each.
  app.use(inventoryRoutes());
  app.use(measurementDataRoutes());
  app.use(simulationRoutes());
  app.use(pipelineRoutes());
  app.use(fitFromDataRoutes());
  app.use(plannedMeasurementRoutes());
  app.use(rawDataRoutes());
  app.use(materialRoutes());
  app.use(analysisRoutes());
  app.use(modelBuilderRoutes());
  app.use(organizationRoutes());

  app.use((req) => {
    throw new AppError('NOT_FOUND', `no route for ${req.method} ${req.path}`);
  });
  app.use(errorHandler);
  return app;
}

/** Builds every operation's request validator now rather than on its first request (see validatorWarmup.ts). */
export function warmValidatorsOf(app: Express): Promise<{ shapes: number; ms: number }> {
  return (app.locals.warmValidators as () => Promise<{ shapes: number; ms: number }>)();
}
