// Sites, cyclers, channels, service events and incidents against the real API and database.
// One API for the whole suite; the cases live in test/inventory/, one module per concern.
import { describe } from 'vitest';
import { apiOnlyForSuite } from './suiteApi.ts';
import { siteCases } from './inventory/sites.cases.ts';
import { cyclerCases } from './inventory/cyclers.cases.ts';
import { equipmentRaceCases } from './inventory/equipmentRaces.cases.ts';
import { channelCases } from './inventory/channels.cases.ts';

const api = apiOnlyForSuite();

describe('sites', () => siteCases(api));

describe('cyclers', () => cyclerCases(api));

describe('equipment changes racing attaches', () => equipmentRaceCases(api));

describe('channels', () => channelCases(api));
