import { createClient } from '$lib/trpc';
import { refusedLoad } from '$lib/page-load';
import type { PageLoad } from './$types';

export const load: PageLoad = async (event) => {
  try {
    return { list: await createClient(event.fetch).vaults.list.query() };
  } catch (e) {
    refusedLoad(e, event);
  }
};
