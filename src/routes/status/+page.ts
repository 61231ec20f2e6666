import { createClient } from '$lib/trpc';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch }) => {
  const client = createClient(fetch);
  const [health, readiness, registry, strategist] = await Promise.all([
    client.system.health.query(),
    client.system.readiness.query(),
    client.system.registry.query(),
    client.strategist.status.query(),
  ]);
  return { health, readiness, registry, strategist };
};
