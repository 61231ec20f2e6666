/**
 * The application router. Each family has its own router; later capabilities add theirs
 * here. `AppRouter` is the type a TypeScript consumer builds a typed client from.
 */
import { router } from './init';
import { registerToolProcedures } from './mcp-tools';
import { autonomyRouter } from './routers/autonomy';
import { authRouter } from './routers/auth';
import { meRouter } from './routers/me';
import { partnerbotRouter } from './routers/partnerbot';
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

export type AppRouter = typeof appRouter;
