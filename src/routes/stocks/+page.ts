import { createClient } from '$lib/trpc';
import { refusedLoad } from '$lib/page-load';
import type { PageLoad } from './$types';

export const load: PageLoad = async (event) => {
  const client = createClient(event.fetch);
  try {
    const [registry, lane] = await Promise.all([client.system.registry.query(), client.stocks.partnerStatus.query()]);
    return { registry, lane, planHash: event.url.searchParams.get('plan') ?? '' };
  } catch (e) {
    refusedLoad(e, event);
  }
};
