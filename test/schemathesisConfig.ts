// The schemathesis configuration shared by npm test's short run (test/schemathesis.test.ts) and
// the long one (bench/schemathesis.ts): where a valid request may still be refused, and why.

/** Valid by the spec, refused by a rule on stored data or relating values in ways JSON Schema cannot state. */
const REFUSED: Record<string, string> = {
  createJobGone: 'always 410 GONE: jobs are started by the simulation, pipeline and measurement operations',
  search: 'a blank q is 400 by the wire conventions (the schema cannot refuse it without making it 422)',
  labStatus: 'view=summary with cycler_offset/cycler_limit is 400: OpenAPI cannot relate query parameters',
  listAnalyses: 'exactly one of measurement_id and project_id (422): OpenAPI cannot relate query parameters',
  createChannel: 'out_of_commission: true on create is 400 by the wire conventions',
  addProjectMember: 'project_role_id must name a project role (stored data)',
  inviteProjectMember: 'project_role_id must name a project role (stored data)',
  changeProjectMember: 'project_role_id must name a project role (stored data)',
  createCellParameterizedModel: 'model_id must be a model of the organization (stored data)',
  updateCellParameterizedModel: 'model_id and parameters are checked against the stored model',
  createSimulationBoard: 'simulation_ids must be simulations of the study (stored data)',
  updateSimulationBoard: 'simulation_ids must be simulations of the study (stored data)',
  createPlannedMeasurement: 'planned_end_time after planned_start_time; a requested plan needs its duration',
  proposeAutoSchedule: 'planned_measurement_ids must be plans of the project (stored data)',
  applyAutoSchedule: 'the proposal must match the stored plans (stored data)',
  createModel: 'the model is checked by the engine (parameters, options, settings given once)',
  serializeIonworksModel: 'the model is checked by the engine (its type, options and parameter set must build)',
  updateModel: 'pybamm_version must be the engine build this Cellar runs',
  uploadCustomModel: 'the file part must be model JSON the engine builds',
  createCellSpecification: 'parameters are checked against the model (unknown names refused)',
  updateCellSpecification: 'parameters are checked against the model (unknown names refused)',
  fitFromFile: 'the file must be Parquet or CSV with the columns the fit reads',
  fitFromMeasurements: 'parameters need [lo, hi] bounds around the initial value; measurements must exist',
  createMaterialPropertyDataset: 'the file must be a readable Parquet file',
  replaceMaterialPropertyDatasetFile: 'the file must be a readable Parquet file',
  createExperimentTemplate: 'the protocol must parse as UCP or PyBaMM experiment lines',
  validateProtocol: 'the protocol must parse as UCP or PyBaMM experiment lines',
  protocolInputReferences: 'the protocol must parse as UCP or PyBaMM experiment lines',
  parseProtocolToTemplate: 'the protocol must parse as UCP or PyBaMM experiment lines',
  submitProtocolBatch: 'the protocol must parse, and the model and DOE names must exist',
  submitTemplateBatch: 'the template, model and DOE names must exist',
  createPipeline:
    'bounds around initial values, data columns and db: measurements are checked by hand (relations, stored data)',
  createSimplePipeline:
    'bounds around initial values, data columns and db: measurements are checked by hand (relations, stored data)',
  addModelCustomVariable: "the expression must use the stored model's variables (stored data)",
  createOptimization:
    'the parameterized model and the fit or design are checked against the stored model (stored data)',
  createModelBuilder: 'model_id must be a model of the organization; the recipe is checked against it (stored data)',
  dryRunModelBuilder: 'model_id and cell_spec_id must be stored records; the recipe is checked against the model',
  previewModelBuilderMapping: 'cell_spec_id must be a cell specification of the organization (stored data)',
  checkModelBuilder: 'cell_spec_id must be a cell specification of the organization (stored data)',
  buildModelBuilder: 'cell_spec_id must be a stored cell specification; save needs everything the model lacks',
  listExperimentTemplates: 'include names stored columns; the spec writes its items as any string',
};

/**
 * What schemathesis reads per operation (TOML): the refusals it may answer, with why. `bare` is
 * every list operation with a filter still a bare string: BARE_FILTERS's keys.
 */
export function schemathesisConfig(spec: OpenApi, otherUser: string): { toml: string; bare: string[] } {
  const table = (operation: string, body: string, why: string) =>
    `# ${why}\n[[operations]]\ninclude-operation-id = "${operation}"\n${body}\n`;
  // Such a request may be refused, but only with a status the operation documents for it (400,
  // 410 or 422, as the spec lists them); any other refusal still fails the check.
  const statuses = (op: string) => JSON.stringify(acceptedOrRefused(spec, op));
  const parts = Object.entries(REFUSED).map(([op, why]) =>
    table(op, `checks.positive_data_acceptance.expected-statuses = ${statuses(op)}`, why),
  );
  // Every other list filter is stated as a pattern (the Filter* schemas, test/listFilters.test.ts);
  // the bare-string ones may be refused with the 422 their descriptions explain.
  const bare = filterOperations(spec);
  for (const op of bare)
    parts.push(
      BARE_FILTERS[op]
        ? table(op, `checks.positive_data_acceptance.expected-statuses = ${statuses(op)}`, BARE_FILTERS[op])
        : table(op, 'checks.positive_data_acceptance.enabled = false', 'a filter not yet a pattern'),
    );
  // Membership changes act on another member: on the run's own user they would deactivate or
  // remove it, and every later request would be 403.
  for (const op of MEMBER_OPERATIONS)
    parts.push(table(op, `parameters = { "path.user_id" = "${otherUser}" }`, "never the run's own user"));
  return { toml: parts.join('\n'), bare };
}

/** schemathesis's own accepted statuses, and the refusals among 400, 410 and 422 the operation documents. */
function acceptedOrRefused(spec: OpenApi, operationId: string): string[] {
  const op = Object.values(spec.paths)
    .flatMap((item) => Object.values(item))
    .find((o) => o?.operationId === operationId);
  if (!op) throw new Error(`REFUSED names ${operationId}, which the spec does not have`);
  const refusals = Object.keys(op.responses ?? {}).filter((s) => ['400', '410', '422'].includes(s));
  if (!refusals.length) throw new Error(`${operationId} documents none of 400, 410 and 422`);
  return ['2xx', '3xx', '401', '403', '404', '409', '429', '5xx', ...refusals];
}

const MEMBER_OPERATIONS = [
  'setOrganizationMemberRole',
  'resendOrganizationInvite',
  'setOrganizationMemberActive',
  'removeOrganizationMember',
];

type Parameter = { name?: string; in: string; allowReserved?: boolean; schema?: { type?: string; pattern?: string } };
export type OpenApi = {
  paths: Record<
    string,
    Record<string, { operationId?: string; parameters?: Parameter[]; responses?: Record<string, unknown> }>
  >;
};

/** Lists whose filters stay bare strings, with why (the only ones filterOperations may find). */
export const BARE_FILTERS: Record<string, string> = {
  listMaterials:
    'name, manufacturer, product_id and category take a bare value (the client sends one for an exact match), ' +
    'so the spec says any string; a bare value that starts like an operator (gt.x, in.x) is read as one, ' +
    'and one the filter does not take is 422 (as the parameters describe)',
};

/** Free text, not filters: any string is taken. */
const FREE_TEXT = new Set(['q', 'parameter']);

/** Operations with a filter not stated as a pattern: a bare string query parameter taking reserved characters. */
function filterOperations(spec: OpenApi): string[] {
  const ops: string[] = [];
  for (const item of Object.values(spec.paths))
    for (const op of Object.values(item))
      if (
        op?.operationId &&
        (op.parameters ?? []).some(
          (p) =>
            p.in === 'query' &&
            p.allowReserved &&
            p.schema?.type === 'string' &&
            !p.schema.pattern &&
            !FREE_TEXT.has(p.name!),
        )
      )
        ops.push(op.operationId);
  return ops;
}
