import { Migration } from '@mikro-orm/migrations';

// API processes cache verified keys; these triggers tell them (LISTEN cellar_auth) when a key
// is revoked or deleted, or a membership changes, whoever made the change.
export class Migration20261120000500AuthNotify extends Migration {
  override name = 'Migration20261120000500AuthNotify';

  up(): void {
    this.addSql(`create function cellar_notify_api_key() returns trigger language plpgsql as $$
      begin
        perform pg_notify('cellar_auth', 'key:' || old.prefix);
        return null;
      end $$`);
    this.addSql(`create trigger api_keys_notify after update or delete on api_keys
      for each row execute function cellar_notify_api_key()`);
    this.addSql(`create function cellar_notify_membership() returns trigger language plpgsql as $$
      begin
        perform pg_notify('cellar_auth', 'user:' || old.user_id);
        return null;
      end $$`);
    this.addSql(`create trigger memberships_notify after update or delete on memberships
      for each row execute function cellar_notify_membership()`);
  }
}
