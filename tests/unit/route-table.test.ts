/**
 * Pins what the REST dispatch relies on (trpc/route-table.ts `procedureRecord`, http/dispatch.ts):
 * tRPC's `router._def.procedures` lists every procedure by its dotted path with its meta, the
 * table built from it has exactly the operations of the OpenAPI document, and the server-side
 * caller reaches a procedure by that path. If a tRPC upgrade changes any of it, this fails.
 */
import { describe, expect, it } from 'vitest';
import { routeIndex } from '../../src/lib/server/http/dispatch';
import { openApiDocument } from '../../src/lib/server/trpc/openapi';
import { EXTRA_OPENAPI_PATHS } from '../../src/lib/server/trpc/extra-openapi';
import { createCallerFactory } from '../../src/lib/server/trpc/init';
import { procedureRecord, REST_PREFIX } from '../../src/lib/server/trpc/route-table';
import { appRouter } from '../../src/lib/server/trpc/router';
import { answerTimeOfServer, readServerClock } from '../../src/lib/server/clock';

describe('the route table', () => {
  it("the procedure record is keyed by dotted path and carries each procedure's meta", () => {
    const record = procedureRecord(appRouter);
    expect(Object.keys(record)).toContain('tools.validateCoil');
    expect(Object.keys(record)).toContain('system.health');
    expect(record['tools.validateCoil']!._def.meta).toMatchObject({
      family: 'tools',
      openapi: { method: 'POST', path: '/tools/validate-coil' },
    });
  });

  it('has exactly the operations of the OpenAPI document', () => {
    const doc = openApiDocument('http://localhost');
    const documented = Object.entries(doc.paths ?? {})
      .filter(([path]) => !(path in EXTRA_OPENAPI_PATHS))
      .flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method.toUpperCase()} ${REST_PREFIX}${path}`));
    const table = routeIndex.all().map((r) => `${r.method} ${r.template}`);
    expect(table.sort()).toEqual(documented.sort());
  });

  it('resolves a path to its route and raw path parameters; a static segment wins over a parameter', () => {
    expect(routeIndex.resolveRest('GET', '/api/vaults/schema')?.route.procedurePath).toBe('vaults.schema');
    const slug = routeIndex.resolveRest('GET', '/api/vaults/some%20vault/');
    expect(slug?.route.template).toBe('/api/vaults/{slug}');
    expect(slug?.pathParams).toEqual({ slug: 'some%20vault' });
    expect(routeIndex.resolveRest('POST', '/api/vaults/schema')).toBeUndefined();
    expect(routeIndex.hasPath('/api/vaults/schema')).toBe(true);
  });

  it('resolves every path as a scan of the whole table in order would (the indexes only skip routes that cannot match)', () => {
    const naive = (method: string, pathname: string) => {
      for (const route of routeIndex.all()) {
        if (route.method !== method) continue;
        const match = route.pattern.exec(pathname);
        if (match) return { route, pathParams: { ...match.groups } };
      }
      return undefined;
    };
    const paths = routeIndex.all().flatMap((r) => {
      const filled = r.template.replace(/\{[^}]+\}/g, 'x1');
      return [
        filled,
        `${filled}/`,
        `${filled}//`,
        `${filled}/extra`,
        r.template.replace(/\{[^}]+\}/g, 'schema'),
        filled.replace(/\/[^/]+$/, ''),
      ];
    });
    for (const path of [...paths, '/api', '/api/', '/api/nope', '/api/vaults/%ZZ', '/api//health']) {
      for (const method of ['GET', 'POST']) {
        expect(routeIndex.resolveRest(method, path), `${method} ${path}`).toEqual(naive(method, path));
      }
    }
  });

  it('the server-side caller reaches a procedure by the dotted path the table holds', async () => {
    const route = routeIndex.resolveRest('GET', '/api/health')!.route;
    const ctx = {
      url: new URL('http://localhost/api/health'),
      requestId: 'route-table-test',
      clientAddress: '127.0.0.1',
      headers: new Headers(),
      cookies: {} as never,
      resHeaders: new Headers(),
      serverTime: readServerClock(),
      answerTime: answerTimeOfServer(readServerClock()),
      config: (await import('../../src/lib/server/config')).config(),
      getSession: async () => null,
      transmitsNothing: false,
    };
    type Node = { [key: string]: Node } & ((input: unknown) => Promise<unknown>);
    const caller = createCallerFactory(appRouter)(ctx) as unknown as Node;
    const health = await route.procedurePath.split('.').reduce((node, key) => node[key]!, caller)({});
    expect(health).toMatchObject({ status: 'ok', flags: { liveOrderPlacement: false } });
  });
});
