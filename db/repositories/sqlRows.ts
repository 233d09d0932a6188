// Small SQL helpers shared by the inventory repositories: insert a row, update only the
// given fields, and read one page of a list with its total.
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { whereSql, type ParsedList } from '../listSql.ts';

/** Inserts `row` (undefined values left to their defaults) and returns `returning` of the new row. */
export async function insertRow<T>(
  em: EntityManager,
  table: string,
  row: Record<string, unknown>,
  returning = '*',
): Promise<T> {
  const entries = Object.entries(row).filter(([, v]) => v !== undefined);
  const rows = await em.execute<T[]>(
    `insert into ${table} (${entries.map(([k]) => k).join(', ')}) values (${entries.map(() => '?').join(', ')})
      returning ${returning}`,
    entries.map(([, v]) => jsonParam(v)),
  );
  return rows[0]!;
}

/** Updates the fields of `changes` that are not undefined (null clears) and bumps updated_at. */
export async function updateRow(
  em: EntityManager,
  table: string,
  id: string,
  changes: Record<string, unknown>,
): Promise<void> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const sets = [...entries.map(([k]) => `${k} = ?`), 'updated_at = now()'];
  await em.execute(`update ${table} set ${sets.join(', ')} where id = ?`, [
    ...entries.map(([, v]) => jsonParam(v)),
    id,
  ]);
}

/** Objects and arrays go to jsonb columns as JSON text. */
function jsonParam(v: unknown): unknown {
  return v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v;
}

/**
 * One page of `select <columns> from <from>` under the scope and list filters, with the
 * total of all matches. `from` may join; filters refer to its aliases.
 */
export async function page<T>(
  em: EntityManager,
  opts: {
    select: string;
    selectParams?: unknown[];
    from: string;
    scope: { sql: string; params: unknown[] }[];
    list: ParsedList;
  },
): Promise<{ items: T[]; count: number; total: number }> {
  const where = whereSql([...opts.scope.map((s) => s.sql), ...opts.list.where]);
  const params = [...opts.scope.flatMap((s) => s.params), ...opts.list.params];
  const [items, totals] = await Promise.all([
    em.execute<T[]>(`select ${opts.select} from ${opts.from} ${where} ${opts.list.orderSql} limit ? offset ?`, [
      ...(opts.selectParams ?? []),
      ...params,
      opts.list.limit,
      opts.list.offset,
    ]),
    em.execute<{ total: string }[]>(`select count(*) as total from ${opts.from} ${where}`, params),
  ]);
  return { items, count: items.length, total: Number(totals[0]?.total ?? 0) };
}

/**
 * Runs `work`; when a concurrent writer took the same unique name first, `explain` turns the
 * database error into the service's answer (the same 409 with existing_id as the pre-check).
 */
export async function orConflict<T>(work: () => Promise<T>, explain: () => Promise<void>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) await explain();
    throw err;
  }
}
