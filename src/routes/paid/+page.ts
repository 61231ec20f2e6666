import { createClient } from '$lib/trpc';
import { refusedLoad } from '$lib/page-load';
import type { PageLoad } from './$types';

export const load: PageLoad = async (event) => {
  try {
    return { schema: await createClient(event.fetch).x402.schema.query() };
  } catch (e) {
    refusedLoad(e, event);
  }
};
