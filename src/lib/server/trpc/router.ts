/**
 * The application router. Each family has its own router; later capabilities add theirs
 * here. `AppRouter` is the type a TypeScript consumer builds a typed client from.
 */
import { router } from './init';
import { systemRouter } from './routers/system';

export const appRouter = router({
  system: systemRouter,
});

export type AppRouter = typeof appRouter;
