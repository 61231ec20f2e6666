/**
 * The application router. Each family has its own router; later capabilities add theirs
 * here. `AppRouter` is the type a TypeScript consumer builds a typed client from.
 */
import { router } from './init';
import { authRouter } from './routers/auth';
import { meRouter } from './routers/me';
import { stocksRouter } from './routers/stocks';
import { strategistRouter } from './routers/strategist';
import { systemRouter } from './routers/system';
import { toolsRouter } from './routers/tools';

export const appRouter = router({
  system: systemRouter,
  tools: toolsRouter,
  strategist: strategistRouter,
  stocks: stocksRouter,
  auth: authRouter,
  me: meRouter,
});

export type AppRouter = typeof appRouter;
