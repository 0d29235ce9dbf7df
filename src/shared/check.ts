/**
 * The small checks the protocol's validators are made of. `shape` and `byKind` tie a check to the
 * type it checks: they take one guard per field (per kind), typed by the field, so a field added to,
 * taken from or retyped in the type does not compile until its check follows.
 */

export type Obj = Record<string, unknown>;
/** A check that tells the compiler what it proved. */
export type Guard<T> = (v: unknown) => v is T;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isStr = (v: unknown): v is string => typeof v === 'string';
export const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
export const isCount = (v: unknown): v is number => isNum(v) && v >= 0;
export const opt = (v: unknown, check: (v: unknown) => boolean): boolean => v === undefined || check(v);
export const arrayOf =
  (check: (v: unknown) => boolean) =>
  (v: unknown): boolean =>
    Array.isArray(v) && v.every(check);

/** The guard of an optional field: absent, or what `check` accepts. */
export const maybe =
  <T>(check: Guard<T>): Guard<T | undefined> =>
  (v): v is T | undefined =>
    v === undefined || check(v);
export const listOf =
  <T>(check: Guard<T>): Guard<T[]> =>
  (v): v is T[] =>
    Array.isArray(v) && v.every(check);
/** One of a few literal values. */
export const oneOf =
  <const T extends string>(values: readonly T[]): Guard<T> =>
  (v): v is T =>
    values.includes(v as T);

// biome-ignore lint/complexity/noBannedTypes: `{}` here asks whether the property may be absent (an optional key)
type FieldType<T, K extends keyof T> = {} extends Pick<T, K> ? T[K] | undefined : T[K];
/** One guard per field of T, optional fields included. */
export type Guards<T> = { [K in keyof T]-?: Guard<FieldType<T, K>> };

/** An object whose every field passes its guard (fields the type does not name are not looked at). */
export function shape<T>(guards: Guards<T>): Guard<T> {
  const checks = Object.entries(guards) as Array<[string, Guard<unknown>]>;
  return (v): v is T => isObj(v) && checks.every(([key, check]) => check(v[key]));
}

/** A union told apart by its `kind`: one guard per kind, so a kind added to the union needs one. */
export function byKind<T extends { kind: string }>(
  guards: { [K in T['kind']]: Guard<Extract<T, { kind: K }>> },
): Guard<T> {
  const byName = guards as Record<string, Guard<T>>;
  return (v): v is T => isObj(v) && isStr(v.kind) && Object.hasOwn(byName, v.kind) && byName[v.kind]!(v);
}
