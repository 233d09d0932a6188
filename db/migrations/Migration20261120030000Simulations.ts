import { Migration } from '@mikro-orm/migrations';

// Models, parameterized models, experiment templates, studies, simulation batches,
// simulations, jobs and the monthly usage counters.
export class Migration20261120030000Simulations extends Migration {
  override name = 'Migration20261120030000Simulations';

  up(): void {
    // Models are shared by the whole organization (GET /models lists the organization's).
    this.addSql(`create table models (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      user_id uuid not null references users (id),
      name text not null,
      description text,
      is_custom_model boolean not null default false,
      chemistry text not null default 'lithium_ion',
      config jsonb not null,
      simulator_version text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index models_org_idx on models (organization_id, created_at, id)`);
    this.addSql(`create table parameterized_models (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      model_id uuid not null references models (id) on delete restrict,
      cell_spec_id uuid,
      name text not null,
      description text,
      parameters jsonb not null default '{}',
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index parameterized_models_project_idx on parameterized_models (project_id, created_at, id)`);
    // What the Python worker said about a model spec (variable and parameter names, engine
    // version), keyed by a hash of the spec's shape, so submissions need not ask again.
    this.addSql(`create table model_descriptions (
      key text primary key,
      description jsonb not null,
      created_at timestamptz not null default now())`);
    this.addSql(`create table experiment_templates (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      content_hash text not null,
      name text not null,
      description text,
      source_protocol text not null,
      protocol_config jsonb not null,
      parameters_schema jsonb,
      experiment_parameters jsonb not null default '{}',
      input_references jsonb not null default '[]',
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, content_hash))`);
    this.addSql(`create table studies (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      description text,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name))`);
    // One row per submission: what every simulation of the batch shares.
    this.addSql(`create table simulation_batches (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid references projects (id) on delete cascade,
      name text not null,
      model_config jsonb not null,
      protocol jsonb not null,
      extra_variables jsonb not null default '[]',
      max_backward_jumps integer,
      force_rerun boolean not null default false,
      experiment_template_id uuid references experiment_templates (id) on delete set null,
      simulator_version text not null,
      size integer not null,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now())`);
    this.addSql(`create table jobs (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid references projects (id) on delete cascade,
      job_type text not null,
      status text not null default 'pending' check (status in ('pending', 'running', 'completed', 'failed', 'canceled')),
      priority integer not null default 0,
      workflow_id text,
      error text,
      error_code text,
      result jsonb,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz)`);
    this.addSql(`create index jobs_org_idx on jobs (organization_id, created_at, id)`);
    this.addSql(`create table simulations (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid references projects (id) on delete cascade,
      batch_id uuid not null references simulation_batches (id) on delete cascade,
      seq integer not null,
      job_id uuid not null references jobs (id) on delete cascade,
      name text not null,
      parameterized_model_id uuid references parameterized_models (id) on delete set null,
      design_parameters jsonb not null default '{}',
      experiment_parameters jsonb not null default '{}',
      content_hash text not null,
      storage_folder text,
      metrics jsonb,
      simulator_version text,
      reused_from_simulation_id uuid,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (batch_id, seq))`);
    this.addSql(`create index simulations_org_idx on simulations (organization_id, created_at, id)`);
    this.addSql(`create index simulations_job_idx on simulations (job_id)`);
    this.addSql(`create index simulations_pm_idx on simulations (parameterized_model_id) where parameterized_model_id is not null`);
    // Reuse looks up a stored result of the same content in the same organization and project.
    this.addSql(`create index simulations_reuse_idx on simulations (organization_id, content_hash) where storage_folder is not null`);
    this.addSql(`create table study_simulations (
      study_id uuid not null references studies (id) on delete cascade,
      simulation_id uuid not null references simulations (id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (study_id, simulation_id))`);
    this.addSql(`create index study_simulations_sim_idx on study_simulations (simulation_id)`);
    this.addSql(`create table study_measurements (
      study_id uuid not null references studies (id) on delete cascade,
      measurement_id uuid not null references cell_measurements (id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (study_id, measurement_id))`);
    this.addSql(`create table usage_counters (
      organization_id uuid not null references organizations (id) on delete cascade,
      period_start date not null,
      simulations integer not null default 0,
      compute_seconds double precision not null default 0,
      primary key (organization_id, period_start))`);
  }
}
