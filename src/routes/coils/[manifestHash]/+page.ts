import { error } from '@sveltejs/kit';
import { createClient } from '$lib/trpc';
import { refusedLoad } from '$lib/page-load';
import type { PageLoad } from './$types';

/** A saved Coil at its stable address: its manifest hash. `?verify=<receiptId>` opens that receipt's verification. */
export const load: PageLoad = async (event) => {
  const { fetch, params, url } = event;
  if (!/^[0-9a-f]{64}$/.test(params.manifestHash)) error(404, 'No Coil has this address');
  try {
    const client = createClient(fetch);
    const [stored, registry] = await Promise.all([
      client.tools.storedCoil.query({ manifestHash: params.manifestHash }),
      client.system.registry.query(),
    ]);
    // The holdings lead the page with their names, so the names come with the first render.
    const assetNames = Object.fromEntries(registry.assets.map((a) => [a.address.toLowerCase(), a.name]));
    return { stored, assetNames, verifyReceiptId: url.searchParams.get('verify') ?? undefined };
  } catch (e) {
    refusedLoad(e, event, 'No Coil with this manifest hash is stored here');
  }
};
