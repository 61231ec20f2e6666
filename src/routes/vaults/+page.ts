import { createClient } from '$lib/trpc';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch }) => ({ list: await createClient(fetch).vaults.list.query() });
