import { Migration } from '@mikro-orm/migrations';

// Workflow starts owed by committed changes (a batch submitted, a pipeline created, a project
// deleted...). Each is written in the same transaction as its change, then started and
// removed; a row left behind (the API stopped before starting it, or Temporal was down) is
// started by the worker's dispatcher, so no accepted change waits for a workflow forever.
export class Migration20261121010000WorkflowStarts extends Migration {
  override name = 'Migration20261121010000WorkflowStarts';

  up(): void {
    this.addSql(`create table workflow_starts (
      id uuid primary key,
      workflow_id text not null,
      workflow_type text not null,
      task_queue text not null,
      args jsonb not null,
      -- reuse policy, search attributes and memo
      options jsonb not null default '{}',
      attempts integer not null default 0,
      last_error text,
      created_at timestamptz not null default now(),
      next_attempt_at timestamptz not null default now())`);
    this.addSql(`create index workflow_starts_due_idx on workflow_starts (next_attempt_at)`);
  }
}
