/**
 * Prisma's DMMF (the parsed, validated datamodel of schema.prisma), computed offline.
 *
 * `getDMMF` lives in @prisma/internals, which is not installed. It is a thin wrapper around
 * `get_dmmf` of Prisma's schema wasm module (prisma-schema-wasm), and the `prisma` CLI ships
 * that exact module as node_modules/prisma/build/prisma_schema_build_bg.wasm (the CLI itself
 * calls it as `get_dmmf(JSON.stringify({ prismaSchema, noColor }))`). We load that file and
 * talk to it with a minimal copy of the wasm-bindgen glue (string in/out, error as an
 * externref). The module has only four imports; they are matched by prefix so a Prisma update
 * that only renames their hash suffixes keeps working, and an unknown import fails loudly.
 *
 * Test/tooling only: nothing at runtime imports this (the CLI package is a devDependency).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "object" | "enum" | "unsupported";
  isList: boolean;
  isRequired: boolean;
  isUnique: boolean;
  isId: boolean;
  isUpdatedAt?: boolean;
  hasDefaultValue: boolean;
  default?: unknown;
  type: string;
  nativeType?: [string, string[]] | null;
  relationName?: string;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}
export interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
  primaryKey: { name: string | null; fields: string[] } | null;
}
export interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  name?: string;
  dbName?: string;
  fields: Array<{ name: string; sortOrder?: "asc" | "desc"; length?: number; operatorClass?: string }>;
  algorithm?: string;
}
export interface DmmfDatamodel {
  models: DmmfModel[];
  enums: Array<{ name: string; dbName?: string | null; values: Array<{ name: string; dbName?: string | null }> }>;
  indexes: DmmfIndex[];
}

// tsconfig's lib has no DOM, so @types/node does not declare the WebAssembly JS API: describe
// the part we use.
interface WasmTable {
  get(i: number): unknown;
  set(i: number, v: unknown): void;
  grow(n: number): number;
}
interface WasmApi {
  Module: { new (bytes: Uint8Array): object; imports(m: object): Array<{ module: string; name: string }> };
  Instance: new (m: object, imports: object) => { exports: unknown };
}
const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface WasmExports {
  memory: { buffer: ArrayBuffer };
  __wbindgen_malloc(len: number, align: number): number;
  __wbindgen_free(ptr: number, len: number, align: number): void;
  __wbindgen_externrefs: WasmTable;
  __externref_table_dealloc(idx: number): void;
  __wbindgen_start(): void;
  get_dmmf(ptr: number, len: number): [number, number, number, number];
}

let instance: WasmExports | undefined;

function prismaSchemaWasmPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve("prisma/package.json")), "build", "prisma_schema_build_bg.wasm");
}

function load(): WasmExports {
  if (instance) return instance;
  const module = new WA.Module(readFileSync(prismaSchemaWasmPath()));
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let ex!: WasmExports;
  const str = (ptr: number, len: number) =>
    decoder.decode(new Uint8Array(ex.memory.buffer).subarray(ptr >>> 0, (ptr >>> 0) + len));
  const imports: Record<string, Record<string, (...args: any[]) => unknown>> = {};
  for (const imp of WA.Module.imports(module)) {
    const ns = (imports[imp.module] ??= {});
    const n = imp.name;
    if (n.startsWith("__wbg_set_message_")) ns[n] = () => {}; // panic message hook
    else if (n.startsWith("__wbg_Error_")) ns[n] = (p: number, l: number) => new Error(str(p, l));
    else if (n.startsWith("__wbg___wbindgen_throw_")) {
      ns[n] = (p: number, l: number) => {
        throw new Error(str(p, l));
      };
    } else if (n === "__wbindgen_init_externref_table") {
      ns[n] = () => {
        const t = ex.__wbindgen_externrefs;
        const o = t.grow(4);
        t.set(0, undefined);
        t.set(o + 0, undefined);
        t.set(o + 1, null);
        t.set(o + 2, true);
        t.set(o + 3, false);
      };
    } else {
      throw new Error(`prisma_schema_build_bg.wasm wants an unknown import ${imp.module}.${n}; update src/db/prisma-dmmf.ts`);
    }
  }
  ex = new WA.Instance(module, imports).exports as WasmExports;
  ex.__wbindgen_start();
  instance = ex;
  return ex;
}

function callStringFn(ex: WasmExports, arg: string): string {
  const bytes = new TextEncoder().encode(arg);
  const ptr = ex.__wbindgen_malloc(bytes.length, 1) >>> 0;
  new Uint8Array(ex.memory.buffer).set(bytes, ptr);
  const [outPtr, outLen, errIdx, isErr] = ex.get_dmmf(ptr, bytes.length);
  if (isErr) {
    const err = ex.__wbindgen_externrefs.get(errIdx);
    ex.__externref_table_dealloc(errIdx);
    throw err instanceof Error ? err : new Error(String(err));
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(
      new Uint8Array(ex.memory.buffer).subarray(outPtr >>> 0, (outPtr >>> 0) + outLen),
    );
  } finally {
    ex.__wbindgen_free(outPtr, outLen, 1);
  }
}

/** The datamodel part of Prisma's DMMF for a schema.prisma text. Throws on schema errors. */
export function getDatamodel(schemaText: string): DmmfDatamodel {
  const ex = load();
  let out: string;
  try {
    out = callStringFn(ex, JSON.stringify({ prismaSchema: schemaText, noColor: true }));
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    let detail = msg;
    try {
      detail = (JSON.parse(msg) as { message?: string }).message ?? msg;
    } catch {
      /* not JSON */
    }
    throw new Error(`Prisma could not parse the schema:\n${detail}`);
  }
  return (JSON.parse(out) as { datamodel: DmmfDatamodel }).datamodel;
}
