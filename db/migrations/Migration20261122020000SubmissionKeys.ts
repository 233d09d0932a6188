import { Migration } from '@mikro-orm/migrations';

// Idempotency-Key of a batch submission: a client that lost the answer sends the same request
// again with the same key and is answered the batch the first one made. A key belongs to its
// user in its organization, and lives as long as the batch it names.
export class Migration20261122020000SubmissionKeys extends Migration {
  override name = 'Migration20261122020000SubmissionKeys';

  up(): void {
    this.addSql(`create table submission_keys (
      organization_id uuid not null references organizations (id) on delete cascade,
      user_id uuid not null,
      key text not null,
      request_hash text not null,
      batch_id uuid not null references simulation_batches (id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (organization_id, user_id, key))`);
    this.addSql(`create index submission_keys_batch_id_idx on submission_keys (batch_id)`);
  }

  override down(): void {
    this.addSql(`drop table submission_keys`);
  }
}
