// What tools/list sends: what an agent needs to choose and call a tool, at a size that fits its
// context. Measured on the 29 tools: the full definitions are 114 KB, 69 % of it output schemas,
// and every id and date carried a regex beside its `format`. So tools/list keeps the full input
// schemas minus those redundant patterns (the server still checks them), and leaves out the
// output schemas: results carry their JSON as structured content anyway, the text summary says
// what came back, and programs that want the result schemas read the manifest at
// GET /api/mcp/tools, which keeps everything.
import type { JsonSchema, Tool, ToolDefinition } from './tools.js';

/** A schema without `pattern` where a `format` (uuid, date-time, email) already says it. */
export function withoutRedundantPatterns(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRedundantPatterns);
  if (!schema || typeof schema !== 'object') return schema;
  const record = schema as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(record)
      .filter(([key]) => !(key === 'pattern' && typeof record.format === 'string'))
      .map(([key, value]) => [key, withoutRedundantPatterns(value)]),
  );
}

export type ListedTool = Omit<ToolDefinition, 'outputSchema'>;

export function listedTool(tool: Tool): ListedTool {
  const { outputSchema: _output, inputSchema, ...rest } = tool.definition;
  return { ...rest, inputSchema: withoutRedundantPatterns(inputSchema) as JsonSchema };
}
