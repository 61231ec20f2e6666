import { createClient } from '$lib/trpc';
import { refusedLoad } from '$lib/page-load';
import type { PageLoad } from './$types';

/** Mode C: the deposit widget. The amount (and receiver) arrive prefilled in the query string. */
export const load: PageLoad = async (event) => {
  const { fetch, params, url } = event;
  const client = createClient(fetch);
  const amount = url.searchParams.get('amount') ?? '';
  const receiver = url.searchParams.get('receiver') ?? '';
  try {
    const link = await client.vaults.depositLink.query({ slug: params.slug });
    return { link, amount, receiver };
  } catch (e) {
    refusedLoad(e, event, 'No registered Rail A vault has this slug');
  }
};
