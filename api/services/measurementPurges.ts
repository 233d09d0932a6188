// The purge of deleted measurements' stored files, recorded with their delete (of the
// measurement, its cell instance or its specification).
import type { EntityManager } from '@mikro-orm/postgresql';
import type * as repo from '../../db/repositories/cells.ts';
import { recordStarts, type RecordedStart } from '../../db/workflowStarts.ts';
import type { Config } from '../../stack/config.ts';
import { measurementPrefix } from '../../storage/measurementKeys.ts';
import { workflowIds } from '../../worker/taskQueues.ts';
import { purgeStart } from './storedObjects.ts';

/**
 * Records, in the deleting transaction and before its deletes (it reads the upload sessions),
 * the purge of the measurements' stored files, which first ends their processing workflows:
 * processing that went on would write files after the purge.
 */
export async function recordMeasurementPurges(
  em: EntityManager,
  config: Config,
  measurements: repo.MeasurementRef[],
): Promise<RecordedStart[]> {
  if (!measurements.length) return [];
  const sessions = await em.execute<{ measurement_id: string; kind: 'upload' | 'extend'; version: number }[]>(
    `select measurement_id, kind, version from measurement_upload_sessions
      where measurement_id in (select jsonb_array_elements_text(?::jsonb)::uuid) and confirmed_at is not null`,
    [JSON.stringify(measurements.map((m) => m.id))],
  );
  const processing = (id: string) =>
    sessions
      .filter((s) => s.measurement_id === id)
      .map((s) => workflowIds.measurementProcessing(id, s.kind, s.version));
  return recordStarts(
    em,
    measurements.map((m) =>
      purgeStart(config, measurementPrefix(m.organization_id, m.project_id, m.id), processing(m.id)),
    ),
  );
}
