/**
 * The application router. Each family has its own router; later capabilities add theirs
 * here. `AppRouter` is the type a TypeScript consumer builds a typed client from.
 */
import { router } from './init';
import { authRouter } from './routers/auth';
import { meRouter } from './routers/me';
import { stocksRouter } from './routers/stocks';
import { systemRouter } from './routers/system';

export const appRouter = router({
  system: systemRouter,
  stocks: stocksRouter,
  auth: authRouter,
  me: meRouter,
});

export type AppRouter = typeof appRouter;
