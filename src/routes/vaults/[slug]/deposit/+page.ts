import { error } from '@sveltejs/kit';
import { TRPCClientError } from '@trpc/client';
import { createClient } from '$lib/trpc';
import type { PageLoad } from './$types';

/** Mode C: the deposit widget. The amount (and receiver) arrive prefilled in the query string. */
export const load: PageLoad = async ({ fetch, params, url }) => {
  const client = createClient(fetch);
  const amount = url.searchParams.get('amount') ?? '';
  const receiver = url.searchParams.get('receiver') ?? '';
  try {
    const link = await client.vaults.depositLink.query({ slug: params.slug });
    return { link, amount, receiver };
  } catch (e) {
    if (e instanceof TRPCClientError && e.data?.httpStatus === 404) error(404, 'No registered Rail A vault has this slug');
    throw e;
  }
};
