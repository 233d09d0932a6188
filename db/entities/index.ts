// Every table's entity, for the ORM and its drift test.
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
];
