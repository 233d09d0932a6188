// A sweep stores each flush of results as one pack: two Parquet files holding many
// simulations' rows (pyworker/cellar_worker/simulation/pack.py). A download reads one
// simulation's rows back (only the row groups they lie in) and answers them as the standalone
// file the simulation alone would have had: the same columns, without `simulation_id`.
import { parquetWriteBuffer, type ColumnSource } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import type { ObjectStorage } from '../../storage/storage.ts';
import type { ResultPack } from '../../db/repositories/simulations.ts';
import { openParquet, readRows } from './parquetColumns.ts';

export type ResultKind = 'time_series' | 'steps';

export const packObjectKey = (base: string, kind: ResultKind) => `${base}-${kind}.parquet`;

/** The writer's type for a column as the pack's schema has it. */
function basicType(element: SchemaElement): ColumnSource['type'] {
  if (element.type === 'BYTE_ARRAY') return 'STRING';
  if (element.type === 'INT64') return 'INT64';
  if (element.type === 'INT32') return 'INT32';
  if (element.type === 'BOOLEAN') return 'BOOLEAN';
  return 'DOUBLE';
}

/** One simulation's file out of its pack, as a standalone Parquet file. */
export async function simulationFileFromPack(
  storage: ObjectStorage,
  pack: ResultPack,
  kind: ResultKind,
): Promise<Buffer> {
  const file = await openParquet(storage, packObjectKey(pack.key, kind));
  const [start, count] = pack[kind];
  const elements = file.metadata.schema.slice(1).filter((e) => e.name !== 'simulation_id');
  const names = elements.map((e) => e.name);
  const cols = await readRows(file, names, start, start + count);
  const columnData: ColumnSource[] = elements.map((e, i) => ({
    name: e.name,
    // A decoded chunk that begins at `start` may run past the simulation's rows.
    data: Array.prototype.slice.call(cols[i]!, 0, count) as ColumnSource['data'],
    type: basicType(e),
    nullable: e.repetition_type !== 'REQUIRED',
  }));
  return Buffer.from(parquetWriteBuffer({ columnData, createdBy: 'cellar' }));
}
