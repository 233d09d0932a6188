import { Migration } from '@mikro-orm/migrations';

// A cycler's service event takes every channel of it out of commission: each outage it opens
// names the event (the client's ChannelIncident.service_event_id), and so does the channel while
// it is out for it, so that completing the event returns exactly those channels (channels out for
// their own faults stay out), and a channel out only for a booked visit can be planned around it.
export class Migration20261127193200IncidentServiceEvent extends Migration {
  override name = 'Migration20261127193200IncidentServiceEvent';

  up(): void {
    this.addSql(`alter table channel_incidents add column service_event_id uuid references cycler_service_events (id) on delete set null`);
    this.addSql(`create index channel_incidents_service_event_idx on channel_incidents (service_event_id) where service_event_id is not null`);
    this.addSql(`alter table channels add column service_event_id uuid references cycler_service_events (id) on delete set null,
      add constraint channels_service_event_out check (service_event_id is null or out_of_commission)`);
  }

  override down(): void {
    this.addSql(`alter table channels drop column service_event_id`);
    this.addSql(`alter table channel_incidents drop column service_event_id`);
  }
}
