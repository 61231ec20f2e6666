import { error } from '@sveltejs/kit';
import { createClient } from '$lib/trpc';
import { refusedLoad } from '$lib/page-load';
import type { PageLoad } from './$types';

/**
 * The share page of a Coil's card: what a link posted elsewhere opens, with the Open Graph and
 * Twitter card tags that make its preview (the card as a PNG) and a way on to the Coil.
 */
export const load: PageLoad = async (event) => {
  const { fetch, params, url } = event;
  if (!/^[0-9a-f]{64}$/.test(params.manifestHash) || !/^hrcpt_[0-9a-f]{32}$/.test(params.receiptId))
    error(404, 'No share card has this address');
  try {
    const shared = await createClient(fetch).tools.storedShareCard.query({ receiptId: params.receiptId });
    if (shared.card.manifestHash !== params.manifestHash) error(404, 'No share card of this Coil has this receipt id');
    return { shared, origin: url.origin };
  } catch (e) {
    refusedLoad(e, event, 'No share card has this address');
  }
};
