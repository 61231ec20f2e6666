/**
 * The application router. Each family has its own router; later capabilities add theirs
 * here. `AppRouter` is the type a TypeScript consumer builds a typed client from.
 */
import type { RequestContext } from './context';
import { createCallerFactory, router } from './init';
import { registerToolProcedures } from './mcp-tools';
import { registerVaultRoutes } from './vault-routes';
import { autonomyRouter } from './routers/autonomy';
import { authRouter } from './routers/auth';
import { meRouter } from './routers/me';
import { partnerbotRouter } from './routers/partnerbot';
import { receiptLogRouter } from './routers/receipt-log';
import { stocksRouter } from './routers/stocks';
import { strategistRouter } from './routers/strategist';
import { systemRouter } from './routers/system';
import { toolsRouter } from './routers/tools';
import { vaultAnalysisRouter } from './routers/vault-analysis';
import { vaultRailRouter } from './routers/vault-rail';
import { vaultsRouter } from './routers/vaults';
import { x402Router } from './routers/x402';

export const appRouter = router({
  system: systemRouter,
  tools: toolsRouter,
  receiptLog: receiptLogRouter,
  strategist: strategistRouter,
  stocks: stocksRouter,
  vaults: vaultsRouter,
  partnerbot: partnerbotRouter,
  autonomy: autonomyRouter,
  vaultAnalysis: vaultAnalysisRouter,
  vaultRail: vaultRailRouter,
  x402: x402Router,
  auth: authRouter,
  me: meRouter,
});

registerToolProcedures(appRouter);
registerVaultRoutes(appRouter);

const createCaller = createCallerFactory(appRouter);

/**
 * Calls the procedure at a dotted path (a REST route's, an MCP tool's) through the server-side
 * caller, so every middleware of the procedure runs exactly as for the typed client.
 */
export function callProcedureAt(ctx: RequestContext, procedurePath: string, input: unknown): Promise<unknown> {
  let target: unknown = createCaller(ctx);
  for (const key of procedurePath.split('.')) target = (target as Record<string, unknown>)[key];
  return (target as (input: unknown) => Promise<unknown>)(input);
}

export type AppRouter = typeof appRouter;
