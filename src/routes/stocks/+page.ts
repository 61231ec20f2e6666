import { createClient } from '$lib/trpc';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch, url }) => {
  const client = createClient(fetch);
  const [registry, lane] = await Promise.all([client.system.registry.query(), client.stocks.partnerStatus.query()]);
  return { registry, lane, planHash: url.searchParams.get('plan') ?? '' };
};
