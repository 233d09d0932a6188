// Requests a careless or hostile member can send, each with the answer the service must give.
// Shared by test/hostileInputs.test.ts (answers) and bench/hostile-inputs.ts (event-loop block
// and memory of each). Bodies are built once, before anything is measured.
// The inputs are in test/hostileInputs/, a module per kind of input; this list keeps their order.
import { bodyInputs } from './hostileInputs/bodies.ts';
import { doeSizeInputs } from './hostileInputs/doeSizes.ts';
import { parserTextInputs } from './hostileInputs/parserText.ts';
import type { HostileInput } from './hostileInputs/send.ts';
import { workerPayloadInputs } from './hostileInputs/workerPayloads.ts';

export type { HostileInput, HostileTarget } from './hostileInputs/send.ts';

/** Builds every input's body once (some are megabytes; a gzip bomb is compressed here). */
export async function hostileInputs(): Promise<HostileInput[]> {
  return [...doeSizeInputs(), ...(await bodyInputs()), ...parserTextInputs(), ...workerPayloadInputs()];
}
