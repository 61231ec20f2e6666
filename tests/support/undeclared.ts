/**
 * The fields of a value that a zod schema does not declare, as dotted paths (`items[].x`).
 * zod's objects strip unknown keys silently, which is right for an answer (nothing
 * undeclared leaves) but hides a field the domain added and the output schema forgot. This
 * walks the schema beside the value through zod 4's `def` (type, shape, catchall, element,
 * options, innerType, in; checked against zod 4.6) and names every such field. A schema kind
 * it does not know declares nothing it can see, so an unknown kind can hide a drop but never
 * invent one; the self-test in tests/inproc/output-declared.test.ts pins the kinds used.
 *
 * A union is checked against the options that accept the value, and a key counts as
 * undeclared only when no accepting option declares it; a record, `catchall` or `unknown`
 * declares everything under it.
 */
import type { z } from 'zod';

type AnySchema = z.ZodType;
type Def = { type: string; [k: string]: unknown };

const defOf = (schema: AnySchema) => (schema as unknown as { def: Def }).def;
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function undeclaredPaths(schema: AnySchema, value: unknown, path = ''): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(value)) return [];
      const shape = def.shape as Record<string, AnySchema>;
      const catchall = def.catchall as AnySchema | undefined;
      const out: string[] = [];
      for (const [key, v] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        if (key in shape) out.push(...undeclaredPaths(shape[key]!, v, at));
        else if (catchall && defOf(catchall).type !== 'never') out.push(...undeclaredPaths(catchall, v, at));
        else out.push(at);
      }
      return out;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return value === undefined || value === null ? [] : undeclaredPaths(def.innerType as AnySchema, value, path);
    case 'array':
      return Array.isArray(value) ? unique(value.flatMap((item) => undeclaredPaths(def.element as AnySchema, item, `${path}[]`))) : [];
    case 'tuple':
      return Array.isArray(value)
        ? value.flatMap((item, i) =>
            (def.items as AnySchema[])[i] ? undeclaredPaths((def.items as AnySchema[])[i]!, item, `${path}[${i}]`) : [],
          )
        : [];
    case 'record':
      return isPlainObject(value)
        ? unique(Object.entries(value).flatMap(([k, v]) => undeclaredPaths(def.valueType as AnySchema, v, path ? `${path}.${k}` : k)))
        : [];
    case 'union': {
      const accepting = (def.options as AnySchema[]).filter((o) => o.safeParse(value).success);
      if (accepting.length === 0) return [];
      const perOption = accepting.map((o) => new Set(undeclaredPaths(o, value, path)));
      return [...perOption[0]!].filter((p) => perOption.every((set) => set.has(p)));
    }
    case 'intersection': {
      const left = new Set(undeclaredPaths(def.left as AnySchema, value, path));
      return undeclaredPaths(def.right as AnySchema, value, path).filter((p) => left.has(p));
    }
    case 'pipe':
      return undeclaredPaths(def.in as AnySchema, value, path);
    case 'lazy':
      return undeclaredPaths((def.getter as () => AnySchema)(), value, path);
    default:
      return [];
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
