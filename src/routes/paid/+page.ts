import { createClient } from '$lib/trpc';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch }) => ({ schema: await createClient(fetch).x402.schema.query() });
