// The elements of a pipeline, checked before anything starts: each kind by its own rules,
// in the engine's form or the Python client's ionworks-schema form (clientElements.ts).
import { type ValidationIssue } from '../../errors.ts';
import { isPlainObject, UUID } from '../../values.ts';
import { checkCalculation } from '../../../workflows/calculations.ts';
import { fromClientForm, isClientForm, toClientLoc, type Translated } from '../clientElements.ts';
import { ELEMENT_TYPES, WORKER_ELEMENT_TYPES } from '../../../workflows/pipelineIds.ts';
import {
  type Json,
  MAX_PARAMETER_VALUES,
  type Refs,
  checkData,
  checkNumberMap,
  checkTimeRange,
  isNum,
  neededColumns,
} from './dataChecks.ts';
import { type PipelineKind } from './presentation.ts';
import { workerArgIssue } from '../workLimits.ts';
import { checkFitOptions, checkFitParameters, checkModel, checkTarget, enumIssue } from './fitChecks.ts';

const ARRAY_FIT_MODES = ['joint', 'per_dataset'];

/** The element goes to the worker as one activity argument: it must fit (named at its largest field). */
function checkElementSize(el: Json, loc: (string | number)[], issues: ValidationIssue[]) {
  const issue = workerArgIssue(el, loc, 'the element');
  if (!issue) return;
  const sizes = Object.entries(el).map(([k, v]) => [k, JSON.stringify(v)?.length ?? 0] as const);
  const largest = sizes.reduce((a, b) => (b[1] > a[1] ? b : a));
  issues.push({ ...issue, loc: [...loc, largest[0]], msg: `${issue.msg} (${largest[0]} is the largest part)` });
}

/**
 * Checks every element; collects the measurements and pipelines they refer to. Elements in the
 * Python client's ionworks-schema form are turned into the engine's first (`elements` answers
 * what is stored), and their issues name the client's fields.
 */
export function checkElements(
  input: Json,
  kind: PipelineKind,
): { issues: ValidationIssue[]; refs: Refs; elements: Json } {
  const issues: ValidationIssue[] = [];
  const refs: Refs = { measurements: [], pipelines: [] };
  const elements: Json = {};
  let workerElements = 0;
  const passedOn = new Set<string>();
  const names = Object.keys(input);
  for (const [name, given] of Object.entries(input)) {
    const loc = ['body', 'elements', name];
    const from = issues.length;
    const fromRefs = refs.measurements.length;
    let el = given;
    let translated: Translated | null = null;
    if (isClientForm(given)) {
      translated = fromClientForm(given, loc, issues);
      if (!translated) continue;
      el = { ...translated.element, ...(translated.objective ? { objective: translated.objective } : {}) };
    }
    elements[name] = el;
    checkElement(name, el, loc);
    if (translated) {
      const { locs } = translated;
      issues.splice(from, issues.length - from, ...issues.slice(from).map((i) => toClientLoc(i, loc, locs)));
      for (const ref of refs.measurements.slice(fromRefs))
        ref.loc = toClientLoc({ loc: ref.loc, msg: '', type: '' }, loc, locs).loc;
    }
  }
  if (kind === 'simple' && workerElements > 1) {
    issues.push({
      loc: ['body', 'elements'],
      msg: 'a simple pipeline has at most one data_fit, array_data_fit or validation element',
      type: 'value_error',
    });
  }
  return { issues, refs, elements };

  function checkElement(name: string, el: unknown, loc: (string | number)[]) {
    // JSON object order puts names that are whole numbers first: the running order would not be the one written.
    if (names.length > 1 && /^(0|[1-9]\d{0,8})$/.test(name)) {
      issues.push({
        loc,
        msg:
          'a name that is a whole number runs before the other elements whatever its place; ' +
          'use a name such as "step-1"',
        type: 'value_error',
        input: name,
      });
      return;
    }
    if (!isPlainObject(el)) {
      issues.push({ loc, msg: 'must be an object with element_type', type: 'dict_type' });
      return;
    }
    const type = el.element_type as string;
    if (!(ELEMENT_TYPES as readonly string[]).includes(type)) {
      issues.push({
        loc: [...loc, 'element_type'],
        msg: `unknown element type; known: ${ELEMENT_TYPES.join(', ')}`,
        type: 'enum',
        input: type,
        ctx: { expected: ELEMENT_TYPES },
      });
      return;
    }
    if (WORKER_ELEMENT_TYPES.includes(type)) {
      workerElements++;
      checkElementSize(el, loc, issues);
    }
    switch (type) {
      case 'entry':
        if ((el.values === undefined) === (el.pipeline_id === undefined)) {
          issues.push({
            loc,
            msg: 'an entry gives either "values" or "pipeline_id" (of a completed pipeline)',
            type: 'value_error',
          });
        } else if (el.values !== undefined) {
          const before = issues.length;
          checkNumberMap(el.values, [...loc, 'values'], issues, true);
          // The values of all entries are passed on together (counted once this entry's are valid).
          if (issues.length === before) for (const k of Object.keys(el.values as Json)) passedOn.add(k);
          if (issues.length === before && passedOn.size > MAX_PARAMETER_VALUES) {
            issues.push({
              loc: [...loc, 'values'],
              msg: `the entries give ${passedOn.size} parameter values in all; at most ${MAX_PARAMETER_VALUES}`,
              type: 'too_long',
              ctx: { max_length: MAX_PARAMETER_VALUES },
            });
          }
        } else if (typeof el.pipeline_id !== 'string' || !UUID.test(el.pipeline_id)) {
          issues.push({
            loc: [...loc, 'pipeline_id'],
            msg: 'must be a pipeline id (UUID)',
            type: 'uuid_parsing',
            input: el.pipeline_id,
          });
        } else refs.pipelines.push({ id: el.pipeline_id.toLowerCase(), loc: [...loc, 'pipeline_id'] });
        break;
      case 'calculation':
        for (const i of checkCalculation(el)) issues.push({ loc: [...loc, ...i.loc], msg: i.msg, type: 'value_error' });
        break;
      case 'data_fit':
        checkModel(el.model, [...loc, 'model'], issues);
        checkFitParameters(el.parameters, [...loc, 'parameters'], issues);
        checkNumberMap(el.fixed_parameters, [...loc, 'fixed_parameters'], issues, false);
        checkData(
          el.data,
          [...loc, 'data'],
          issues,
          refs,
          checkTimeRange(el.time_range, [...loc, 'time_range'], issues),
          neededColumns(el.target, el.protocol),
        );
        checkFitOptions(el, loc, issues);
        break;
      case 'array_data_fit':
        checkModel(el.model, [...loc, 'model'], issues);
        checkFitParameters(el.parameters, [...loc, 'parameters'], issues);
        checkNumberMap(el.fixed_parameters, [...loc, 'fixed_parameters'], issues, false);
        if (typeof el.independent_variable !== 'string' || !el.independent_variable) {
          issues.push({
            loc: [...loc, 'independent_variable'],
            msg: 'is required: the parameter the data sets differ in, e.g. "Ambient temperature [K]"',
            type: 'missing',
          });
        }
        if (!Array.isArray(el.datasets) || el.datasets.length === 0 || el.datasets.length > 50) {
          issues.push({
            loc: [...loc, 'datasets'],
            msg: 'must be a list of 1 to 50 {"value", "data"} items',
            type: 'value_error',
          });
        } else {
          el.datasets.forEach((d: unknown, i: number) => {
            if (!isPlainObject(d) || !isNum(d.value))
              issues.push({
                loc: [...loc, 'datasets', i, 'value'],
                msg: 'must be a number (the independent variable)',
                type: 'float_type',
              });
            else
              checkData(
                d.data,
                [...loc, 'datasets', i, 'data'],
                issues,
                refs,
                checkTimeRange(d.time_range, [...loc, 'datasets', i, 'time_range'], issues),
                neededColumns(el.target, d.protocol),
              );
          });
        }
        if (el.mode !== undefined && !ARRAY_FIT_MODES.includes(el.mode as string)) {
          issues.push(enumIssue([...loc, 'mode'], el.mode, ARRAY_FIT_MODES));
        }
        checkFitOptions(el, loc, issues, Array.isArray(el.datasets) ? el.datasets.length : 1);
        break;
      case 'validation':
        checkModel(el.model, [...loc, 'model'], issues);
        checkData(
          el.data,
          [...loc, 'data'],
          issues,
          refs,
          checkTimeRange(el.time_range, [...loc, 'time_range'], issues),
          neededColumns(el.target, el.protocol),
        );
        checkNumberMap(el.parameter_values, [...loc, 'parameter_values'], issues, false);
        checkTarget(el, loc, issues);
        break;
    }
  }
}
