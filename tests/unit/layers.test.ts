/**
 * The server's layers point one way (docs/architecture.md, "A request in one page"): the
 * transport (`http/`, `src/mcp/`) calls the procedure layer (`trpc/`), which calls the domain and
 * the stores beneath it. Nothing in `trpc/` imports `http/`, and no module of the server imports
 * itself back through others, type-only imports included (a type cycle still ties the files'
 * order of reading together). The imports are read by TypeScript's own pre-processor.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const serverRoot = join(root, 'src/lib/server');
const sources = [serverRoot, join(root, 'src/mcp')];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The project files a module imports (relative and `$lib` specifiers), resolved to paths. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const resolved: string[] = [];
  for (const { fileName } of importedFiles) {
    let base: string | undefined;
    if (fileName.startsWith('.')) base = resolve(dirname(file), fileName);
    else if (fileName.startsWith('$lib/')) base = join(root, 'src/lib', fileName.slice(5));
    if (!base) continue;
    const candidates = [base, `${base.replace(/\.js$/, '')}.ts`, `${base}.ts`, join(base, 'index.ts')];
    const hit = candidates.find((c) => c.endsWith('.ts') && statSafe(c));
    if (hit) resolved.push(hit);
  }
  return resolved;
}

function statSafe(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

const graph = new Map(sources.flatMap(filesUnder).map((file) => [file, importsOf(file)]));
const name = (file: string) => relative(root, file);

/** Strongly connected components of more than one module, or a module that imports itself (Tarjan). */
function cycles(): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(name(w));
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}

describe('the server layers', () => {
  it('reads the imports it checks (the procedure layer imports the domain)', () => {
    const init = graph.get(join(serverRoot, 'trpc/init.ts'));
    expect(init?.map(name)).toContain('src/lib/server/errors.ts');
  });

  it('nothing in trpc/ imports http/', () => {
    const upward = [...graph]
      .filter(([file]) => file.startsWith(join(serverRoot, 'trpc') + '/'))
      .flatMap(([file, imports]) =>
        imports.filter((i) => i.startsWith(join(serverRoot, 'http') + '/')).map((i) => `${name(file)} -> ${name(i)}`),
      );
    expect(upward).toEqual([]);
  });

  it('no module of the server or the MCP doors is part of an import cycle, type-only imports included', () => {
    expect(cycles()).toEqual([]);
  });
});
