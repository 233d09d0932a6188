// The entities and the migrations describe the same tables: the schema MikroORM derives from
// the entities is compared with the migrated test database, table by table and column by
// column (type, nullability, default, generation, enum items). Indexes, foreign keys and
// exclusion constraints belong to the migrations alone and are not compared.
import { describe, expect, inject, it } from 'vitest';
import { DatabaseSchema, SchemaComparator } from '@mikro-orm/postgresql';
import { openOrm } from '../db/orm.ts';
import { allEntities } from '../db/entities/index.ts';

describe('MikroORM entities', () => {
  it('match the migrated database: every table, every column', async () => {
    const orm = await openOrm(inject('databaseUrl'), { poolMax: 1 });
    try {
      const platform = orm.em.getPlatform();
      const migrated = await DatabaseSchema.create(orm.em.getConnection(), platform, orm.config, 'public', ['public']);
      const diff = new SchemaComparator(platform).compare(migrated, orm.schema.getTargetSchema());
      const drift: string[] = [
        ...Object.keys(diff.newTables).map((t) => `${t}: an entity without a table`),
        ...Object.keys(diff.removedTables).map((t) => `${t}: a table without an entity`),
      ];
      for (const [table, t] of Object.entries(diff.changedTables)) {
        for (const c of Object.keys(t.addedColumns)) drift.push(`${table}.${c}: in the entity, not the table`);
        for (const c of Object.keys(t.removedColumns)) drift.push(`${table}.${c}: in the table, not the entity`);
        for (const [c, d] of Object.entries(t.changedColumns)) {
          drift.push(
            `${table}.${c}: ${[...d.changedProperties].join(', ')} differ (table ${JSON.stringify(d.fromColumn)}, ` +
              `entity ${JSON.stringify(d.column)})`,
          );
        }
      }
      expect(drift).toEqual([]);
      // The comparison saw the tables (an empty schema would compare equal too).
      expect(migrated.getTables().length).toBeGreaterThanOrEqual(allEntities.length);
    } finally {
      await orm.close();
    }
  });
});
