// MikroORM entities of the platform: organizations, users, API keys, roles, projects.
// Properties are snake_case so that records serialize to the wire names unchanged.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

const timestamps = {
  created_at: p
    .datetime()
    .defaultRaw('now()')
    .onCreate(() => new Date()),
  updated_at: p
    .datetime()
    .defaultRaw('now()')
    .onCreate(() => new Date())
    .onUpdate(() => new Date()),
};

export const Organization = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    name: p.text(),
    /** Channel staleness window; null uses the service default. */
    stale_after_hours: p.integer().nullable(),
    /** Simulations allowed per calendar month; null uses the service default. */
    simulation_monthly_limit: p.integer().nullable(),
    ...timestamps,
  },
});
export type IOrganization = InferEntity<typeof Organization>;

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    email: p.text(),
    name: p.text().nullable(),
    ...timestamps,
  },
});
export type IUser = InferEntity<typeof User>;

export const Membership = defineEntity({
  name: 'Membership',
  tableName: 'memberships',
  properties: {
    organization_id: p.uuid().primary(),
    user_id: p.uuid().primary(),
    /** 'owner' may manage the organization; 'member' works inside it. */
    role: p.enum(['owner', 'member']).default('member'),
    created_at: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    /** Set while an owner has deactivated the member: their keys are refused. */
    deactivated_at: p.datetime().nullable(),
  },
});
export type IMembership = InferEntity<typeof Membership>;

export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    /** Short, non-secret identifier shown to people; the secret is only ever stored hashed. */
    prefix: p.text(),
    key_hash: p.text(),
    user_id: p.uuid(),
    organization_id: p.uuid(),
    name: p.text().nullable(),
    created_at: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    last_used_at: p.datetime().nullable(),
    revoked_at: p.datetime().nullable(),
  },
});
export type IApiKey = InferEntity<typeof ApiKey>;

export const ProjectRole = defineEntity({
  name: 'ProjectRole',
  tableName: 'project_roles',
  properties: {
    id: p.uuid().primary(),
    name: p.text(),
    description: p.text(),
    ...timestamps,
  },
});
export type IProjectRole = InferEntity<typeof ProjectRole>;

export const ProjectRolePermission = defineEntity({
  name: 'ProjectRolePermission',
  tableName: 'project_role_permissions',
  properties: {
    id: p.uuid().primary(),
    project_role_id: p.uuid(),
    /** resource:action, e.g. project:update */
    permission: p.text(),
    created_at: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IProjectRolePermission = InferEntity<typeof ProjectRolePermission>;

export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization_id: p.uuid(),
    name: p.text(),
    description: p.text().nullable(),
    created_by: p.uuid(),
    ...timestamps,
  },
});
export type IProject = InferEntity<typeof Project>;

export const UserProjectRole = defineEntity({
  name: 'UserProjectRole',
  tableName: 'user_project_roles',
  properties: {
    user_id: p.uuid().primary(),
    project_id: p.uuid().primary(),
    project_role_id: p.uuid(),
    ...timestamps,
  },
});
export type IUserProjectRole = InferEntity<typeof UserProjectRole>;

export const SearchDocument = defineEntity({
  name: 'SearchDocument',
  tableName: 'search_documents',
  properties: {
    entity_type: p.text().primary(),
    entity_id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid().nullable(),
    parent_id: p.uuid().nullable(),
    name: p.text(),
    /** Further searchable text (description, serial number...). */
    body: p.text().nullable(),
    /** Maintained by PostgreSQL from name and body; never written. */
    tsv: p
      .type('tsvector')
      .nullable()
      .lazy()
      .generated(
        "(setweight(to_tsvector('simple'::regconfig, name), " +
          "'A'::\"char\") || setweight(to_tsvector('simple'::regconfig, COALESCE(body, ''::text)), " +
          '\'B\'::"char")) stored',
      ),
    updated_at: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type ISearchDocument = InferEntity<typeof SearchDocument>;

export const platformEntities = [
  Organization,
  User,
  Membership,
  ApiKey,
  ProjectRole,
  ProjectRolePermission,
  Project,
  UserProjectRole,
  SearchDocument,
];
