/**
 * Stock-lane test data: a valid intent builder and the plan hash computed the way the README
 * documents it (independently of the service's code).
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { findAssetByTicker } from '../../src/lib/server/registry';
import { exampleStockIntent } from '../../src/lib/server/trpc/openapi-examples';

export const NVDA = findAssetByTicker('NVDA')!.address;
export const AAPL = findAssetByTicker('AAPL')!.address;

export function intent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  // The document's example intent (NVDA for 25 USDG), the same one the API viewer sends.
  const base = exampleStockIntent();
  const merged = { ...base, ...overrides };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  return merged;
}

/** sha256 hex of the RFC 8785 canonical JSON of { generatedAt, intent } (intent already normalised). */
export function planHashOf(intentValue: Record<string, unknown>, generatedAt: string): string {
  const iso = new Date(generatedAt).toISOString();
  return createHash('sha256')
    .update(canonicalize({ generatedAt: iso, intent: intentValue })!, 'utf8')
    .digest('hex');
}

let counter = 0;
/** A distinct pinned clock per plan, so every test works on its own receipt. */
export function freshNowIso(): string {
  counter++;
  return new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + counter * 1000 + Math.floor(Math.random() * 1e6) * 60_000).toISOString();
}
