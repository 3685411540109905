// The agent tools, derived from the partner route table: one tool per route, named as the route,
// its input the route's path, query and body fields in one object (the same zod schemas), its
// output the route's wire body. No tool is written by hand.
import { z } from 'zod';
import { AppError } from '../domain/errors.js';
import { jsonSchema } from '../rest/openapi.js';
import type { Route } from '../rest/route.js';
import { ROUTES } from '../rest/table.js';
import { DEFAULT_TOOLSETS, routesOf, TOOLSET_NAMES, type ToolsetName } from './toolsets.js';

export type JsonSchema = Record<string, unknown>;

export type ToolDefinition = {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: false;
  };
};

export type Tool = { definition: ToolDefinition; route: Route };

const IDEMPOTENCY_KEY = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\x20-\x7e]+$/, 'must be printable ASCII')
  .optional();

/** Tools that move coins take the caller's key; it cannot be made up for them (route.ts). */
export const needsKey = (route: Route) => route.hints.movesCoins === true;

/** Other routes whose Idempotency-Key is required create records: the tool makes one. */
export const generatesKey = (route: Route) => route.idempotency === 'required' && !needsKey(route);

/** Where a tool argument goes on the route: path, query or body. */
export type ArgumentPlan = {
  params: string[];
  query: string[];
  /** Body fields, or 'whole' when the body is one opaque object (a webhook payload). */
  body: string[] | 'whole';
};

const shapeKeys = (schema: z.ZodType | undefined): string[] =>
  schema && 'shape' in schema ? Object.keys((schema as z.ZodObject).shape) : [];

export function planOf(route: Route): ArgumentPlan {
  const bodyIsObject = route.body === undefined || 'shape' in route.body;
  return {
    params: shapeKeys(route.params),
    query: shapeKeys(route.query),
    body: bodyIsObject ? shapeKeys(route.body) : 'whole',
  };
}

/** The tool's input: every path, query and body field of its route, plus `idempotency_key`. */
function inputSchemaOf(route: Route): JsonSchema {
  const plan = planOf(route);
  const shape: Record<string, z.ZodType> = {
    ...((route.params as z.ZodObject | undefined)?.shape ?? {}),
    ...((route.query as z.ZodObject | undefined)?.shape ?? {}),
  };
  if (plan.body === 'whole') {
    shape.payload = route.body!.describe('The webhook body, as the sender would POST it.');
  } else if (route.body) {
    Object.assign(shape, (route.body as z.ZodObject).shape);
  }
  if (needsKey(route)) {
    shape.idempotency_key = IDEMPOTENCY_KEY.unwrap().describe(
      'Required: one key (a UUID) per movement you mean. After a timeout or an error, send the call ' +
        'again with the SAME key: it applies at most once and answers the same. A new key is a new movement.',
    );
  } else if (route.idempotency !== 'none' || plan.body === 'whole') {
    shape.idempotency_key = IDEMPOTENCY_KEY.describe(
      generatesKey(route)
        ? 'Omit it and each call is a new request (a key is generated). Repeat a key to repeat a call ' +
            'safely: it is applied once and answered the same.'
        : 'Optional Idempotency-Key: repeating a key repeats the call safely.',
    );
  }
  return jsonSchema(z.strictObject(shape), 'input', 'inline');
}

/** The tool's structured result: the route's wire body, `{ data, page? }`. */
function outputSchemaOf(route: Route): JsonSchema {
  const page = z.object({ has_more: z.boolean(), next_cursor: z.string().nullable() });
  return jsonSchema(
    route.paginated
      ? z.object({ data: z.array(route.response), page })
      : z.object({ data: route.response }),
    'output',
    'inline',
  );
}

function toolOf(route: Route): Tool {
  const readOnly = route.hints.readOnly ?? false;
  return {
    route,
    definition: {
      name: route.name,
      title: route.summary,
      description: `${route.description} (${route.method} ${route.path}; scope ${route.scope})`,
      inputSchema: inputSchemaOf(route),
      outputSchema: outputSchemaOf(route),
      annotations: {
        title: route.summary,
        readOnlyHint: readOnly,
        destructiveHint: route.hints.destructive ?? false,
        idempotentHint: route.hints.idempotent ?? false,
        openWorldHint: false,
      },
    },
  };
}

/** Every route of a toolset is a tool, each once, in the route table's order. */
export const TOOLS: Tool[] = ROUTES.filter((r) =>
  TOOLSET_NAMES.some((set) => routesOf(set).includes(r)),
).map(toolOf);

/** Names of tools that only read: their calls spend the read rate budget. */
export const READ_TOOLS: ReadonlySet<string> = new Set(
  TOOLS.filter((t) => t.definition.annotations.readOnlyHint).map((t) => t.definition.name),
);

export type ToolSelection = {
  readOnly: boolean;
  toolsets: readonly ToolsetName[];
  names: ReadonlySet<string> | null;
};

const BOOLEAN: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

/** The query parameters the MCP endpoint and its manifest take. */
const SELECTION_PARAMETERS = ['toolsets', 'read_only', 'tools'];

const quoted = (names: string[]) => names.map((n) => JSON.stringify(n)).join(', ');

/** A comma-separated list parameter, or null when absent or blank. */
function listOf(query: Record<string, unknown>, name: string): string[] | null {
  const value = query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string')
    throw new AppError('invalid_request', `${name} must be one comma-separated list.`);
  return value.trim() ? value.split(',').map((n) => n.trim()) : null;
}

/**
 * `?toolsets=partner,reports`, `?read_only=true` and `?tools=a,b`: what a connection lists and
 * may call. Anything else is refused, as the REST routes refuse unknown parameters: `read_only`
 * is true/1 or false/0 and nothing else, and a `READ_ONLY=true`, `read_only[]=true` or `TRUE`
 * silently ignored would hand write tools to a client that asked for none; an unknown set or
 * tool name would silently list nothing.
 */
export function selectionOf(query: Record<string, unknown>): ToolSelection {
  const unknown = Object.keys(query).filter((name) => !SELECTION_PARAMETERS.includes(name));
  if (unknown.length) {
    throw new AppError(
      'invalid_request',
      `Unknown query parameter ${quoted(unknown)}: the MCP endpoint takes ` +
        `${SELECTION_PARAMETERS.join(', ')} only.`,
    );
  }
  const readOnly = query.read_only === undefined ? false : BOOLEAN[String(query.read_only)];
  if (readOnly === undefined || Array.isArray(query.read_only))
    throw new AppError(
      'invalid_request',
      `read_only must be true or false (or 1 or 0), not ${JSON.stringify(query.read_only)}.`,
    );
  const sets = listOf(query, 'toolsets') ?? [...DEFAULT_TOOLSETS];
  const badSets = sets.filter((n) => !(TOOLSET_NAMES as string[]).includes(n));
  if (badSets.length)
    throw new AppError(
      'invalid_request',
      `No toolset named ${quoted(badSets)}: the toolsets are ${TOOLSET_NAMES.join(', ')}.`,
    );
  const toolsets = sets as ToolsetName[];
  const names = listOf(query, 'tools');
  const offered = new Set(toolsets.flatMap((set) => routesOf(set).map((r) => r.name)));
  const missing = names?.filter((n) => !offered.has(n)) ?? [];
  if (missing.length)
    throw new AppError(
      'invalid_request',
      `No tool named ${quoted(missing)} in the toolsets ${toolsets.join(', ')}: ` +
        'GET /api/mcp/tools?toolsets=… lists each set.',
    );
  return { readOnly, toolsets, names: names ? new Set(names) : null };
}

export function selectedTools(selection: ToolSelection): Tool[] {
  const routes = new Set(selection.toolsets.flatMap(routesOf));
  return TOOLS.filter(
    (t) =>
      routes.has(t.route) &&
      (!selection.readOnly || t.definition.annotations.readOnlyHint) &&
      (!selection.names || selection.names.has(t.definition.name)),
  );
}
