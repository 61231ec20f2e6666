import { createClient } from '$lib/trpc';
import { refusedLoad } from '$lib/page-load';
import type { PageLoad } from './$types';

export const load: PageLoad = async (event) => {
  const client = createClient(event.fetch);
  try {
    const [health, readiness, registry, strategist] = await Promise.all([
      client.system.health.query(),
      client.system.readiness.query(),
      client.system.registry.query(),
      client.strategist.status.query(),
    ]);
    return { health, readiness, registry, strategist };
  } catch (e) {
    refusedLoad(e, event);
  }
};
