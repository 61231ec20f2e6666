// See https://svelte.dev/docs/kit/types#app.d.ts

declare global {
  const __SVC_BUILD_COMMIT__: string;
  namespace App {
    interface Error {
      code?: string;
      /** A 429 page (the visitor's limit is spent): whole seconds until it may be loaded again. */
      retryAfterSeconds?: number;
    }
    interface Locals {
      /** A page request's id (its log line and `x-request-id`); API requests never reach `locals`. */
      requestId: string;
    }
  }
}

export {};
