import { Migration } from '@mikro-orm/migrations';
import { PROJECT_ROLES } from '../roles.ts';

// Organizations, users, API keys, project roles, projects and the shared search index.
export class Migration20261120000000Platform extends Migration {
  override name = 'Migration20261120000000Platform';

  up(): void {
    this.addSql(`create extension if not exists pg_trgm`);
    this.addSql(`create table organizations (
      id uuid primary key,
      name text not null unique,
      stale_after_hours integer,
      simulation_monthly_limit integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create table users (
      id uuid primary key,
      email text not null,
      name text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create unique index users_email_key on users (lower(email))`);
    this.addSql(`create table memberships (
      organization_id uuid not null references organizations (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      role text not null default 'member' check (role in ('owner', 'member')),
      created_at timestamptz not null default now(),
      primary key (organization_id, user_id))`);
    this.addSql(`create index memberships_user_idx on memberships (user_id)`);
    this.addSql(`create table api_keys (
      id uuid primary key,
      prefix text not null unique,
      key_hash text not null,
      user_id uuid not null references users (id) on delete cascade,
      organization_id uuid not null references organizations (id) on delete cascade,
      name text,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz)`);
    this.addSql(`create table project_roles (
      id uuid primary key,
      name text not null unique,
      description text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create table project_role_permissions (
      id uuid primary key,
      project_role_id uuid not null references project_roles (id) on delete cascade,
      permission text not null,
      created_at timestamptz not null default now(),
      unique (project_role_id, permission))`);
    this.addSql(`create table projects (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      name text not null,
      description text,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (organization_id, name))`);
    this.addSql(`create index projects_created_at_idx on projects (organization_id, created_at, id)`);
    this.addSql(`create table user_project_roles (
      user_id uuid not null references users (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      project_role_id uuid not null references project_roles (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (user_id, project_id))`);
    this.addSql(`create index user_project_roles_project_idx on user_project_roles (project_id)`);
    // One row per searchable entity, kept current in the entity's own transaction.
    this.addSql(`create table search_documents (
      entity_type text not null,
      entity_id uuid not null,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid,
      parent_id uuid,
      name text not null,
      body text,
      tsv tsvector generated always as (
        setweight(to_tsvector('simple', name), 'A') || setweight(to_tsvector('simple', coalesce(body, '')), 'B')) stored,
      updated_at timestamptz not null default now(),
      primary key (entity_type, entity_id))`);
    this.addSql(`create index search_documents_tsv_idx on search_documents using gin (tsv)`);
    this.addSql(`create index search_documents_name_trgm_idx on search_documents using gin (lower(name) gin_trgm_ops)`);
    this.addSql(`create index search_documents_org_idx on search_documents (organization_id, entity_type)`);
    for (const role of PROJECT_ROLES) {
      this.addSql(`insert into project_roles (id, name, description) values ('${role.id}', '${role.name}', '${role.description.replaceAll("'", "''")}')`);
      for (const perm of role.permissions) {
        this.addSql(`insert into project_role_permissions (id, project_role_id, permission) values (gen_random_uuid(), '${role.id}', '${perm}')`);
      }
    }
  }
}
