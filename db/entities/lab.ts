// MikroORM entities: Sites, cyclers, channels and what happens to them; planned measurements and the lab revision.
// Generated once from the migrated schema; test/ormDrift.test.ts keeps them and the migrations in step.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps, createdAt } from './columns.ts';

export const Site = defineEntity({
  name: 'Site',
  tableName: 'sites',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    name: p.text(),
    location: p.text().nullable(),
    notes: p.text().nullable(),
    created_by: p.uuid(),
    ...timestamps,
  },
});
export type ISite = InferEntity<typeof Site>;

export const Cycler = defineEntity({
  name: 'Cycler',
  tableName: 'cyclers',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    site_id: p.uuid(),
    project_id: p.uuid(),
    name: p.text(),
    manufacturer: p.text().nullable(),
    model: p.text().nullable(),
    version: p.text().nullable(),
    serial_number: p.text().nullable(),
    firmware_version: p.text().nullable(),
    hostname: p.text().nullable(),
    ip_address: p.text().nullable(),
    port: p.integer().nullable(),
    last_calibrated_at: p.datetime().nullable(),
    calibration_interval_days: p.integer().nullable(),
    calibration_due_at: p.datetime().nullable(),
    notes: p.text().nullable(),
    created_by: p.uuid(),
    ...timestamps,
    tsv: p
      .type('tsvector')
      .nullable()
      .generated(
        "((setweight(to_tsvector('simple'::regconfig, name), " +
          "'A'::\"char\") || setweight(to_tsvector('simple'::regconfig, ((((((COALESCE(manufacturer, " +
          "''::text) || ' '::text) || COALESCE(model, ''::text)) || ' '::text) || COALESCE(serial_number, " +
          "''::text)) || ' '::text) || COALESCE(hostname, ''::text))), 'B'::\"char\"))) stored",
      ),
  },
});
export type ICycler = InferEntity<typeof Cycler>;

export const Channel = defineEntity({
  name: 'Channel',
  tableName: 'channels',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    cycler_id: p.uuid(),
    name: p.text(),
    notes: p.text().nullable(),
    max_amps: p.double().nullable(),
    min_volts: p.double().nullable(),
    max_volts: p.double().nullable(),
    out_of_commission: p.boolean().default(false),
    created_by: p.uuid(),
    ...timestamps,
    service_scheduled_at: p.datetime().nullable(),
    service_scheduled_until: p.datetime().nullable(),
    /** The cycler service event that took the channel out, if that is why it is out. */
    service_event_id: p.uuid().nullable(),
  },
});
export type IChannel = InferEntity<typeof Channel>;

export const ChannelIncident = defineEntity({
  name: 'ChannelIncident',
  tableName: 'channel_incidents',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    channel_id: p.uuid(),
    out_of_commission: p.boolean(),
    incident_category: p.enum(['hardware_failure', 'maintenance', 'calibration', 'decommissioned', 'other']).nullable(),
    description: p.text().nullable(),
    created_by: p.uuid(),
    ...createdAt,
    service_scheduled_at: p.datetime().nullable(),
    service_scheduled_until: p.datetime().nullable(),
    /** The cycler service event this outage belongs to (the client's ChannelIncident). */
    service_event_id: p.uuid().nullable(),
  },
});
export type IChannelIncident = InferEntity<typeof ChannelIncident>;

export const CyclerServiceEvent = defineEntity({
  name: 'CyclerServiceEvent',
  tableName: 'cycler_service_events',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    cycler_id: p.uuid(),
    event_type: p.enum(['calibration', 'preventive_maintenance', 'firmware', 'repair', 'other']),
    status: p.enum(['open', 'completed']).default('open'),
    notes: p.text().nullable(),
    completion_notes: p.text().nullable(),
    started_at: p.datetime().defaultRaw('now()'),
    completed_at: p.datetime().nullable(),
    created_by: p.uuid(),
    completed_by: p.uuid().nullable(),
    ...timestamps,
    scheduled_for: p.datetime().nullable(),
    scheduled_until: p.datetime().nullable(),
  },
});
export type ICyclerServiceEvent = InferEntity<typeof CyclerServiceEvent>;

export const LabVersion = defineEntity({
  name: 'LabVersion',
  tableName: 'lab_versions',
  properties: {
    project_id: p.uuid().primary(),
    version: p.bigint().defaultRaw('1'),
  },
});
export type ILabVersion = InferEntity<typeof LabVersion>;

export const ExperimentTemplate = defineEntity({
  name: 'ExperimentTemplate',
  tableName: 'experiment_templates',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    content_hash: p.text(),
    name: p.text(),
    description: p.text().nullable(),
    source_protocol: p.text(),
    protocol_config: p.json<unknown>(),
    parameters_schema: p.json<unknown>().nullable(),
    experiment_parameters: p.json<unknown>().defaultRaw("'{}'::jsonb"),
    input_references: p.json<unknown>().defaultRaw("'[]'::jsonb"),
    created_by: p.uuid(),
    ...timestamps,
  },
});
export type IExperimentTemplate = InferEntity<typeof ExperimentTemplate>;

export const PlannedMeasurement = defineEntity({
  name: 'PlannedMeasurement',
  tableName: 'planned_measurements',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    name: p.text(),
    status: p.enum(['requested', 'scheduled', 'in_progress', 'completed', 'cancelled']).default('requested'),
    protocol_id: p.uuid().nullable(),
    cell_specification_id: p.uuid().nullable(),
    cell_instance_id: p.uuid().nullable(),
    channel_id: p.uuid().nullable(),
    planned_start_time: p.datetime().nullable(),
    planned_end_time: p.datetime().nullable(),
    estimated_duration_seconds: p.integer().nullable(),
    setup_duration_seconds: p.integer().nullable(),
    teardown_duration_seconds: p.integer().nullable(),
    test_setup: p.json<unknown>().nullable(),
    notes: p.text().nullable(),
    requested_by: p.uuid().nullable(),
    scheduled_by: p.uuid().nullable(),
    created_by: p.uuid(),
    ...timestamps,
  },
});
export type IPlannedMeasurement = InferEntity<typeof PlannedMeasurement>;

export const labEntities = [
  Site,
  Cycler,
  Channel,
  ChannelIncident,
  CyclerServiceEvent,
  LabVersion,
  ExperimentTemplate,
  PlannedMeasurement,
];
