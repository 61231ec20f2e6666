/**
 * A procedure that declares `staticAnswer` (trpc/init.ts) is answered over REST from the text
 * of its first answer for the life of the process. It must therefore answer the same whatever
 * differs between two requests: the clock (and a pinned `nowIso`), the caller, a wallet
 * session, and the rows stored in between. Every such procedure is held to that here; one that
 * answered differently would serve a stale answer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadThesisNlp } from '../../src/lib/server/strategist';
import { loadConfig } from '../../src/lib/server/config';
import { procedureRecord } from '../../src/lib/server/trpc/route-table';
import { appRouter } from '../../src/lib/server/trpc/router';
import type { SvcMeta } from '../../src/lib/server/trpc/meta';
import { looseCaller } from '../support/caller';
import { serverTimeAt } from '../support/clocks';

// The strategist's language model loads on the first thesis; loaded here, no test's clock pays it.
beforeAll(() => loadThesisNlp(), 60_000);

const staticProcedures = Object.entries(procedureRecord(appRouter))
  .filter(([, p]) => (p._def.meta as SvcMeta | undefined)?.staticAnswer)
  .map(([path, p]) => ({ path, meta: p._def.meta as SvcMeta }));

const call = (path: string, options: Parameters<typeof looseCaller>[0], input?: unknown) => {
  const [family, name] = path.split('.') as [string, string];
  return looseCaller(options)[family]![name]!(input);
};

describe('static answers', () => {
  it('are declared by the routes that serve the same document to everyone (and only GET routes)', () => {
    expect(staticProcedures.map((p) => p.path).sort()).toEqual(['system.health', 'system.mcpToolset', 'system.registry']);
    for (const { meta } of staticProcedures) expect(meta.openapi?.method).toBe('GET');
  });

  it.each(staticProcedures.map((p) => p.path))('%s answers the same whatever else differs between requests', async (path) => {
    const config = loadConfig({ FACILITATOR_ENABLED: 'true', FACILITATOR_API_KEY: 'static-answer-test-key' });
    const first = await call(path, { config, serverTime: serverTimeAt('2026-01-01T00:00:00Z'), clientAddress: '203.0.113.1' });
    // A Coil and its receipt stored in between, a day later, another client with a session,
    // and a pinned clock in the input and in the query string.
    await call('tools.receipt', { config }, { coil: (await call('tools.generateCoil', { config }, { prompt: 'AI chips' })).coil });
    const second = await call(
      path,
      {
        config,
        serverTime: serverTimeAt('2026-01-02T12:34:56Z'),
        clientAddress: '198.51.100.7',
        session: { address: '0x00000000000000000000000000000000000A11cE', chainId: 4663, expiresAt: new Date('2026-02-01T00:00:00Z') },
        url: '/api/x?nowIso=2030-01-01T00:00:00Z',
      },
      { nowIso: '2029-06-01T00:00:00Z' },
    );
    expect(second).toEqual(first);
  });
});
