/** The free vault analyses and the paid x402 services come from one catalogue entry each. */
import { procedureRecord } from '../../src/lib/server/trpc/route-table';
import { describe, expect, it } from 'vitest';
import type { SvcMeta } from '../../src/lib/server/trpc/meta';
import { operationDescription } from '../../src/lib/server/trpc/operation-docs';
import { appRouter } from '../../src/lib/server/trpc/router';
import { PAID_VAULT_SERVICES, VAULT_COMPARISON, VAULT_FEE_CALCULATION, VAULT_RISK_SCORE } from '../../src/lib/server/x402/catalogue';

const procedures = procedureRecord(appRouter);

describe('vault analysis catalogue', () => {
  it('binds each free route to its paid service: the route, tool, summary and input error code, with its description in operation-docs the catalogue names', () => {
    const analyses = [VAULT_FEE_CALCULATION, VAULT_RISK_SCORE, VAULT_COMPARISON];
    for (const analysis of analyses) {
      expect(PAID_VAULT_SERVICES.map((s) => s.name)).toContain(analysis.name);
      expect(analysis.freeRoute).toBe(`POST /api${analysis.free.path}`);
      const bound = Object.entries(procedures).filter(
        ([, p]) => (p._def.meta as SvcMeta | undefined)?.openapi?.path === analysis.free.path,
      );
      expect(
        bound.map(([path]) => path),
        analysis.name,
      ).toHaveLength(1);
      const meta = bound[0]![1]._def.meta as SvcMeta;
      expect(meta).toMatchObject({
        family: 'vaults',
        tool: analysis.free.tool,
        inputErrorCode: analysis.inputErrorCode,
        openapi: { method: 'POST', summary: analysis.free.summary },
      });
      expect(operationDescription(bound[0]![0]), analysis.name).toBeTruthy();
    }
  });

  it('names a free route only where one answers', () => {
    const routes = new Set(
      Object.values(procedures).flatMap((p) => {
        const openapi = (p._def.meta as SvcMeta | undefined)?.openapi;
        return openapi ? [`${openapi.method} /api${openapi.path}`] : [];
      }),
    );
    for (const s of PAID_VAULT_SERVICES) if (s.freeRoute !== null) expect(routes, s.name).toContain(s.freeRoute);
  });
});
