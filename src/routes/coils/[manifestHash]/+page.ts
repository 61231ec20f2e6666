import { error } from '@sveltejs/kit';
import { TRPCClientError } from '@trpc/client';
import { createClient } from '$lib/trpc';
import type { PageLoad } from './$types';

/** A saved Coil at its stable address: its manifest hash. `?verify=<receiptId>` opens that receipt's verification. */
export const load: PageLoad = async ({ fetch, params, url }) => {
  if (!/^[0-9a-f]{64}$/.test(params.manifestHash)) error(404, 'No Coil has this address');
  try {
    const stored = await createClient(fetch).tools.storedCoil.query({ manifestHash: params.manifestHash });
    return { stored, verifyReceiptId: url.searchParams.get('verify') ?? undefined };
  } catch (e) {
    if (e instanceof TRPCClientError && e.data?.httpStatus === 404) error(404, 'No Coil with this manifest hash is stored here');
    throw e;
  }
};
