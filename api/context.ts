// What a route knows about the authenticated caller, and the unit of work of the request.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Config } from '../stack/config.ts';
import type { ObjectStorage } from '../storage/storage.ts';

export interface Caller {
  userId: string;
  email: string;
  organizationId: string;
  organizationName: string;
  /** Organization owners act as Project Admin on every project of their organization. */
  isOwner: boolean;
  apiKeyPrefix: string;
}

/** The service's shared clients, available to every service function. */
export interface Services {
  config: Config;
  temporal: Client;
  storage: ObjectStorage;
}

export interface RequestContext extends Services {
  caller: Caller;
  em: EntityManager;
}

declare module 'express-serve-static-core' {
  interface Request {
    ctx: RequestContext;
  }
}
