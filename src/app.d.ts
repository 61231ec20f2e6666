// See https://svelte.dev/docs/kit/types#app.d.ts
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
  }
}

export {};
