// Custom search attributes, so operators can filter the Temporal Web UI by project, batch,
// pipeline, status and element type. Registered on the dev server at start and by the worker
// on external servers (idempotently).
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { SearchStatus } from './statuses.ts';

export const CellarOrganization = defineSearchAttributeKey('CellarOrganization', SearchAttributeType.KEYWORD);
export const CellarProject = defineSearchAttributeKey('CellarProject', SearchAttributeType.KEYWORD);
export const CellarBatch = defineSearchAttributeKey('CellarBatch', SearchAttributeType.KEYWORD);
export const CellarPipeline = defineSearchAttributeKey('CellarPipeline', SearchAttributeType.KEYWORD);
export const CellarStatus = defineSearchAttributeKey('CellarStatus', SearchAttributeType.KEYWORD);
export const CellarElementType = defineSearchAttributeKey('CellarElementType', SearchAttributeType.KEYWORD);

/** The CellarStatus label, its value from the one list of statuses (statuses.ts). */
export const statusAttribute = (status: SearchStatus) => ({ key: CellarStatus, value: status as string });

export const SEARCH_ATTRIBUTE_NAMES = [
  'CellarOrganization',
  'CellarProject',
  'CellarBatch',
  'CellarPipeline',
  'CellarStatus',
  'CellarElementType',
] as const;
