/**
 * A compact, generic patch of JSON values (docs/protocol.md, "Updates"): what `room:state`
 * updates carry instead of a whole view. Pure code with no Node imports: the server diffs with
 * `diff`, the browser client and the tests apply with `applyPatch` (the same function).
 *
 * A patch has the shape of the object it changes, pruned to what changed: an object whose
 * members name the members that changed (an array's elements by their index, "0", "1", ...),
 * each either a patch of that member (an object: go into it) or an operation (an array):
 *
 *   [value]          set the member (or the array element) to value
 *   []               remove the member
 *   [items, start]   the member is an array: keep its first `start` elements, then append
 *                    `items` (an appended tail: start = its old length; a cut tail: items [])
 *
 * e.g. {"turn":[2],"auction":{"bids":[[{"seat":1,"amount":9}],0],"highBid":[9]},"clocks":{"1":{"since":[null]}}}
 *
 * `diff` compares two values structurally: objects by key, arrays of the same length element by
 * element; at every object or array it keeps whichever is shortest as text: the patch of its
 * members, one tail from the first element that differs, or the whole new value. JSON semantics
 * throughout: a member whose value is `undefined` is absent, an `undefined` element is `null`.
 */

/** An operation on one member (see above). */
export type PatchOp = [] | [value: unknown] | [items: unknown[], start: number];

/** A patch of an object (or array): the members that changed, each a patch or an operation. */
export interface Patch {
  [member: string]: Patch | PatchOp;
}

/** JSON text of a value (`undefined` and the like as null, as in an array). */
function json(v: unknown): string {
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null";
  if (v === null || typeof v === "boolean") return String(v);
  return JSON.stringify(v) ?? "null";
}
const present = (v: unknown): boolean => v !== undefined && typeof v !== "function" && typeof v !== "symbol";
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `members` (a patch's members so far, `"key":…` with commas between; "" for none) with one more.
 * Members are joined as they are found, so a value with no change allocates nothing.
 */
function member(members: string, key: string, text: string): string {
  return `${members === "" ? "" : `${members},`}${JSON.stringify(key)}:${text}`;
}

/** A lower bound of the length of `v`'s JSON text (an object or array), without writing it. */
function leastLength(v: object): number {
  if (Array.isArray(v)) return 2 * v.length + 1;
  let n = 1;
  for (const k in v) n += k.length + 4;
  return n;
}

/** `d`, or the whole new value `b` instead when that is shorter (never at the root). */
function shortest(d: string, b: object, root: boolean): string {
  if (root || d.length <= leastLength(b) + 2) return d;
  const whole = json(b);
  return whole.length + 2 < d.length ? `[${whole}]` : d;
}

/**
 * The JSON text of the patch that turns `a` into `b` (JSON values): an operation, or a patch
 * (`{…}`); null when they are equal. At the root (`root`: both must be objects) the answer is
 * always a patch, never a whole value. (The reverse patch is `diff(b, a)`.)
 */
export function diff(a: unknown, b: unknown, root = false): string | null {
  if (a === b) return null;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    if (root) throw new Error("diff: the root must be an object on both sides");
    // Two primitives (or a primitive and an object): equal only as JSON (undefined and null, NaN and null).
    const bt = json(b);
    return json(a) === bt ? null : `[${bt}]`;
  }
  const aList = Array.isArray(a);
  const bList = Array.isArray(b);
  if (!aList && !bList) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    let members = "";
    for (const k in ao) {
      const v = ao[k];
      if (v !== undefined && present(v) && !present(bo[k])) members = member(members, k, "[]");
    }
    for (const k in bo) {
      const v = bo[k];
      if (v === undefined || !present(v)) continue;
      const old = ao[k];
      if (old === v) continue;
      const d = old !== undefined && present(old) ? diff(old, v) : `[${json(v)}]`;
      if (d) members = member(members, k, d);
    }
    return members === "" ? null : shortest(`{${members}}`, b, root);
  }
  if (root) throw new Error("diff: the root must be an object on both sides");
  if (aList && bList) {
    const n = Math.min(a.length, b.length);
    let first = n;
    if (a.length === b.length) {
      // Element by element, or one tail from the first that differs.
      let members = "";
      let changed = 0;
      for (let i = 0; i < n; i++) {
        const d = diff(a[i], b[i]);
        if (!d) continue;
        if (first === n) first = i;
        members = member(members, String(i), d);
        changed++;
      }
      if (changed === 0) return null;
      const d = `{${members}}`;
      if (changed === 1 || first === 0) return shortest(d, b, false);
      const tail = `[${json(b.slice(first))},${first}]`;
      return shortest(tail.length < d.length ? tail : d, b, false);
    }
    for (let i = 0; i < n; i++) {
      if (diff(a[i], b[i])) {
        first = i;
        break;
      }
    }
    if (first === 0) return `[${json(b)}]`;
    return shortest(`[${json(b.slice(first))},${first}]`, b, false);
  }
  return `[${json(b)}]`;
}

type Container = Record<string, unknown> | unknown[];

/**
 * `doc` with `patch` applied. `doc` itself is left as it was: every object or array on the way to
 * a change is copied, everything else is shared with `doc`. Throws on a patch that does not fit
 * `doc` (a member that is not there, an element out of range, a splice of a non-array).
 */
export function applyPatch<T>(doc: T, patch: Patch): T {
  const copy = (v: unknown): Container => {
    if (typeof v !== "object" || v === null) throw new Error("patch: no object or array to change there");
    return Array.isArray(v) ? v.slice() : { ...(v as Record<string, unknown>) };
  };
  const into = (target: Container, p: unknown): void => {
    if (!isObject(p)) throw new Error("patch: not a patch");
    for (const key of Object.keys(p)) {
      if (key === "__proto__") throw new Error("patch: bad member");
      const op = p[key];
      const list = Array.isArray(target);
      if (list && !(/^(0|[1-9][0-9]*)$/.test(key) && Number(key) < target.length)) throw new Error(`patch: no element ${key}`);
      const t = target as Record<string, unknown>;
      if (!Array.isArray(op)) {
        if (!Object.hasOwn(t, key)) throw new Error(`patch: no member ${key}`);
        const child = copy(t[key]);
        into(child, op);
        t[key] = child;
      } else if (op.length === 1) {
        t[key] = op[0];
      } else if (op.length === 0) {
        if (list || !Object.hasOwn(t, key)) throw new Error(`patch: cannot remove ${key}`);
        delete t[key];
      } else if (op.length === 2) {
        const [items, start] = op as [unknown, unknown];
        const arr = t[key];
        if (!Array.isArray(arr) || !Array.isArray(items) || typeof start !== "number" || !Number.isInteger(start) || start < 0 || start > arr.length) {
          throw new Error(`patch: bad splice of ${key}`);
        }
        t[key] = [...arr.slice(0, start), ...items];
      } else {
        throw new Error(`patch: bad operation on ${key}`);
      }
    }
  };
  const root = copy(doc);
  into(root, patch);
  return root as T;
}
