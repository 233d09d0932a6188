// Lab inventory routes: sites, cyclers, channels, cells, measurement records, lab status, search.
import { Router, type Response } from 'express';
import * as sites from '../services/sites.ts';
import * as cyclers from '../services/cyclers.ts';
import * as channels from '../services/channels.ts';
import * as cells from '../services/cells.ts';
import * as measurements from '../services/cellMeasurements.ts';
import * as measurementLists from '../services/measurementLists.ts';
import { serializeMeasurement } from '../services/measurementRecords.ts';
import * as tags from '../services/measurementTags.ts';
import * as batches from '../services/cellBatches.ts';
import * as lab from '../services/lab.ts';
import { search } from '../services/search.ts';

/**
 * Timestamps as ISO strings before the response is validated: nullable date-time fields
 * are not serialized by the validator, so Dates are converted here.
 */
function wire(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(wire);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wire(v)]));
  }
  return value;
}

function send(res: Response, body: unknown) {
  res.json(wire(body));
}

function created(res: Response, location: string, body: unknown) {
  res.status(201).setHeader('Location', location).json(wire(body));
}

export function inventoryRoutes(): Router {
  const r = Router();
  r.post('/sites', async (req, res) => {
    const site = await sites.createSite(req.ctx, req.body);
    created(res, `/sites/${site.id}`, site);
  });
  r.get('/sites', async (req, res) => {
    send(res, await sites.listSites(req.ctx, req.query));
  });
  r.get('/sites/:site_id', async (req, res) => {
    send(res, await sites.getSite(req.ctx, req.params.site_id));
  });
  r.patch('/sites/:site_id', async (req, res) => {
    send(res, await sites.updateSite(req.ctx, req.params.site_id, req.body));
  });
  r.delete('/sites/:site_id', async (req, res) => {
    send(res, await sites.deleteSite(req.ctx, req.params.site_id));
  });

  r.post('/sites/:site_id/cyclers', async (req, res) => {
    const cycler = await cyclers.createCycler(req.ctx, req.params.site_id, req.body);
    created(res, `/cyclers/${cycler.id}`, cycler);
  });
  r.get('/sites/:site_id/cyclers', async (req, res) => {
    send(res, await cyclers.listCyclers(req.ctx, req.query, req.params.site_id));
  });
  r.get('/cyclers', async (req, res) => {
    send(res, await cyclers.listCyclers(req.ctx, req.query));
  });
  r.get('/cyclers/:cycler_id', async (req, res) => {
    send(res, await cyclers.getCycler(req.ctx, req.params.cycler_id));
  });
  r.patch('/cyclers/:cycler_id', async (req, res) => {
    send(res, await cyclers.updateCycler(req.ctx, req.params.cycler_id, req.body));
  });
  r.delete('/cyclers/:cycler_id', async (req, res) => {
    send(res, await cyclers.deleteCycler(req.ctx, req.params.cycler_id));
  });
  r.get('/cyclers/:cycler_id/service_events', async (req, res) => {
    send(res, await cyclers.listServiceEvents(req.ctx, req.params.cycler_id, req.query));
  });
  r.post('/cyclers/:cycler_id/service_events', async (req, res) => {
    res.status(201).json(wire(await cyclers.openServiceEvent(req.ctx, req.params.cycler_id, req.body)));
  });
  r.post('/cyclers/:cycler_id/service_events/complete', async (req, res) => {
    send(res, await cyclers.completeServiceEvent(req.ctx, req.params.cycler_id, req.body));
  });

  r.post('/cyclers/:cycler_id/channels', async (req, res) => {
    const channel = await channels.createChannel(req.ctx, req.params.cycler_id, req.body);
    created(res, `/channels/${channel.id}`, channel);
  });
  r.get('/cyclers/:cycler_id/channels', async (req, res) => {
    send(res, await channels.listChannels(req.ctx, req.query, req.params.cycler_id));
  });
  r.get('/channels', async (req, res) => {
    send(res, await channels.listChannels(req.ctx, req.query));
  });
  r.get('/channels/:channel_id', async (req, res) => {
    send(res, await channels.getChannel(req.ctx, req.params.channel_id));
  });
  r.patch('/channels/:channel_id', async (req, res) => {
    send(res, await channels.updateChannel(req.ctx, req.params.channel_id, req.body));
  });
  r.delete('/channels/:channel_id', async (req, res) => {
    send(res, await channels.deleteChannel(req.ctx, req.params.channel_id));
  });
  r.get('/channels/:channel_id/incidents', async (req, res) => {
    send(res, await channels.listIncidents(req.ctx, req.params.channel_id, req.query));
  });

  r.post('/cell_specifications', async (req, res) => {
    const spec = await cells.createSpec(req.ctx, req.body);
    created(res, `/cell_specifications/${spec.id}`, spec);
  });
  r.get('/cell_specifications', async (req, res) => {
    send(res, await cells.listSpecs(req.ctx, req.query));
  });
  r.post('/cell_specifications/:spec_id/cell_batches', async (req, res) => {
    const b = await batches.createBatch(req.ctx, req.params.spec_id, req.body);
    created(res, `/cell_batches/${b.id}`, b);
  });
  r.get('/cell_specifications/:spec_id/cell_batches', async (req, res) => {
    send(res, await batches.listBatches(req.ctx, req.params.spec_id, req.query));
  });
  r.get('/cell_batches/:batch_id', async (req, res) => {
    send(res, await batches.requireBatch(req.ctx, req.params.batch_id, 'cell_instance:read'));
  });
  r.patch('/cell_batches/:batch_id', async (req, res) => {
    send(res, await batches.updateBatch(req.ctx, req.params.batch_id, req.body));
  });
  r.delete('/cell_batches/:batch_id', async (req, res) => {
    send(res, await batches.deleteBatch(req.ctx, req.params.batch_id));
  });
  r.get('/cell_specifications/:spec_id', async (req, res) => {
    send(res, await cells.getSpec(req.ctx, req.params.spec_id));
  });
  r.patch('/cell_specifications/:spec_id', async (req, res) => {
    send(res, await cells.updateSpec(req.ctx, req.params.spec_id, req.body));
  });
  r.delete('/cell_specifications/:spec_id', async (req, res) => {
    send(res, await cells.deleteSpec(req.ctx, req.params.spec_id));
  });
  r.post('/cell_specifications/:spec_id/cell_instances', async (req, res) => {
    const instance = await cells.createInstance(req.ctx, req.params.spec_id, req.body);
    created(res, `/cell_instances/${instance.id}`, instance);
  });
  r.get('/cell_specifications/:spec_id/cell_instances', async (req, res) => {
    send(res, await cells.listInstances(req.ctx, req.params.spec_id, req.query));
  });
  r.get('/cell_instances/:instance_id', async (req, res) => {
    send(res, await cells.getInstance(req.ctx, req.params.instance_id));
  });
  r.patch('/cell_instances/:instance_id', async (req, res) => {
    send(res, await cells.updateInstance(req.ctx, req.params.instance_id, req.body));
  });
  r.delete('/cell_instances/:instance_id', async (req, res) => {
    send(res, await cells.deleteInstance(req.ctx, req.params.instance_id));
  });

  r.get('/cell_instances/:instance_id/cell_measurements', async (req, res) => {
    send(res, await measurementLists.listMeasurements(req.ctx, req.params.instance_id, req.query));
  });
  r.post('/cell_instances/:instance_id/cell_measurements/create', async (req, res) => {
    const m = serializeMeasurement(
      await measurements.createPropertiesMeasurement(req.ctx, req.params.instance_id, req.body),
    );
    created(res, `/cell_measurements/${m.id}`, m);
  });
  r.get('/cell_measurements', async (req, res) => {
    send(res, await measurementLists.listProjectMeasurements(req.ctx, req.query));
  });
  // Before /cell_measurements/:measurement_id, which would take "tags" for an id.
  r.get('/cell_measurements/tags', async (req, res) => {
    send(res, await tags.listTags(req.ctx, req.query as { project_id: string }));
  });
  r.post('/cell_measurements/tags/bulk', async (req, res) => {
    send(res, await tags.bulkTags(req.ctx, req.body));
  });
  r.get('/cell_measurements/:measurement_id', async (req, res) => {
    send(res, await measurements.getMeasurement(req.ctx, req.params.measurement_id));
  });
  r.patch('/cell_measurements/:measurement_id', async (req, res) => {
    send(res, serializeMeasurement(await measurements.updateMeasurement(req.ctx, req.params.measurement_id, req.body)));
  });
  r.delete('/cell_measurements/:measurement_id', async (req, res) => {
    send(res, await measurements.deleteMeasurement(req.ctx, req.params.measurement_id));
  });
  r.post('/cell_measurements/:measurement_id/watch', async (req, res) => {
    send(res, await measurements.setWatch(req.ctx, req.params.measurement_id, true));
  });
  r.delete('/cell_measurements/:measurement_id/watch', async (req, res) => {
    send(res, await measurements.setWatch(req.ctx, req.params.measurement_id, false));
  });

  r.get('/projects/:project_id/lab/status', async (req, res) => {
    const { view, cycler_offset: offset, cycler_limit: limit } = req.query as Record<string, string | undefined>;
    const { etag, body } = await lab.labStatus(req.ctx, req.params.project_id, req.header('if-none-match'), {
      view: view as lab.LabView['view'],
      cycler_offset: offset === undefined ? undefined : Number(offset),
      cycler_limit: limit === undefined ? undefined : Number(limit),
    });
    // private: the tree carries the caller's watches; no-cache: revalidate every time (cheap when unchanged).
    res.setHeader('ETag', etag).setHeader('Cache-Control', 'private, no-cache');
    if (body === null) res.status(304).end();
    else res.json(body);
  });
  r.get('/projects/:project_id/lab/watched', async (req, res) => {
    send(res, await measurements.watchedMeasurements(req.ctx, req.params.project_id));
  });
  r.get('/search', async (req, res) => {
    send(res, await search(req.ctx, req.query));
  });
  return r;
}
