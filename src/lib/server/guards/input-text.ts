/**
 * What a request's input may hold before anything reads it. Two things JSON can spell are not
 * values the service can work with, and each is refused at input, naming the field, rather than
 * failing deep inside (a 500):
 *
 * - a lone UTF-16 surrogate (`"\ud800"`), which is not Unicode text: it cannot be hashed
 *   canonically (RFC 8785), stored as UTF-8 or shown;
 * - a number beyond the range of a double (`1e400`), which JSON.parse turns into Infinity: it
 *   has no JSON form, so it cannot be hashed, stored or answered either.
 */
import { SvcError } from '../errors';

export type InputProblem = 'lone_surrogate' | 'non_finite_number';

function problemOf(node: unknown): InputProblem | undefined {
  if (typeof node === 'string') return node.isWellFormed() ? undefined : 'lone_surrogate';
  if (typeof node === 'number') return Number.isFinite(node) ? undefined : 'non_finite_number';
  return undefined;
}

/** Whether anything of the value is malformed (the common answer, no, found without building paths). */
function holdsMalformed(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (problemOf(node)) return true;
    if (Array.isArray(node)) {
      for (const child of node) stack.push(child);
    } else if (node !== null && typeof node === 'object') {
      for (const key of Object.keys(node)) {
        if (!key.isWellFormed()) return true;
        stack.push((node as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** The dotted path and the problem of the first malformed string, key or number, or undefined. */
export function findMalformedInput(value: unknown): { path: string; problem: InputProblem } | undefined {
  if (!holdsMalformed(value)) return undefined;
  const stack: Array<{ node: unknown; path: string }> = [{ node: value, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const problem = problemOf(node);
    if (problem) return { path: path || '(root)', problem };
    if (Array.isArray(node)) {
      node.forEach((child, i) => stack.push({ node: child, path: path ? `${path}.${i}` : String(i) }));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
        // A bad key is named by where it sits, not by itself.
        if (!key.isWellFormed()) return { path: path ? `${path}.(key)` : '(key)', problem: 'lone_surrogate' };
        stack.push({ node: child, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return undefined;
}

/**
 * Throws a 400 naming the field when the input holds a lone surrogate (`INPUT_TEXT_INVALID`) or
 * a number beyond the range of a double (`INPUT_NUMBER_INVALID`).
 */
export function requireWellFormedInput(value: unknown): void {
  const found = findMalformedInput(value);
  if (!found) return;
  const { path, problem } = found;
  if (problem === 'lone_surrogate') {
    throw new SvcError('INPUT_TEXT_INVALID', 'A string of the request is not valid Unicode text (it holds a lone UTF-16 surrogate)', {
      issues: [{ code: 'LONE_SURROGATE', message: 'send well-formed Unicode text (a surrogate must be part of a pair)', path }],
    });
  }
  throw new SvcError('INPUT_NUMBER_INVALID', 'A number of the request is beyond the range of a double, so it has no value here', {
    issues: [
      {
        code: 'NUMBER_OUT_OF_RANGE',
        message: 'send a number whose magnitude is below about 1.8e308 (a JSON number this large reads as infinity)',
        path,
      },
    ],
  });
}
