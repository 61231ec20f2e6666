#!/usr/bin/env node
/**
 * Builds the typed client of the package (`strategy-basket-service/client`) into dist/client:
 * `npm pack` runs it (the `prepack` script), so the declarations are generated from the
 * current router and never kept in git.
 *
 * - dist/client/index.js: src/client/index.ts compiled on its own (it imports the router as a
 *   type only, so nothing of the server is in it: at run time it needs only @trpc/client);
 * - dist/client/types/: the declarations of the client and of every module its types reach
 *   (tsconfig.client.json). The router's inputs and answers are written out as plain types;
 *   the context and meta types still name the server's modules, whose declarations come along.
 *   The Prisma client is generated per machine (src/generated, not shipped), so a declaration
 *   that names it is pointed at an opaque stand-in: no client-facing type depends on it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist', 'client');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

// tsc reports TS4094 inside Prisma's generated sources (their declarations cannot name a
// private class member); those declarations are not shipped (see below), so only errors
// elsewhere fail the build.
let report = '';
try {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.client.json')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
} catch (error) {
  report = String(error.stdout ?? '') + String(error.stderr ?? '');
}
const blocking = report.split('\n').filter((line) => /error TS\d+/.test(line) && !line.startsWith('src/generated/'));
if (blocking.length) {
  console.error(report);
  throw new Error(`client declarations: ${blocking.length} type errors`);
}
rmSync(join(OUT, 'types', 'generated'), { recursive: true, force: true });

const source = readFileSync(join(ROOT, 'src', 'client', 'index.ts'), 'utf8');
const { outputText } = ts.transpileModule(source, {
  compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  fileName: 'index.ts',
});
writeFileSync(join(OUT, 'index.js'), outputText);

// The stand-in for the per-machine Prisma client, and relative specifiers that a Node16/NodeNext
// consumer can resolve (a declaration's `./x` must name `./x.js` or `./x/index.js` there).
const TYPES = join(OUT, 'types');
const STUB = join(TYPES, 'generated-prisma.d.ts');
writeFileSync(STUB, "/** The server's database client: not part of the client package. */\ndeclare const prisma: any;\nexport = prisma;\n");
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
const files = walk(TYPES).filter((f) => f.endsWith('.d.ts'));
const known = new Set(files.map((f) => f.slice(0, -'.d.ts'.length)));
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const fixed = text.replace(/(from\s+|import\()(['"])([^'"]+)\2/g, (whole, lead, quote, spec) => {
    if (spec.startsWith('$generated/')) {
      let rel = relative(dirname(file), STUB.slice(0, -'.d.ts'.length));
      if (!rel.startsWith('.')) rel = `./${rel}`;
      return `${lead}${quote}${rel}.js${quote}`;
    }
    if (!spec.startsWith('.')) return whole;
    const target = resolve(dirname(file), spec);
    if (known.has(target)) return `${lead}${quote}${spec}.js${quote}`;
    if (known.has(join(target, 'index'))) return `${lead}${quote}${spec}/index.js${quote}`;
    return whole;
  });
  if (fixed !== text) writeFileSync(file, fixed);
}
console.log(`client: dist/client/index.js and ${files.length} declaration files`);
