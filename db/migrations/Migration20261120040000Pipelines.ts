import { Migration } from '@mikro-orm/migrations';

// Pipelines (and simple pipelines), their elements, captured diagnostic events, and the
// simulation boards of studies. Each element runs as a job of the shared `jobs` table
// (job_type 'pipeline_element'), so GET /jobs/{id} reports it like any other job.
export class Migration20261120040000Pipelines extends Migration {
  override name = 'Migration20261120040000Pipelines';

  up(): void {
    const STATUS = `check (status in ('pending', 'running', 'completed', 'failed', 'canceled'))`;
    this.addSql(`create table pipelines (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      -- 'simple' pipelines are served under /simple_pipelines (at most one fit or validation).
      kind text not null default 'pipeline' check (kind in ('pipeline', 'simple')),
      name text not null,
      description text,
      status text not null default 'pending' ${STATUS},
      options jsonb not null default '{}',
      result jsonb,
      error_detail jsonb,
      workflow_id text not null,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      canceled_at timestamptz)`);
    this.addSql(`create index pipelines_org_idx on pipelines (organization_id, kind, created_at, id)`);
    this.addSql(`create index pipelines_project_idx on pipelines (project_id)`);
    this.addSql(`create table pipeline_elements (
      id uuid primary key,
      pipeline_id uuid not null references pipelines (id) on delete cascade,
      position integer not null,
      name text not null,
      element_type text not null check (element_type in ('entry', 'calculation', 'data_fit', 'array_data_fit', 'validation')),
      config jsonb not null,
      status text not null default 'pending' ${STATUS},
      job_id uuid not null references jobs (id) on delete cascade,
      workflow_id text not null,
      result jsonb,
      error_code text,
      error_detail jsonb,
      -- Every run of the element: [{attempt, started_at, finished_at, status, error_code, diagnostic_event_id}].
      attempts integer not null default 0,
      attempt_log jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      unique (pipeline_id, name),
      unique (pipeline_id, position))`);
    this.addSql(`create index pipeline_elements_job_idx on pipeline_elements (job_id)`);
    // The scheduled retry looks for failed elements.
    this.addSql(`create index pipeline_elements_failed_idx on pipeline_elements (finished_at) where status = 'failed'`);
    // The full exception of a failure; error_detail only links here (the message never leaves).
    this.addSql(`create table diagnostic_events (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid references projects (id) on delete cascade,
      source_type text not null,
      source_id uuid not null,
      exception_type text not null,
      error_code text,
      message text not null,
      stack_trace text,
      context jsonb not null default '{}',
      created_at timestamptz not null default now())`);
    this.addSql(`create index diagnostic_events_source_idx on diagnostic_events (source_id)`);
    this.addSql(`create table simulation_boards (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      study_id uuid not null references studies (id) on delete cascade,
      name text not null,
      description text,
      simulation_ids jsonb not null default '[]',
      plots jsonb not null default '[]',
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (study_id, name))`);
  }
}
