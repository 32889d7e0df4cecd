// Narrowing for tests under `noUncheckedIndexedAccess`: a missing element or value throws a message naming
// what was missing, so the test fails at the cause instead of later on a `Cannot read properties of undefined`.

/** The element at `index` (negative counts from the end, as Array.prototype.at); throws when there is none. */
export function at<T>(items: ArrayLike<T>, index: number, what = 'element'): T {
  const i = index < 0 ? items.length + index : index;
  if (i < 0 || i >= items.length) throw new Error(`expected ${what} at index ${index}, but there are ${items.length}`);
  return items[i] as T;
}

/** `value`, or a thrown error when it is undefined or null. */
export function must<T>(value: T | null | undefined, what = 'value'): T {
  if (value === undefined || value === null) throw new Error(`expected ${what} to be present, got ${String(value)}`);
  return value;
}
