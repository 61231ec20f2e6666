/**
 * The local strategist as the unit tests call it: provider `mock`, a fixed clock, and the
 * reader's language model loaded before a file's tests (the first thesis would otherwise pay
 * it inside one test's time).
 */
import { beforeAll } from 'vitest';
import { loadThesisNlp, runStrategist, type StrategistConfig, type StrategistRequest } from '../../src/lib/server/strategist';

export const NOW = new Date('2026-01-01T00:00:00Z');
export const MOCK: StrategistConfig = { strategistProvider: 'mock', partner: { timeoutMs: 1000 } };
export const run = (request: StrategistRequest) => runStrategist(request, { config: MOCK, now: NOW });

export function loadReaderFirst(): void {
  beforeAll(() => loadThesisNlp(), 60_000);
}
