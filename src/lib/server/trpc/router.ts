/**
 * The application router. Each family has its own router; later capabilities add theirs
 * here. `AppRouter` is the type a TypeScript consumer builds a typed client from.
 */
import { router } from './init';
import { systemRouter } from './routers/system';
import { vaultAnalysisRouter } from './routers/vault-analysis';
import { x402Router } from './routers/x402';

export const appRouter = router({
  system: systemRouter,
  vaultAnalysis: vaultAnalysisRouter,
  x402: x402Router,
});

export type AppRouter = typeof appRouter;
