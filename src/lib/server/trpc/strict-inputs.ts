/**
 * trpc-to-openapi turns on zod coercion for every number, boolean, bigint and date field of
 * an input object, body inputs included, by setting `def.coerce = true` on the shared
 * schema objects. For a POST body that would turn the string "false" into `true` for an
 * acknowledgment and "12abc" into NaN: validation must reject, never reinterpret. This pins
 * `coerce` off on every input schema once, before the adapter sees the router, so REST and
 * the typed client validate identically. Query-string inputs therefore parse their numbers
 * explicitly (see `queryInt`).
 */
import type { AnyProcedure } from '@trpc/server';
import { z } from 'zod';

type Def = Record<string, unknown> & { type?: string };

const COERCIBLE = new Set(['number', 'boolean', 'bigint', 'date']);

function pin(def: Def): void {
  Object.defineProperty(def, 'coerce', {
    configurable: true,
    enumerable: false,
    get: () => false,
    set: () => undefined,
  });
}

function walk(schema: unknown, seen: Set<unknown>): void {
  const def = (schema as { _zod?: { def?: Def } })?._zod?.def;
  if (!def || seen.has(def)) return;
  seen.add(def);
  if (def.type && COERCIBLE.has(def.type)) pin(def);
  const children: unknown[] = [];
  if (def.type === 'object') children.push(...Object.values((def.shape as Record<string, unknown>) ?? {}), def.catchall);
  if (def.type === 'lazy' && typeof def.getter === 'function') children.push((def.getter as () => unknown)());
  for (const key of ['innerType', 'element', 'in', 'out', 'left', 'right', 'keyType', 'valueType', 'rest']) {
    children.push(def[key]);
  }
  for (const key of ['options', 'items']) {
    if (Array.isArray(def[key])) children.push(...(def[key] as unknown[]));
  }
  for (const child of children) if (child) walk(child, seen);
}

export function pinInputCoercion(procedures: Record<string, AnyProcedure>): void {
  const seen = new Set<unknown>();
  for (const procedure of Object.values(procedures)) {
    for (const input of (procedure._def as { inputs?: unknown[] }).inputs ?? []) walk(input, seen);
  }
}

/** A query-string integer: digits only, parsed explicitly (no coercion of other shapes). */
export function queryInt(opts: { min?: number; max?: number } = {}) {
  return z
    .union([z.number().int(), z.string().regex(/^-?\d+$/, 'expected an integer').transform(Number)])
    .pipe(z.number().int().min(opts.min ?? Number.MIN_SAFE_INTEGER).max(opts.max ?? Number.MAX_SAFE_INTEGER));
}
