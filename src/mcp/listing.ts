// What tools/list sends: what an agent needs to choose and call a tool, at a size that fits its
// context. Issue 15 held the 28 documented tools to ≤ 40 KB; issue 32 holds each toolset to
// ≤ 25 KB and all of them together to ≤ 60 KB (toolsets.ts), with twice as many tools. So:
// - input schemas keep every rule an agent must meet to call the tool (types, enums, lengths,
//   formats, required fields, descriptions) and lose what is redundant or enforced with a
//   clear error anyway: a regex beside its `format`, the ±2^53 bounds zod puts on every integer,
//   the `anyOf` a nullable takes where `type: [t, "null"]` says the same, `examples`, and
//   `additionalProperties: false` (an unknown argument is refused naming it); `idempotency_key`
//   is described once, in the server's instructions, not in each tool;
// - output schemas are not listed: they were two thirds of the bytes. Every result carries its
//   JSON in structuredContent and a text summary that says where buyer-supplied text is; the
//   manifest at GET /api/mcp/tools keeps every tool's full input and output schema, for programs
//   and for clients that validate results;
// - descriptions end with the scope, not the REST path (the manifest has both);
//   `annotations.title` is left out where it would repeat `title`, and hints at their default.
import type { JsonSchema, Tool, ToolDefinition } from './tools.js';
import { needsKey } from './tools.js';

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);
const SAFE = Number.MAX_SAFE_INTEGER;

/** `{ anyOf: [X, { type: 'null' }] }` as `X` with `type: [t, 'null']`, when nothing collides. */
function mergedNullable(schema: Schema): Schema {
  const [first, second, ...more] = (schema.anyOf as unknown[] | undefined) ?? [];
  if (more.length || !isObject(first) || !isObject(second) || second.type !== 'null') return schema;
  if (typeof first.type !== 'string' || first.enum || first.const !== undefined) return schema;
  const { anyOf: _anyOf, ...outer } = schema;
  if (Object.keys(first).some((k) => k in outer)) return schema;
  return { ...outer, ...first, type: [first.type, 'null'] };
}

/** A key of a schema that the listing leaves out (see above). */
function redundant(schema: Schema, key: string, value: unknown): boolean {
  if (key === 'pattern') return typeof schema.format === 'string';
  if (key === 'minimum' || key === 'maximum') return Math.abs(value as number) === SAFE;
  if (key === 'additionalProperties') return value === false;
  return key === 'examples';
}

/** The input schema as listed: every rule kept, redundancy dropped (see above). */
export function compactInputSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactInputSchema);
  if (!isObject(schema)) return schema;
  const kept = Object.entries(schema)
    .filter(([key, value]) => !redundant(schema, key, value))
    .map(([key, value]) => [
      key,
      key === 'enum' || key === 'required' ? value : compactInputSchema(value),
    ]);
  return mergedNullable(Object.fromEntries(kept) as Schema);
}

/** `idempotency_key` as listed: the instructions say what a key means, once for every tool. */
const LISTED_KEY = { type: 'string', minLength: 1, maxLength: 64 };

function listedInput(tool: Tool): JsonSchema {
  const schema = compactInputSchema(tool.definition.inputSchema) as { properties?: Schema };
  if (schema.properties?.idempotency_key)
    schema.properties.idempotency_key = {
      ...LISTED_KEY,
      ...(needsKey(tool.route) ? { description: 'Required: see the instructions.' } : {}),
    };
  return schema as JsonSchema;
}

export type ListedTool = Omit<ToolDefinition, 'annotations' | 'outputSchema'> & {
  annotations: Partial<Omit<ToolDefinition['annotations'], 'title'>>;
};

/** The tools as tools/list sends them, in order (see above). */
export function listedTools(tools: readonly Tool[]): ListedTool[] {
  return tools.map((tool) => {
    const { route, definition } = tool;
    // Per the MCP spec the destructive and idempotent hints mean something only on a write, and a
    // hint at its default (readOnlyHint and idempotentHint false) says nothing; destructiveHint
    // defaults to true and openWorldHint to true, so both are always sent.
    const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = definition.annotations;
    const annotations = readOnlyHint
      ? { readOnlyHint, openWorldHint }
      : { destructiveHint, ...(idempotentHint ? { idempotentHint } : {}), openWorldHint };
    return {
      name: definition.name,
      title: definition.title,
      description: `${route.description} (scope ${route.scope})`,
      annotations,
      inputSchema: listedInput(tool),
    };
  });
}
