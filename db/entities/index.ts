// Every table's entity, for the ORM and its drift test.
import { buildersEntities } from './builders.ts';
import { cellsEntities } from './cells.ts';
import { labEntities } from './lab.ts';
import { measurementsEntities } from './measurements.ts';
import { pipelinesEntities } from './pipelines.ts';
import { platformEntities } from './platform.ts';
import { simulationsEntities } from './simulations.ts';

export const allEntities = [
  ...platformEntities,
  ...labEntities,
  ...cellsEntities,
  ...measurementsEntities,
  ...simulationsEntities,
  ...pipelinesEntities,
  ...buildersEntities,
];

/**
 * A table's row as raw SQL returns it: every column present (the entity's optional
 * properties are those a create may leave out), without the ORM's symbol-keyed markers.
 */
export type Row<Entity> = {
  -readonly [Column in keyof Entity as Column extends string ? Column : never]-?: Exclude<Entity[Column], undefined>;
};
