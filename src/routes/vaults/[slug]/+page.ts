import { error } from '@sveltejs/kit';
import { TRPCClientError } from '@trpc/client';
import { createClient } from '$lib/trpc';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch, params }) => {
  try {
    return { detail: await createClient(fetch).vaults.vault.query({ slug: params.slug }) };
  } catch (e) {
    if (e instanceof TRPCClientError && e.data?.httpStatus === 404) error(404, 'No registered vault has this slug');
    throw e;
  }
};
