// See https://svelte.dev/docs/kit/types#app.d.ts
import type { IncomingMessage } from 'node:http';
import type { RequestState } from '$lib/server/http/request-state';

declare global {
  const __SVC_BUILD_COMMIT__: string;
  namespace App {
    interface Error {
      code?: string;
    }
    interface Locals {
      state: RequestState;
    }
    /** adapter-node passes the Node request (scripts/start.mjs marks a refused target on it). */
    interface Platform {
      req?: IncomingMessage & { [key: symbol]: unknown };
    }
  }
}

export {};
