import { Migration } from '@mikro-orm/migrations';

// A counter per project that every write to what the lab status shows moves on, so that a
// conditional GET of an unchanged lab is answered 304 from one row instead of the whole tree.
// Sites and users are shared across projects: a site's change moves every project of its
// organization; a user's email (shown as requested by) is rare enough to wait for the next change.
const PROJECT_TABLES = ['cyclers', 'channels', 'cell_measurements', 'measurement_watches', 'planned_measurements', 'cycler_service_events',
  'cell_instances', 'cell_specifications', 'experiment_templates'];

export class Migration20261127181000LabVersions extends Migration {
  override name = 'Migration20261127181000LabVersions';

  up(): void {
    this.addSql(`create table lab_versions (
      project_id uuid primary key references projects (id) on delete cascade,
      version bigint not null default 1)`);
    this.addSql(`create function lab_version_bump() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          insert into lab_versions as v (project_id) select old.project_id where exists (select 1 from projects where id = old.project_id)
            on conflict (project_id) do update set version = v.version + 1;
        end if;
        if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.project_id is distinct from old.project_id) then
          insert into lab_versions as v (project_id) values (new.project_id) on conflict (project_id) do update set version = v.version + 1;
        end if;
        return null;
      end $$`);
    for (const table of PROJECT_TABLES) {
      this.addSql(`create trigger ${table}_lab_version after insert or update or delete on ${table}
        for each row execute function lab_version_bump()`);
    }
    this.addSql(`create function lab_version_bump_site() returns trigger language plpgsql as $$
      begin
        update lab_versions v set version = v.version + 1 from projects p where p.id = v.project_id and p.organization_id = new.organization_id;
        return null;
      end $$`);
    this.addSql(`create trigger sites_lab_version after update on sites for each row execute function lab_version_bump_site()`);
  }

  override down(): void {
    this.addSql(`drop trigger sites_lab_version on sites`);
    this.addSql(`drop function lab_version_bump_site()`);
    for (const table of PROJECT_TABLES) this.addSql(`drop trigger ${table}_lab_version on ${table}`);
    this.addSql(`drop function lab_version_bump()`);
    this.addSql(`drop table lab_versions`);
  }
}
