// Authentication, tenant isolation and the HTTP conventions of docs/spec/wire-conventions.md.
// One API for the whole suite; the cases live in test/platform/, one module per concern.
import { describe } from 'vitest';
import { apiOnlyForSuite } from './suiteApi.ts';
import { apiKeyCacheCases, authenticationCases, tenantIsolationCases } from './platform/access.cases.ts';
import { httpConventionCases } from './platform/httpConventions.cases.ts';

const api = apiOnlyForSuite();

describe('authentication', () => authenticationCases(api));

describe('tenant isolation on projects', () => tenantIsolationCases(api));

describe('HTTP conventions', () => httpConventionCases(api));

describe('the API key cache', () => apiKeyCacheCases(api));
