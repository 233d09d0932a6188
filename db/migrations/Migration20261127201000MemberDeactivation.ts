import { Migration } from '@mikro-orm/migrations';

// A member deactivated by an owner keeps their membership, project roles and API keys, but
// their keys act for nothing in the organization until they are reactivated.
export class Migration20261127201000MemberDeactivation extends Migration {
  override name = 'Migration20261127201000MemberDeactivation';

  up(): void {
    this.addSql(`alter table memberships add column deactivated_at timestamptz`);
  }
}
