/** The vault schema's route list is derived from the procedures' own REST meta (trpc/vault-routes.ts). */
import { describe, expect, it } from 'vitest';
import type { SvcMeta } from '../../src/lib/server/trpc/meta';
import { procedureRecord } from '../../src/lib/server/trpc/route-table';
import { appRouter } from '../../src/lib/server/trpc/router';
import { isVaultRoutePath, VAULT_ROUTE_PURPOSES, vaultRoutes, vaultRoutesOf } from '../../src/lib/server/trpc/vault-routes';

const procedures = procedureRecord(appRouter);

describe('vault routes', () => {
  it('lists every vault route of the router, with the method and path its procedure declares', () => {
    const declared = Object.values(procedures).flatMap((p) => {
      const openapi = (p._def.meta as SvcMeta | undefined)?.openapi;
      return openapi && isVaultRoutePath(openapi.path) ? [`${openapi.method} /api${openapi.path}`] : [];
    });
    expect(
      vaultRoutes()
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(declared.sort());
    expect(vaultRoutes()).toEqual(vaultRoutesOf(procedures));
  });

  it('names a purpose only for a procedure that has a vault route, and lists those first, in the purposes order', () => {
    for (const procedurePath of Object.keys(VAULT_ROUTE_PURPOSES)) {
      const openapi = (procedures[procedurePath]?._def.meta as SvcMeta | undefined)?.openapi;
      expect(openapi && isVaultRoutePath(openapi.path), procedurePath).toBe(true);
    }
    expect(vaultRoutes().map((r) => r.purpose)).toEqual(Object.values(VAULT_ROUTE_PURPOSES));
  });

  it('adds a new vault procedure with its summary as the purpose', () => {
    const extra = {
      ...procedures,
      'vaults.added': { _def: { meta: { openapi: { method: 'GET', path: '/vaults/added', summary: 'A new route' } } } },
    };
    expect(vaultRoutesOf(extra as unknown as typeof procedures).at(-1)).toEqual({
      method: 'GET',
      path: '/api/vaults/added',
      purpose: 'A new route',
    });
  });
});
