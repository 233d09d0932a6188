// Every committed migration, in order. Migrations are never edited after they land.
import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261120000000Platform } from './Migration20261120000000Platform.ts';
import { Migration20261120000500AuthNotify } from './Migration20261120000500AuthNotify.ts';
import { Migration20261120010000Inventory } from './Migration20261120010000Inventory.ts';
import { Migration20261120020000MeasurementData } from './Migration20261120020000MeasurementData.ts';
import { Migration20261120030000Simulations } from './Migration20261120030000Simulations.ts';
import { Migration20261120040000Pipelines } from './Migration20261120040000Pipelines.ts';
import { Migration20261121000000SimulationSubmission } from './Migration20261121000000SimulationSubmission.ts';
import { Migration20261121010000WorkflowStarts } from './Migration20261121010000WorkflowStarts.ts';
import { Migration20261121020000MeasurementProtocolId } from './Migration20261121020000MeasurementProtocolId.ts';
import { Migration20261122000000SimulationJobKey } from './Migration20261122000000SimulationJobKey.ts';
import { Migration20261122010000ParameterizedModelCellSpec } from './Migration20261122010000ParameterizedModelCellSpec.ts';
import { Migration20261122020000SubmissionKeys } from './Migration20261122020000SubmissionKeys.ts';
import { Migration20261127060000SweepResultPacks } from './Migration20261127060000SweepResultPacks.ts';
import { Migration20261127061000SolveAttempts } from './Migration20261127061000SolveAttempts.ts';
import { Migration20261127100000ClientFields } from './Migration20261127100000ClientFields.ts';
import { Migration20261127110000MeasurementTags } from './Migration20261127110000MeasurementTags.ts';
import { Migration20261127120000CellBatches } from './Migration20261127120000CellBatches.ts';
import { Migration20261127180000PlannedMeasurements } from './Migration20261127180000PlannedMeasurements.ts';
import { Migration20261127181000LabVersions } from './Migration20261127181000LabVersions.ts';
import { Migration20261127182000PlanMeasurementLink } from './Migration20261127182000PlanMeasurementLink.ts';
import { Migration20261127193200IncidentServiceEvent } from './Migration20261127193200IncidentServiceEvent.ts';
import { Migration20261127200000RawData } from './Migration20261127200000RawData.ts';
import { Migration20261127200500PipelineComputeUsage } from './Migration20261127200500PipelineComputeUsage.ts';
import { Migration20261127201000Materials } from './Migration20261127201000Materials.ts';
import { Migration20261127201000MemberDeactivation } from './Migration20261127201000MemberDeactivation.ts';
import { Migration20261127202000Analyses } from './Migration20261127202000Analyses.ts';
import { Migration20261127210000OptimizationKind } from './Migration20261127210000OptimizationKind.ts';
import { Migration20261127220000DesignOptimizationElement } from './Migration20261127220000DesignOptimizationElement.ts';
import { Migration20261127213000SearchRawDataAnalyses } from './Migration20261127213000SearchRawDataAnalyses.ts';
import { Migration20261127220000ModelBuilders } from './Migration20261127220000ModelBuilders.ts';
import { Migration20261127224500PlanActiveIndex } from './Migration20261127224500PlanActiveIndex.ts';

export const migrations: MigrationObject[] = [
  { name: 'Migration20261120000000Platform', class: Migration20261120000000Platform },
  { name: 'Migration20261120000500AuthNotify', class: Migration20261120000500AuthNotify },
  { name: 'Migration20261120010000Inventory', class: Migration20261120010000Inventory },
  { name: 'Migration20261120020000MeasurementData', class: Migration20261120020000MeasurementData },
  { name: 'Migration20261120030000Simulations', class: Migration20261120030000Simulations },
  { name: 'Migration20261120040000Pipelines', class: Migration20261120040000Pipelines },
  { name: 'Migration20261121000000SimulationSubmission', class: Migration20261121000000SimulationSubmission },
  { name: 'Migration20261121010000WorkflowStarts', class: Migration20261121010000WorkflowStarts },
  { name: 'Migration20261121020000MeasurementProtocolId', class: Migration20261121020000MeasurementProtocolId },
  { name: 'Migration20261122000000SimulationJobKey', class: Migration20261122000000SimulationJobKey },
  { name: 'Migration20261122010000ParameterizedModelCellSpec', class: Migration20261122010000ParameterizedModelCellSpec },
  { name: 'Migration20261122020000SubmissionKeys', class: Migration20261122020000SubmissionKeys },
  { name: 'Migration20261127060000SweepResultPacks', class: Migration20261127060000SweepResultPacks },
  { name: 'Migration20261127061000SolveAttempts', class: Migration20261127061000SolveAttempts },
  { name: 'Migration20261127100000ClientFields', class: Migration20261127100000ClientFields },
  { name: 'Migration20261127110000MeasurementTags', class: Migration20261127110000MeasurementTags },
  { name: 'Migration20261127120000CellBatches', class: Migration20261127120000CellBatches },
  { name: 'Migration20261127180000PlannedMeasurements', class: Migration20261127180000PlannedMeasurements },
  { name: 'Migration20261127181000LabVersions', class: Migration20261127181000LabVersions },
  { name: 'Migration20261127182000PlanMeasurementLink', class: Migration20261127182000PlanMeasurementLink },
  { name: 'Migration20261127193200IncidentServiceEvent', class: Migration20261127193200IncidentServiceEvent },
  { name: 'Migration20261127200000RawData', class: Migration20261127200000RawData },
  { name: 'Migration20261127200500PipelineComputeUsage', class: Migration20261127200500PipelineComputeUsage },
  { name: 'Migration20261127201000Materials', class: Migration20261127201000Materials },
  { name: 'Migration20261127201000MemberDeactivation', class: Migration20261127201000MemberDeactivation },
  { name: 'Migration20261127202000Analyses', class: Migration20261127202000Analyses },
  { name: 'Migration20261127210000OptimizationKind', class: Migration20261127210000OptimizationKind },
  { name: 'Migration20261127213000SearchRawDataAnalyses', class: Migration20261127213000SearchRawDataAnalyses },
  {
    name: 'Migration20261127220000DesignOptimizationElement',
    class: Migration20261127220000DesignOptimizationElement,
  },
  { name: 'Migration20261127220000ModelBuilders', class: Migration20261127220000ModelBuilders },
  { name: 'Migration20261127224500PlanActiveIndex', class: Migration20261127224500PlanActiveIndex },
];
