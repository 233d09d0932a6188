// What a pipeline's elements point at: measurements of the caller's organization with a ready
// time series and the columns the element needs, and completed source pipelines.
import type { RequestContext } from '../../context.ts';
import { ValidationFailed, conflict, forbidden, type ValidationIssue } from '../../errors.ts';
import * as repo from '../../../db/repositories/pipelines.ts';
import { holdsInProject } from '../access.ts';
import { type Refs } from './dataChecks.ts';

/** Measurements must be the caller's organization's, with a ready time series; source pipelines completed. */
export async function checkRefs(ctx: RequestContext, refs: Refs) {
  const issues: ValidationIssue[] = [];
  const found = new Map(
    (await repo.findMeasurements(ctx.em, [...new Set(refs.measurements.map((r) => r.id))])).map((m) => [m.id, m]),
  );
  for (const ref of refs.measurements) {
    const m = found.get(ref.id);
    if (!m) issues.push({ loc: ref.loc, msg: `no measurement ${ref.id}`, type: 'value_error', input: `db:${ref.id}` });
    else if (m.organization_id !== ctx.caller.organizationId)
      throw forbidden(`measurement ${ref.id} belongs to another organization`, { loc: ref.loc });
    // A fit reads the series: that needs what GET /cell_measurements/{id} needs, in the measurement's project.
    else if (!(await holdsInProject(ctx, m.project_id, 'cell_measurement:read'))) {
      throw forbidden(`measurement ${ref.id} is in a project where you lack cell_measurement:read`, {
        loc: ref.loc,
        permission: 'cell_measurement:read',
      });
    } else if (m.measurement_type !== 'time_series')
      issues.push({
        loc: ref.loc,
        msg: `measurement ${ref.id} is a ${m.measurement_type} measurement, not a time series`,
        type: 'value_error',
      });
    else if (!ref.windowed && m.row_count !== null && m.row_count > ctx.config.fitMaxRows) {
      // The worker uses at most FIT_MAX_ROWS rows of a stored series (each solve interpolates the measured current).
      issues.push({
        loc: ref.loc,
        type: 'too_long',
        input: `db:${ref.id}`,
        ctx: { max_rows: ctx.config.fitMaxRows, rows: m.row_count },
        msg:
          `measurement ${ref.id} has ${m.row_count} rows; ` +
          `a fit or validation uses at most ${ctx.config.fitMaxRows}: give "time_range": [start_s, ` +
          `end_s] beside data to use a part of it`,
      });
    }
  }
  for (const ref of refs.pipelines) {
    const p = await repo.findPipeline(ctx.em, ref.id);
    if (!p) issues.push({ loc: ref.loc, msg: `no pipeline ${ref.id}`, type: 'value_error', input: ref.id });
    else if (p.organization_id !== ctx.caller.organizationId)
      throw forbidden(`pipeline ${ref.id} belongs to another organization`, { loc: ref.loc });
    // An entry copies the source's results: reading them needs what GET /pipelines/{id} needs.
    else if (!(await holdsInProject(ctx, p.project_id, 'pipeline:read'))) {
      throw forbidden(`pipeline ${ref.id} is in a project where you lack pipeline:read`, {
        loc: ref.loc,
        permission: 'pipeline:read',
      });
    }
  }
  if (issues.length) throw new ValidationFailed(issues);
  for (const ref of refs.measurements) {
    const m = found.get(ref.id)!;
    // A failed one never becomes usable: that is invalid input, not a wait.
    if (m.processing_status === 'failed') {
      issues.push({
        loc: ref.loc,
        msg:
          `measurement ${ref.id} failed processing (GET /cell_measurements/${ref.id}/validation says why); ` +
          `it has no series to use`,
        type: 'value_error',
        input: `db:${ref.id}`,
      });
      continue;
    }
    const missing = m.data_columns ? ref.needs.filter((name) => !m.data_columns!.includes(name)) : [];
    if (missing.length) {
      issues.push({
        loc: ref.loc,
        type: 'value_error',
        input: `db:${ref.id}`,
        ctx: { missing, available: m.data_columns },
        msg:
          `measurement ${ref.id} has no ${missing.map((c) => JSON.stringify(c)).join(', ')} column (it has ` +
          `${m.data_columns!.map((c) => JSON.stringify(c)).join(', ')})`,
      });
    }
  }
  if (issues.length) throw new ValidationFailed(issues);
  for (const ref of refs.measurements) {
    const m = found.get(ref.id)!;
    if (m.processing_status !== 'ready' || !m.time_series_key) {
      throw conflict(`measurement ${ref.id} is still processing (${m.processing_status}); use it once it is ready`, {
        measurement_id: ref.id,
        processing_status: m.processing_status,
        loc: ref.loc,
      });
    }
  }
  for (const ref of refs.pipelines) {
    const p = (await repo.findPipeline(ctx.em, ref.id))!;
    if (p.status !== 'completed')
      throw conflict(`pipeline ${ref.id} is ${p.status}, not completed`, {
        pipeline_id: ref.id,
        status: p.status,
        loc: ref.loc,
      });
  }
}
