import { createClient } from '$lib/trpc';
import { refusedLoad } from '$lib/page-load';
import type { PageLoad } from './$types';

export const load: PageLoad = async (event) => {
  try {
    return { detail: await createClient(event.fetch).vaults.vault.query({ slug: event.params.slug }) };
  } catch (e) {
    refusedLoad(e, event, 'No registered vault has this slug');
  }
};
