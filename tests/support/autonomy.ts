/** Autonomy-path test data: a Coil with every mandatory autonomy fuse, and a complete acknowledgment. */
import type { CoilInput } from '../../src/lib/server/coil/manifest';
import { LIVE_AUTONOMY_ACK_FIELDS } from '../../src/lib/server/autonomy/modes';
import { EXAMPLE_AUTONOMY_FUSES } from '../../src/lib/server/trpc/openapi-examples';
import { ADDR, rawCoil } from './coils';

/** Every mandatory autonomy fuse declared (with the Coil's implied ones): the document's example set. */
export const AUTONOMY_FUSES: NonNullable<CoilInput['fuses']> = EXAMPLE_AUTONOMY_FUSES;

/** A brokerage-mcp-plan Coil that may go as far as live_candidate, with every mandatory fuse. */
export function autonomyCoil(overrides: Partial<CoilInput> = {}): CoilInput {
  return rawCoil({ mode: 'brokerage-mcp-plan', executionMode: 'agentic_mcp_enabled', fuses: AUTONOMY_FUSES, ...overrides });
}

/** A complete live-autonomy acknowledgment given at `at` (default: now, on the test's clock). */
export function fullAck(at: Date | string = new Date()): Record<string, unknown> {
  const ack: Record<string, unknown> = { acknowledgedAt: typeof at === 'string' ? at : at.toISOString() };
  for (const { field } of LIVE_AUTONOMY_ACK_FIELDS) ack[field] = true;
  return ack;
}

export { ADDR };
