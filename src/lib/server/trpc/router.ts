/**
 * The application router. Each family has its own router; later capabilities add theirs
 * here. `AppRouter` is the type a TypeScript consumer builds a typed client from.
 */
import { router } from './init';
import { partnerbotRouter } from './routers/partnerbot';
import { systemRouter } from './routers/system';
import { vaultsRouter } from './routers/vaults';

export const appRouter = router({
  system: systemRouter,
  vaults: vaultsRouter,
  partnerbot: partnerbotRouter,
});

export type AppRouter = typeof appRouter;
