/**
 * Interface 1: tool and autonomy payloads carry `notInvestmentAdvice: true` and
 * `liveOrderSent: false`. Which procedures that is, is decided once (`carriesInvariants` in
 * trpc/init.ts: backs an MCP tool, or belongs to a stamped family); their errors are stamped
 * by the service middleware, and their answers by their output schemas. This holds every such
 * procedure's output schema to declaring both fields with their only legal values.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { carriesInvariants } from '../../src/lib/server/trpc/init';
import type { SvcMeta } from '../../src/lib/server/trpc/meta';
import { procedureRecord } from '../../src/lib/server/trpc/route-table';
import { appRouter } from '../../src/lib/server/trpc/router';

type JsonSchema = { properties?: Record<string, { const?: unknown }>; required?: string[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[] };

/** Whether every shape the answer can take declares both invariants, required, with their only values. */
function declaresInvariants(schema: JsonSchema): boolean {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.every(declaresInvariants);
  return (
    schema.properties?.notInvestmentAdvice?.const === true &&
    schema.properties?.liveOrderSent?.const === false &&
    ['notInvestmentAdvice', 'liveOrderSent'].every((k) => schema.required?.includes(k))
  );
}

describe('the invariant stamp', () => {
  const procedures = Object.entries(procedureRecord(appRouter));
  const stamped = procedures.filter(([, p]) => carriesInvariants(p._def.meta as SvcMeta));

  it('covers every procedure that backs an MCP tool, whatever its family', () => {
    const tools = procedures.filter(([, p]) => (p._def.meta as SvcMeta).tool);
    expect(tools).toHaveLength(34);
    expect(tools.every(([, p]) => carriesInvariants(p._def.meta as SvcMeta))).toBe(true);
  });

  it('is declared by the output schema of every tool or autonomy procedure', () => {
    const undeclared = stamped
      .filter(([, p]) => {
        const output = (p._def as { output?: unknown }).output;
        if (!output) return true;
        const json = z.toJSONSchema(output as z.ZodType, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
        return !declaresInvariants(json);
      })
      .map(([path]) => path);
    expect(undeclared).toEqual([]);
  });
});
