// Uploads that were initiated and never confirmed (measurement data and raw data): once their
// signed URLs (and scoped credentials) have lapsed, their objects and rows are removed. Run by the
// upload-expiry Temporal Schedule (durable, visible and pausable in the Web UI).
import { heartbeat } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Orm } from '../db/orm.ts';
import type { Config } from '../stack/config.ts';
import { extendKey, measurementPrefix } from '../storage/measurementKeys.ts';
import { rawDataPrefix } from '../storage/rawDataKeys.ts';
import type { ObjectStorage } from '../storage/storage.ts';
import type { UploadSessionRow } from '../db/repositories/measurementData.ts';
import { workflowCall } from '../workflows/registry.ts';
import { ensureSchedule } from './schedules.ts';

/** After expires_at: a PUT begun just before the signed URL lapsed has finished by then. */
export const UPLOAD_EXPIRY_GRACE_SECONDS = 600;
const EVERY = '15 minutes';

export const uploadExpiryScheduleId = (taskQueue: string) => `upload-expiry-${taskQueue}`;

/** An upload session past its signed URLs' life, and whether its measurement recorded data. */
type ExpiredSession = Pick<
  UploadSessionRow,
  'id' | 'measurement_id' | 'kind' | 'version' | 'organization_id' | 'project_id'
> & { recorded: boolean };

export function createUploadActivities(deps: { orm: Orm; storage: ObjectStorage }) {
  return {
    /** Removes up to `limit` lapsed unconfirmed uploads (objects, then rows); answers how many. */
    async expireUnconfirmedUploads(graceSeconds: number, limit: number): Promise<number> {
      const em = deps.orm.em.fork();
      const sessions = await em.execute<ExpiredSession[]>(
        `select s.id, s.measurement_id, s.kind, s.version, s.organization_id, s.project_id,
                exists (select 1 from cell_measurements m where m.id = s.measurement_id) as recorded
           from measurement_upload_sessions s
          where s.confirmed_at is null and s.expires_at < now() - make_interval(secs => ?)
          order by s.expires_at limit ?`,
        [graceSeconds, limit],
      );
      for (const s of sessions) {
        const prefix = measurementPrefix(s.organization_id, s.project_id, s.measurement_id);
        // An upload never confirmed has no record: everything under the measurement goes. An
        // extend's measurement stays; only its upload folder goes.
        if (s.kind === 'extend') await deps.storage.deletePrefix(extendKey(prefix, s.version).replace(/[^/]+$/, ''));
        else if (!s.recorded) await deps.storage.deletePrefix(prefix);
        // A confirm racing this delete either committed first (then the row is not deleted) or finds no session.
        await em.execute(`delete from measurement_upload_sessions where id = ? and confirmed_at is null`, [s.id]);
        heartbeat();
      }
      return sessions.length + (await expireRawData(em, deps.storage, graceSeconds, limit));
    },
  };
}
export type UploadActivities = ReturnType<typeof createUploadActivities>;

/**
 * Raw-data records initiated and never confirmed: the row goes first (a confirm holding it
 * wins, and then nothing is removed), then the object under it.
 */
async function expireRawData(
  em: ReturnType<Orm['em']['fork']>,
  storage: ObjectStorage,
  graceSeconds: number,
  limit: number,
): Promise<number> {
  const gone = await em.execute<{ id: string; organization_id: string; project_id: string }[]>(
    `delete from raw_data where id in (
       select id from raw_data where confirmed_at is null and expires_at < now() - make_interval(secs => ?)
         order by expires_at limit ? for update skip locked
     ) and confirmed_at is null returning id, organization_id, project_id`,
    [graceSeconds, limit],
  );
  for (const r of gone) {
    await storage.deletePrefix(rawDataPrefix(r.organization_id, r.project_id, r.id));
    heartbeat();
  }
  return gone.length;
}

/** The schedule that expires unconfirmed uploads. */
export function ensureUploadExpirySchedule(client: Client, config: Config): Promise<string> {
  return ensureSchedule(client, {
    scheduleId: uploadExpiryScheduleId(config.taskQueue),
    every: EVERY,
    workflow: {
      ...workflowCall('expireUploads', { graceSeconds: UPLOAD_EXPIRY_GRACE_SECONDS }),
      workflowId: `expire-uploads-${config.taskQueue}`,
      taskQueue: config.taskQueue,
    },
    description: 'Removes the objects and records of uploads never confirmed, once their signed URLs have lapsed',
  });
}
