// What an element runs: its stored configuration and the values before it turned into the
// request a Python activity (or a TypeScript calculation) takes.
import { ApplicationFailure } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pipelineSeriesPrefix } from '../storage/projectKeys.ts';
import { type ParameterValues } from '../workflows/pipelineIds.ts';
import type { WorkStatus } from '../workflows/statuses.ts';
import { type FitData, type FitArrayRequest, type ElementRun } from './pipelineRequests.ts';

/**
 * Resolves "db:<measurement_id>" to the measurement's canonical time series; inline columns stay; a time_range goes
 * along.
 */
async function resolveData(
  em: EntityManager,
  organizationId: string,
  data: unknown,
  timeRange?: [number, number],
): Promise<FitData> {
  const window = timeRange ? { time_range: timeRange } : {};
  if (typeof data !== 'string') return { source: 'inline', columns: data as Record<string, unknown[]>, ...window };
  const id = data.slice('db:'.length);
  const [m] = await em.execute<
    { organization_id: string; processing_status: string; time_series_key: string | null }[]
  >(`select organization_id, processing_status, time_series_key from cell_measurements where id = ?`, [id]);
  if (!m || m.organization_id !== organizationId) {
    throw ApplicationFailure.nonRetryable(`measurement ${id} no longer exists`, 'CONFIGURATION_ERROR');
  }
  if (m.processing_status !== 'ready' || !m.time_series_key) {
    throw ApplicationFailure.nonRetryable(
      `measurement ${id} has no ready time series (${m.processing_status})`,
      'CONFIGURATION_ERROR',
    );
  }
  return { source: 'storage', key: m.time_series_key, ...window };
}

export interface ElementRow {
  id: string;
  pipeline_id: string;
  name: string;
  element_type: string;
  config: Record<string, any>;
  status: WorkStatus;
  job_id: string;
  organization_id: string;
  project_id: string;
}

export async function buildRun(em: EntityManager, el: ElementRow, values: ParameterValues): Promise<ElementRun> {
  const cfg = el.config;
  const fitted = (c: Record<string, any>) => Object.keys(c.parameters ?? {});
  // Earlier elements' values are the defaults; the element's own fixed values win; fitted ones are not fixed.
  const fixed = (c: Record<string, any>) => {
    const out: ParameterValues = { ...values, ...(c.fixed_parameters ?? {}) };
    for (const name of fitted(c)) delete out[name];
    return out;
  };
  const info = { element_name: el.name, pipeline_id: el.pipeline_id, job_id: el.job_id };
  // Where a fit or validation stores its model-vs-data series (GET /jobs/{id}/series).
  const series = { series_prefix: pipelineSeriesPrefix(el.organization_id, el.project_id, el.pipeline_id, el.job_id) };
  const optional = (c: Record<string, any>) => ({
    ...(c.protocol !== undefined ? { protocol: c.protocol } : {}),
    ...(c.target !== undefined ? { target: c.target } : {}),
    ...(c.optimizer !== undefined ? { optimizer: c.optimizer } : {}),
  });
  switch (el.element_type) {
    case 'entry': {
      if (cfg.values) return { type: 'entry', parameter_values: cfg.values };
      const [src] = await em.execute<
        { organization_id: string; status: string; result: { parameter_values?: ParameterValues } | null }[]
      >(`select organization_id, status, result from pipelines where id = ?`, [cfg.pipeline_id]);
      if (!src || src.organization_id !== el.organization_id || src.status !== 'completed') {
        throw ApplicationFailure.nonRetryable(
          `pipeline ${cfg.pipeline_id} is not a completed pipeline of this organization`,
          'CONFIGURATION_ERROR',
        );
      }
      return {
        type: 'entry',
        parameter_values: src.result?.parameter_values ?? {},
        source_pipeline_id: cfg.pipeline_id,
      };
    }
    case 'calculation':
      return { type: 'calculation', config: cfg };
    case 'data_fit':
      return {
        type: 'data_fit',
        request: {
          ...info,
          ...series,
          model: cfg.model,
          parameters: cfg.parameters,
          fixed_parameters: fixed(cfg),
          data: await resolveData(em, el.organization_id, cfg.data, cfg.time_range),
          cost: cfg.cost ?? 'RMSE',
          ...optional(cfg),
        },
      };
    case 'array_data_fit': {
      const datasets: FitArrayRequest['datasets'] = [];
      for (const d of cfg.datasets as {
        value: number;
        data: unknown;
        time_range?: [number, number];
        protocol?: unknown;
        weight?: number;
      }[]) {
        datasets.push({
          value: d.value,
          data: await resolveData(em, el.organization_id, d.data, d.time_range),
          ...(d.protocol !== undefined ? { protocol: d.protocol } : {}),
          ...(d.weight !== undefined ? { weight: d.weight } : {}),
        });
      }
      return {
        type: 'array_data_fit',
        request: {
          ...info,
          model: cfg.model,
          parameters: cfg.parameters,
          fixed_parameters: fixed(cfg),
          independent_variable: cfg.independent_variable,
          datasets,
          cost: cfg.cost ?? 'RMSE',
          ...optional(cfg),
          ...(cfg.mode !== undefined ? { mode: cfg.mode } : {}),
        },
      };
    }
    case 'validation':
      return {
        type: 'validation',
        request: {
          ...info,
          ...series,
          model: cfg.model,
          parameter_values: { ...values, ...(cfg.parameter_values ?? {}) },
          data: await resolveData(em, el.organization_id, cfg.data, cfg.time_range),
          ...(cfg.protocol !== undefined ? { protocol: cfg.protocol } : {}),
          ...(cfg.target !== undefined ? { target: cfg.target } : {}),
        },
      };
    case 'design_optimization':
      return {
        type: 'design_optimization',
        request: {
          ...info,
          model: cfg.model,
          protocol: cfg.protocol,
          parameters: cfg.parameters,
          objective: cfg.objective,
          ...(cfg.constraints !== undefined ? { constraints: cfg.constraints } : {}),
          ...(cfg.optimizer !== undefined ? { optimizer: cfg.optimizer } : {}),
        },
      };
    default:
      throw ApplicationFailure.nonRetryable(`unknown element type ${el.element_type}`, 'CONFIGURATION_ERROR');
  }
}
