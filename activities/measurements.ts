// Database side of measurement processing: what the Python worker is asked to do, and its
// outcome recorded in one transaction (for an extend, the switch to the new version).
import { ApplicationFailure } from '@temporalio/activity';
import type { Orm } from '../db/orm.ts';
import * as repo from '../db/repositories/measurementData.ts';
import type { ObjectStorage } from '../storage/storage.ts';
import {
  extendKey,
  measurementPrefix,
  overviewKey,
  sealedKey,
  seriesPrefix,
  STEPS_UPLOAD,
  TIME_SERIES_UPLOAD,
  uploadKey,
} from '../storage/measurementKeys.ts';

/**
 * Where processing reads an upload: its sealed copy (storage/measurementKeys.ts), for sessions made since confirm
 * seals.
 */
const readKey = (t: repo.UploadTarget) => t.sealed_path ?? t.path;

export interface MeasurementJob {
  measurementId: string;
  mode: 'upload' | 'extend';
  /** 0 for an upload; the version an extend produces. */
  version: number;
}

/** The Python `processMeasurement` activity's input (see pyworker/cellar_worker/measurements/README.md). */
export interface PythonProcessInput {
  measurement_id: string;
  mode: 'upload' | 'extend';
  measurement_type: 'time_series' | 'file';
  source_key: string | string[];
  steps_key?: string;
  current_key?: string;
  /** The stored steps summary of current_key, whose labels carry over to the extended one. */
  current_steps_key?: string;
  output_prefix: string;
  version?: number;
  validation: { strict: boolean; skip_checks: string[] };
  rated_capacity_ah: number | null;
  voltage_min: number | null;
  voltage_max: number | null;
}

/** A rating as a plain number or a quantity {value, unit}; milli-units (mAh, mV) are scaled. */
function ratingNumber(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  const q = v as { value?: unknown; unit?: unknown } | null;
  if (!q || typeof q !== 'object' || typeof q.value !== 'number' || !Number.isFinite(q.value)) return null;
  return typeof q.unit === 'string' && /^m(A\.?h|V)$/i.test(q.unit.trim()) ? q.value / 1000 : q.value;
}

export function createMeasurementActivities(deps: { orm: Orm; storage: ObjectStorage }) {
  return {
    /**
     * Marks the measurement running and says what to process, or null when the job is stale
     * (the measurement was deleted, or this extend is no longer the one in flight).
     */
    async beginMeasurementProcessing(job: MeasurementJob): Promise<PythonProcessInput | null> {
      return deps.orm.em.fork().transactional(async (em) => {
        const m = await repo.findMeasurement(em, job.measurementId, { forUpdate: true });
        if (!m) return null;
        if (
          job.mode === 'extend'
            ? m.extending_version !== job.version
            : !['pending', 'running'].includes(m.processing_status)
        ) {
          return null;
        }
        await repo.markRunning(em, m.id);
        const prefix = measurementPrefix(m.organization_id, m.project_id, m.id);
        const ratings = await repo.ratingsOf(em, m.cell_instance_id);
        const options = m.validation_options ?? {};
        const base = {
          measurement_id: m.id,
          mode: job.mode,
          output_prefix: seriesPrefix(prefix),
          validation: { strict: options.strict ?? true, skip_checks: options.skip_checks ?? [] },
          rated_capacity_ah: ratingNumber(ratings.capacity),
          voltage_min: ratingNumber(ratings.voltage_min),
          voltage_max: ratingNumber(ratings.voltage_max),
        };
        // What confirm sealed (or, for a session older than sealing, the upload itself).
        if (m.measurement_type === 'file') {
          const session = await repo.findUploadSession(em, m.id);
          return { ...base, measurement_type: 'file', source_key: session!.targets.map(readKey) };
        }
        if (job.mode === 'extend') {
          if (!m.time_series_key)
            throw ApplicationFailure.nonRetryable(`measurement ${m.id} has no stored series to extend`, 'NoSeries');
          const session = await repo.findExtendSession(em, m.id, job.version);
          return {
            ...base,
            measurement_type: 'time_series',
            source_key: session ? readKey(session.targets[0]!) : extendKey(prefix, job.version),
            current_key: m.time_series_key,
            version: job.version,
            ...(m.steps_key ? { current_steps_key: m.steps_key } : {}),
          };
        }
        const session = await repo.findUploadSession(em, m.id);
        const target = (name: string) => {
          const t = session?.targets.find((x) => x.filename === name);
          return t ? readKey(t) : uploadKey(prefix, name);
        };
        return {
          ...base,
          measurement_type: 'time_series',
          source_key: target(TIME_SERIES_UPLOAD),
          steps_key: target(STEPS_UPLOAD),
        };
      });
    },

    /**
     * Records the outcome in one transaction and returns the objects no longer used (the
     * previous version after an extend, consumed uploads), to delete after a grace period.
     */
    async finishMeasurementProcessing(
      input: MeasurementJob & { result: repo.ProcessingResult },
    ): Promise<{ obsoleteKeys: string[]; deleteAfter: string | null }> {
      return deps.orm.em.fork().transactional(async (em) => {
        const m = await repo.findMeasurement(em, input.measurementId, { forUpdate: true });
        if (!m) return { obsoleteKeys: [], deleteAfter: null };
        const prefix = measurementPrefix(m.organization_id, m.project_id, m.id);
        const r = input.result;
        if (input.mode === 'upload') {
          if (!['pending', 'running'].includes(m.processing_status)) return { obsoleteKeys: [], deleteAfter: null };
          await repo.recordUploadOutcome(em, m.id, r);
          const session = await repo.findUploadSession(em, m.id);
          // A file measurement is served from its sealed copies: the uploads are not needed, whatever the outcome.
          const obsoleteKeys =
            m.measurement_type === 'file'
              ? (session?.targets ?? []).filter((t) => t.sealed_path).map((t) => t.path)
              : r.status !== 'ready'
                ? []
                : [TIME_SERIES_UPLOAD, STEPS_UPLOAD]
                    .map((name) => uploadKey(prefix, name))
                    .flatMap((key) => [key, sealedKey(key)]);
          // Kept until the upload targets expire, so a replayed signed PUT still finds its object taken.
          return {
            obsoleteKeys,
            deleteAfter: obsoleteKeys.length ? (session?.expires_at.toISOString() ?? null) : null,
          };
        }
        if (m.extending_version !== input.version) return { obsoleteKeys: [], deleteAfter: null };
        await repo.recordExtendOutcome(em, m.id, input.version, r);
        const session = await repo.findExtendSession(em, m.id, input.version);
        const obsolete = [extendKey(prefix, input.version), sealedKey(extendKey(prefix, input.version))];
        if (r.status === 'ready') {
          for (const key of [m.time_series_key, m.steps_key, m.cycles_key]) {
            if (key && ![r.time_series_key, r.steps_key, r.cycles_key].includes(key)) obsolete.push(key);
          }
          // The previous series' plot overview, if it had one (deleting an absent object is a no-op).
          if (m.time_series_key && m.time_series_key !== r.time_series_key)
            obsolete.push(overviewKey(m.time_series_key));
        }
        return { obsoleteKeys: obsolete, deleteAfter: session?.expires_at.toISOString() ?? null };
      });
    },

    async deleteStoredObjects(keys: string[]): Promise<number> {
      for (const key of keys) await deps.storage.delete(key);
      return keys.length;
    },
  };
}

export type MeasurementActivities = ReturnType<typeof createMeasurementActivities>;
