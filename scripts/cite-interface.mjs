#!/usr/bin/env node
// One-off rewrite (issue 15.5): code comments that cite "spec N.N" cite docs/interface.md, which
// keeps the specification's numbering, as "interface N.N". Comments only: a citation inside a
// string (a test name, a description served to users) is listed for a person to judge.
//
//   node scripts/cite-interface.mjs           lists what it would change, changes nothing
//   node scripts/cite-interface.mjs --write   rewrites the comments
//
// Comments are found with TypeScript's own parser rather than a regular expression, because
// "spec 4.5" also occurs in strings and template literals that a line-based sed cannot tell apart.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';

const WRITE = process.argv.includes('--write');
const CITATION = /\b([Ss])pec(?= ?\d)/g;
const ANY_CITATION = /\b[Ss]pec ?\d+(?:\.\d+)?/;

const sections = new Set([...readFileSync('docs/interface.md', 'utf8').matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1]));

const files = execFileSync('git', ['ls-files', '*.ts', '*.js', '*.mjs', '*.cjs', '*.svelte'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !f.startsWith('src/generated/') && f !== 'scripts/cite-interface.mjs');

/** [start, end) ranges of the comments in one script's text, offset by `base`. */
function commentRanges(text, base, fileName) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const seen = new Map();
  const add = (ranges) => ranges?.forEach((r) => seen.set(r.pos, [base + r.pos, base + r.end]));
  const visit = (node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...seen.values()];
}

function rangesOf(file, text) {
  if (!file.endsWith('.svelte')) return commentRanges(text, 0, file);
  const ranges = [];
  for (const m of text.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/g)) {
    ranges.push(...commentRanges(m[2], m.index + m[1].length, `${file}.ts`));
  }
  for (const m of text.matchAll(/<!--[\s\S]*?-->/g)) ranges.push([m.index, m.index + m[0].length]);
  return ranges;
}

const lineOf = (text, pos) => text.slice(0, pos).split('\n').length;
const changed = [];
const leftInStrings = [];
const unknownSections = [];

for (const file of files) {
  const text = readFileSync(file, 'utf8');
  if (!ANY_CITATION.test(text)) continue;
  const ranges = rangesOf(file, text).sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of ranges) {
    const comment = text.slice(start, end);
    const rewritten = comment.replace(CITATION, (_, s) => (s === 'S' ? 'Interface' : 'interface'));
    if (rewritten === comment) continue;
    for (const m of comment.matchAll(/\b[Ss]pec ?(\d+(?:\.\d+)?)/g)) {
      if (!sections.has(m[1])) unknownSections.push(`${file}:${lineOf(text, start + m.index)}: ${m[0]}`);
    }
    changed.push(`${file}:${lineOf(text, start)}`);
    out += text.slice(at, start) + rewritten;
    at = end;
  }
  out += text.slice(at);
  out.split('\n').forEach((line, i) => {
    if (ANY_CITATION.test(line)) leftInStrings.push(`${file}:${i + 1}: ${line.trim()}`);
  });
  if (WRITE && out !== text) writeFileSync(file, out);
}

const touched = new Set(changed.map((c) => c.split(':')[0]));
console.log(`${WRITE ? 'rewrote' : 'would rewrite'} ${changed.length} comments in ${touched.size} files:`);
changed.forEach((c) => console.log(`  ${c}`));
console.log(`\nleft as they are (not in a comment; judge by hand): ${leftInStrings.length}`);
leftInStrings.forEach((c) => console.log(`  ${c}`));
if (unknownSections.length) {
  console.log(`\ncited sections with no heading in docs/interface.md: ${unknownSections.length}`);
  unknownSections.forEach((c) => console.log(`  ${c}`));
}
