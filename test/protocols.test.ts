// Protocol parsing (UCP YAML/JSON and PyBaMM experiment lines) and DOE expansion: pure
// logic, plus the protocol operations of the API. The cases live in test/protocols/, one
// module per concern.
import { describe } from 'vitest';
import { pybammLineCases, ucpCases } from './protocols/parsing.cases.ts';
import { workerLimitCases } from './protocols/workerLimits.cases.ts';
import { doeCases } from './protocols/doe.cases.ts';
import { protocolOperationCases } from './protocols/operations.cases.ts';

describe('PyBaMM experiment lines', () => pybammLineCases());

describe('UCP', () => ucpCases());

describe('protocol limits and values as the worker has them', () => workerLimitCases());

describe('design of experiments', () => doeCases());

describe('protocol operations', () => protocolOperationCases());
