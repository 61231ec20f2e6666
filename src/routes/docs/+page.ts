import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch }) => {
  const res = await fetch('/api/openapi.json');
  return { doc: (await res.json()) as OpenApiDoc };
};

export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, { summary?: string; description?: string; tags?: string[]; requestBody?: unknown; parameters?: unknown[]; security?: unknown[] }>>;
}
