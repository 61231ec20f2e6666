/**
 * Text a request may carry. JSON can spell a lone UTF-16 surrogate (`"\ud800"`), which is not
 * Unicode text: it cannot be hashed canonically (RFC 8785), stored as UTF-8 or shown. Such a
 * string (or key) is refused at input, naming the field, rather than failing deep inside.
 */
import { SvcError } from '../errors';

/** Whether any string or key of the value holds a lone surrogate (the common answer, no, found without building paths). */
function holdsLoneSurrogate(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (!node.isWellFormed()) return true;
    } else if (Array.isArray(node)) {
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

/** The dotted path of the first string or key holding a lone surrogate, or undefined. */
export function findLoneSurrogate(value: unknown): string | undefined {
  if (!holdsLoneSurrogate(value)) return undefined;
  const stack: Array<{ node: unknown; path: string }> = [{ node: value, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (typeof node === 'string') {
      if (!node.isWellFormed()) return path || '(root)';
    } else if (Array.isArray(node)) {
      node.forEach((child, i) => stack.push({ node: child, path: path ? `${path}.${i}` : String(i) }));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
        // A bad key is named by where it sits, not by itself.
        if (!key.isWellFormed()) return path ? `${path}.(key)` : '(key)';
        stack.push({ node: child, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return undefined;
}

/** Throws 400 `INPUT_TEXT_INVALID` naming the field when the input holds a lone surrogate. */
export function requireWellFormedText(value: unknown): void {
  const path = findLoneSurrogate(value);
  if (path === undefined) return;
  throw new SvcError('INPUT_TEXT_INVALID', 'A string of the request is not valid Unicode text (it holds a lone UTF-16 surrogate)', {
    issues: [{ code: 'LONE_SURROGATE', message: 'send well-formed Unicode text (a surrogate must be part of a pair)', path }],
  });
}
