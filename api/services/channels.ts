// Channels of a cycler (project and organization inherited from it), and their
// out-of-commission incidents.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { AppError, conflict, invalid, notFound, ValidationFailed } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import { parseList, type ListSpec } from '../listQuery.ts';
import * as repo from '../../db/repositories/inventory.ts';
import { insertRow, orConflict, page, updateRow } from '../../db/repositories/sqlRows.ts';
import { assertSameOrganization, readableProjectsSql, requireProjectPermission } from './access.ts';
import { requireCycler } from './cyclers.ts';
import { indexEntity, unindexEntity } from './searchIndex.ts';

const CHANNEL_LIST: ListSpec = {
  columns: {
    name: { kind: 'text', sql: 'ch.name' },
    notes: { kind: 'text', sql: 'ch.notes' },
    cycler_id: { kind: 'id', sql: 'ch.cycler_id' },
    project_id: { kind: 'id', sql: 'ch.project_id' },
    out_of_commission: { kind: 'boolean', sql: 'ch.out_of_commission' },
    max_amps: { kind: 'number', sql: 'ch.max_amps' },
    min_volts: { kind: 'number', sql: 'ch.min_volts' },
    max_volts: { kind: 'number', sql: 'ch.max_volts' },
    created_by_email: { kind: 'text', sql: 'u.email' },
    created_at: { kind: 'date', sql: 'ch.created_at' },
    updated_at: { kind: 'date', sql: 'ch.updated_at' },
  },
  sortable: ['name', 'max_amps', 'min_volts', 'max_volts', 'created_at', 'updated_at'],
  defaultOrderBy: 'name',
  tieBreak: 'ch.id',
};

const INCIDENT_LIST: ListSpec = {
  columns: {
    incident_category: {
      kind: 'enum',
      values: ['hardware_failure', 'maintenance', 'calibration', 'decommissioned', 'other'],
    },
    created_at: { kind: 'date' },
  },
  sortable: ['created_at'],
  defaultOrderBy: 'created_at',
  defaultOrder: 'desc',
};

type ChannelUpdate = RequestBody<'updateChannel'>;

/** The channel's service window after the update: the end must follow the start (400); null start clears it. */
function serviceWindow(channel: repo.ChannelRow, body: ChannelUpdate) {
  if (body.service_scheduled_at === undefined && body.service_scheduled_until === undefined) return {};
  if (body.service_scheduled_at === null) return { service_scheduled_at: null, service_scheduled_until: null };
  const at = body.service_scheduled_at ?? channel.service_scheduled_at;
  const until = body.service_scheduled_until;
  if (until != null) {
    if (at == null)
      throw new AppError(
        'BAD_REQUEST',
        'service_scheduled_until needs a service_scheduled_at: book the start of the service first',
        { field: 'service_scheduled_until' },
      );
    if (Date.parse(until) <= new Date(at).getTime()) {
      throw new AppError(
        'BAD_REQUEST',
        `service_scheduled_until must be after service_scheduled_at (${new Date(at).toISOString()})`,
        { field: 'service_scheduled_until' },
      );
    }
  }
  return { service_scheduled_at: body.service_scheduled_at, service_scheduled_until: until };
}

/** Categories that imply a planned visit: taking a channel out for one needs its date (the client's rule). */
const PLANNED_VISITS = ['maintenance', 'calibration'];

/** 400 naming service_scheduled_at when a channel goes out of commission for a planned visit with no date attached. */
function requireVisitDate(channel: repo.ChannelRow, body: ChannelUpdate) {
  if (body.out_of_commission !== true || channel.out_of_commission) return; // re-sending the current state is a no-op
  if (!PLANNED_VISITS.includes(body.incident_category ?? 'other') || body.service_scheduled_at != null) return;
  throw new AppError(
    'BAD_REQUEST',
    `service_scheduled_at is required to take a channel out of commission for ${body.incident_category}: ` +
      `a planned visit needs its date`,
    { field: 'service_scheduled_at', incident_category: body.incident_category },
  );
}

export async function requireChannel(
  ctx: RequestContext,
  channelId: string,
  permission: string,
): Promise<repo.ChannelRow> {
  const channel = await repo.findChannel(ctx.em, channelId);
  if (!channel) throw notFound('channel', channelId);
  assertSameOrganization(ctx.caller, channel.organization_id, 'channel');
  await requireProjectPermission(ctx, channel.project_id, permission);
  return channel;
}

function indexChannel(ctx: RequestContext, ch: repo.ChannelRow) {
  return indexEntity(ctx.em, {
    entity_type: 'channel',
    entity_id: ch.id,
    organization_id: ch.organization_id,
    project_id: ch.project_id,
    parent_id: ch.cycler_id,
    name: ch.name,
    body: ch.notes,
  });
}

/** min_volts must stay below max_volts, including against the stored value on a partial update. */
function checkVoltages(minVolts: number | null | undefined, maxVolts: number | null | undefined) {
  if (minVolts != null && maxVolts != null && minVolts >= maxVolts) {
    throw new ValidationFailed([
      {
        loc: ['body', 'min_volts'],
        msg: `must be below max_volts (${maxVolts})`,
        type: 'value_error',
        input: minVolts,
      },
      {
        loc: ['body', 'max_volts'],
        msg: `must be above min_volts (${minVolts})`,
        type: 'value_error',
        input: maxVolts,
      },
    ]);
  }
}

async function assertNameFree(ctx: RequestContext, cyclerId: string, name: string, selfId?: string) {
  const clash = await repo.findChannelByName(ctx.em, cyclerId, name);
  if (clash && clash.id !== selfId)
    throw conflict(`a channel named "${name}" already exists on this cycler`, { existing_id: clash.id });
}

export async function createChannel(ctx: RequestContext, cyclerId: string, body: RequestBody<'createChannel'>) {
  if (body.out_of_commission !== undefined) {
    throw new AppError(
      'BAD_REQUEST',
      'out_of_commission cannot be set on create; create the channel, then take it out of commission with PATCH',
      { field: 'out_of_commission' },
    );
  }
  const cycler = await requireCycler(ctx, cyclerId, 'channel:create');
  checkVoltages(body.min_volts, body.max_volts);
  await assertNameFree(ctx, cyclerId, body.name);
  const id = randomUUID();
  return orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        // The project is read again under a share lock: a move of the cycler waits for this channel
        // (and takes it along), or has committed and the channel joins the new project.
        const owner = await repo.shareCycler(em, cyclerId);
        if (!owner) throw notFound('cycler', cyclerId);
        if (owner.project_id !== cycler.project_id)
          await requireProjectPermission({ ...ctx, em }, owner.project_id, 'channel:create');
        await insertRow(
          em,
          'channels',
          {
            id,
            organization_id: owner.organization_id,
            project_id: owner.project_id,
            cycler_id: cyclerId,
            name: body.name,
            notes: body.notes ?? null,
            max_amps: body.max_amps ?? null,
            min_volts: body.min_volts ?? null,
            max_volts: body.max_volts ?? null,
            created_by: ctx.caller.userId,
          },
          'id',
        );
        const row = (await repo.findChannel(em, id))!;
        await indexChannel({ ...ctx, em }, row);
        return row;
      }),
    () => assertNameFree(ctx, cyclerId, body.name),
  );
}

export async function getChannel(ctx: RequestContext, channelId: string) {
  return requireChannel(ctx, channelId, 'channel:read');
}

export async function listChannels(ctx: RequestContext, query: Record<string, unknown>, cyclerId?: string) {
  if (cyclerId) await requireCycler(ctx, cyclerId, 'channel:read');
  const list = parseList(cyclerId ? { ...query, cycler_id: cyclerId } : query, CHANNEL_LIST);
  return page<repo.ChannelRow>(ctx.em, {
    select: repo.CHANNEL_SELECT,
    from: repo.CHANNEL_FROM,
    scope: [readableProjectsSql(ctx.caller, 'ch.project_id')],
    list,
  });
}

/**
 * The settings a running measurement depends on: changing any of them then is 409 (wire conventions). Notes are not
 * one.
 */
const RUN_SETTINGS = ['name', 'max_amps', 'min_volts', 'max_volts', 'out_of_commission'] as const;

/**
 * Changing out_of_commission records an incident; changing a setting is refused while a measurement runs on the
 * channel.
 */
export async function updateChannel(ctx: RequestContext, channelId: string, body: ChannelUpdate) {
  const channel = await requireChannel(ctx, channelId, 'channel:update');
  // An incident is recorded only with a change of out_of_commission: alone, it would be dropped.
  for (const field of ['incident_category', 'incident_description', 'incident_notes', 'resolution_notes'] as const) {
    if (body[field] !== undefined && body.out_of_commission === undefined) {
      throw invalid(
        ['body', field],
        'describes taking the channel out of commission or back: send it with out_of_commission',
        'value_error',
        body[field],
      );
    }
  }
  checkVoltages(
    body.min_volts === undefined ? channel.min_volts : body.min_volts,
    body.max_volts === undefined ? channel.max_volts : body.max_volts,
  );
  requireVisitDate(channel, body);
  const service = serviceWindow(channel, body);
  if (body.name !== undefined) await assertNameFree(ctx, channel.cycler_id, body.name, channelId);
  return orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        await repo.lockChannel(em, channelId);
        const changed = RUN_SETTINGS.filter((f) => body[f] !== undefined && body[f] !== channel[f]);
        if (changed.length) {
          const running = await repo.runningMeasurement(em, { channelId });
          if (running)
            throw conflict(
              `a measurement is running on this channel; ${changed.join(', ')} cannot change until it ends`,
              { measurement_id: running.id, fields: changed },
            );
        }
        const toggled = changed.includes('out_of_commission');
        if (toggled) {
          await insertRow(
            em,
            'channel_incidents',
            {
              id: randomUUID(),
              organization_id: channel.organization_id,
              project_id: channel.project_id,
              channel_id: channelId,
              out_of_commission: body.out_of_commission,
              incident_category: body.incident_category ?? 'other',
              description:
                (body.out_of_commission
                  ? (body.incident_description ?? body.incident_notes)
                  : (body.resolution_notes ?? body.incident_description)) ?? null,
              service_scheduled_at: body.service_scheduled_at ?? null,
              service_scheduled_until: body.service_scheduled_until ?? null,
              created_by: ctx.caller.userId,
            },
            'id',
          );
        }
        await updateRow(em, 'channels', channelId, {
          name: body.name,
          notes: body.notes,
          max_amps: body.max_amps,
          min_volts: body.min_volts,
          max_volts: body.max_volts,
          out_of_commission: body.out_of_commission,
          ...service,
          // Taken out or back by hand, the channel's outage is its own from now on, not its cycler's service.
          ...(toggled ? { service_event_id: null } : {}),
        });
        const row = (await repo.findChannel(em, channelId))!;
        await indexChannel({ ...ctx, em }, row);
        return row;
      }),
    () => assertNameFree(ctx, channel.cycler_id, body.name ?? channel.name, channelId),
  );
}

export async function deleteChannel(ctx: RequestContext, channelId: string) {
  await requireChannel(ctx, channelId, 'channel:delete');
  await ctx.em.transactional(async (em) => {
    await repo.lockChannel(em, channelId);
    const running = await repo.runningMeasurement(em, { channelId });
    if (running) throw conflict('a measurement is running on this channel', { measurement_id: running.id });
    await unindexEntity(em, 'channel', channelId);
    await em.execute(`delete from channels where id = ?`, [channelId]);
  });
  return { id: channelId, deleted: true };
}

export async function listIncidents(ctx: RequestContext, channelId: string, query: Record<string, unknown>) {
  await requireChannel(ctx, channelId, 'channel:read');
  const list = parseList(query, INCIDENT_LIST);
  // An incident is an outage span: a change out of commission, resolved by the channel's next
  // change back (the client's ChannelIncident: started_at, resolved_at, notes, resolution_notes).
  return page(ctx.em, {
    select: `*, created_at as started_at, incident_category as category, description as notes`,
    from: `(select i.*, r.created_at as resolved_at, r.description as resolution_notes, r.created_by as resolved_by
              from channel_incidents i
              left join lateral (select r.created_at, r.description, r.created_by from channel_incidents r
                                  where r.channel_id = i.channel_id and not r.out_of_commission
                                    and r.created_at >= i.created_at
                                  order by r.created_at limit 1) r on true
             where i.out_of_commission) incidents`,
    scope: [{ sql: 'channel_id = ?', params: [channelId] }],
    list,
  });
}
