// Every accepted protocol form → the canonical UCP JSON: UCP as an object, as JSON or YAML
// text, or PyBaMM experiment lines (a string, one step per line, or a list of strings).
import YAML from 'yaml';
import { canonicalUcp, inputReferences } from './ucp.ts';
import { DEFAULT_MAX_BACKWARD_JUMPS } from './ucpExpansion.ts';
import { ProtocolError, type Ucp } from './ucpValues.ts';
import { looksLikeExperiment, parseExperimentLines } from './pybammExperiment.ts';

export { ProtocolError, inputReferences, type Ucp };
export { countExpansion, DEFAULT_MAX_BACKWARD_JUMPS, JumpLimitError } from './ucpExpansion.ts';
export { UCP_SCHEMA } from '../../../tables/index.ts';

export interface ParsedProtocol {
  ucp: Ucp;
  format: 'ucp' | 'pybamm';
  /** The protocol as the user wrote it (text forms) or its JSON. */
  source: string;
}

/**
 * `maxBackwardJumps` caps the protocol's loops as the worker will (its default when the
 * request names none, which is all /protocols/validate and templates know of).
 */
export function parseProtocol(input: unknown, maxBackwardJumps: number = DEFAULT_MAX_BACKWARD_JUMPS): ParsedProtocol {
  if (Array.isArray(input) && input.every((l) => typeof l === 'string')) {
    return {
      ucp: canonicalUcp(parseExperimentLines(input), maxBackwardJumps),
      format: 'pybamm',
      source: input.join('\n'),
    };
  }
  if (input !== null && typeof input === 'object') {
    return { ucp: canonicalUcp(input, maxBackwardJumps), format: 'ucp', source: JSON.stringify(input) };
  }
  if (typeof input !== 'string' || !input.trim()) {
    throw new ProtocolError([], 'protocol: must be UCP (YAML or JSON) or PyBaMM experiment lines, got an empty value');
  }
  if (looksLikeExperiment(input)) {
    return {
      ucp: canonicalUcp(parseExperimentLines(input.split(/\r?\n/)), maxBackwardJumps),
      format: 'pybamm',
      source: input,
    };
  }
  let doc: unknown;
  try {
    doc = YAML.parse(input);
  } catch (err) {
    throw new ProtocolError(
      [],
      `protocol: neither PyBaMM experiment lines nor valid UCP YAML/JSON (${(err as Error).message.split('\n')[0]})`,
    );
  }
  if (Array.isArray(doc) && doc.every((l) => typeof l === 'string')) {
    return { ucp: canonicalUcp(parseExperimentLines(doc), maxBackwardJumps), format: 'pybamm', source: input };
  }
  if (typeof doc === 'string') {
    return {
      ucp: canonicalUcp(parseExperimentLines(doc.split(/\r?\n/)), maxBackwardJumps),
      format: 'pybamm',
      source: input,
    };
  }
  return { ucp: canonicalUcp(doc, maxBackwardJumps), format: 'ucp', source: input };
}
