// A route's answer derived from its GraphQL operation (issue 30): the operation's selection,
// walked over the one schema, gives both the wire schema (OpenAPI, the MCP output schema, the
// contract test) and the mapping from GraphQL `data` to the wire body. A record's fields are then
// written once, in its GraphQL type (with their descriptions); the selection says which of them a
// route answers, aliases give a field another wire name, a named fragment names the record (a
// component of the OpenAPI document), and the family gives the casing. Derived once per row when
// its module loads (defineRoute), never per request.
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  print,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type SelectionSetNode,
} from 'graphql';
import { z } from 'zod';
import { getSchema } from '../schema/index.js';
import { toPage } from './pagination.js';
import type { ApiFamily } from './route.js';

/**
 * A record's selection under a name: `${CUSTOMER}` in an operation spreads it, and the operation
 * ends with `${CUSTOMER.definition}`. The name is the record's on the wire (its OpenAPI component).
 * `uses`: the fragments its fields spread, defined with it.
 */
export type Fragment = { name: string; definition: string; toString(): string };

/**
 * Where a family's wire differs from GraphQL in value, not only in name, for one record: each a
 * real value mapping, with its reason beside it.
 */
export type WireParts = {
  /** The record's description on the wire (its OpenAPI component), when not its type's. */
  description?: string;
  /**
   * By the field's key in the selection (its alias): its wire value, given the one derived from
   * GraphQL (e.g. a list the wire keys by name, a field a read never leaves null).
   */
  values?: Record<string, (derived: Derived) => Derived>;
  /**
   * By key: fields whose record's fields stand beside this record's own on the wire, rather than
   * nested under the key (the establishment family answers an order's record with the order's
   * fields beside it). The key is then only a name in the selection.
   */
  spread?: string[];
};

/** Each fragment's wire parts, by its name (a name selects one set of fields: namedRecord). */
const wireParts = new Map<string, WireParts>();

export const fragment = (
  name: string,
  type: string,
  fields: string,
  uses: Fragment[] = [],
  parts: WireParts = {},
): Fragment => {
  // A name is one record: two fragments of one name would share one set of wire parts.
  if (wireParts.has(name)) throw new Error(`Two fragments are named ${name}: rename one`);
  wireParts.set(name, parts);
  return {
    name,
    definition: [
      `fragment ${name} on ${type} { ${fields} }`,
      ...uses.map((u) => u.definition),
    ].join('\n'),
    toString: () => `...${name}`,
  };
};

/** A nullable field this record never leaves null, described for this wire: a WireParts value. */
export const neverNull =
  (description: string) =>
  ({ schema, map }: Derived): Derived => ({
    schema: (schema as z.ZodNullable<z.ZodType>).unwrap().describe(description),
    map,
  });

/** Wire names: the partner family is snake_case, the establishment family keeps GraphQL's. */
const WIRE_CASE: Record<ApiFamily, (graphqlName: string) => string> = {
  partner: (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
  establishment: (name) => name,
};

/** The success body around an answer: the partner family's `{ data }`, the establishment's bare. */
const ENVELOPE: Record<ApiFamily, (answer: unknown) => unknown> = {
  partner: (data) => ({ data }),
  establishment: (answer) => answer,
};

/** Scalars on the wire. IDs are the records' UUIDv7s; JSON is the caller's own, passed as is. */
const SCALARS: Record<string, () => z.ZodType> = {
  ID: () => z.uuid(),
  String: () => z.string(),
  Boolean: () => z.boolean(),
  Int: () => z.number().int(),
  SafeInt: () => z.number().int(),
  Float: () => z.number(),
  DateTime: () => z.iso.datetime(),
  JSON: () => z.unknown(),
};

/** Maps one GraphQL value (as `execute` answers it) to its wire value. */
type Mapper = (value: unknown) => unknown;
export type Derived = { schema: z.ZodType; map: Mapper };
/** A record's: its schema is an object, which a hand-written answer may extend or pick from. */
export type DerivedRecord = { schema: z.ZodObject; map: Mapper };
const same: Mapper = (value) => value;

type Walk = { family: ApiFamily; fragments: Map<string, FragmentDefinitionNode> };

/** Named records by family: one schema per name, so every row spreading it shares it. */
const named = new Map<string, { selection: string; record: DerivedRecord }>();

const describe = <T extends z.ZodType>(schema: T, description: string | null | undefined): T =>
  description ? schema.describe(description) : schema;

/** A value of this type: nullable unless the schema says non-null. */
function valueOf(type: GraphQLOutputType, node: FieldNode, walk: Walk): Derived {
  if (isNonNullType(type)) return present(type.ofType, node, walk);
  const inner = present(type, node, walk);
  // JSON is anything, null included: `anyOf: [{}, null]` would say nothing more.
  if (inner.schema.safeParse(null).success) return inner;
  return { schema: inner.schema.nullable(), map: (v) => (v == null ? null : inner.map(v)) };
}

/** A value that is there, by its type. */
function present(type: GraphQLOutputType, node: FieldNode, walk: Walk): Derived {
  if (isNonNullType(type)) return present(type.ofType, node, walk);
  if (isListType(type)) {
    const item = valueOf(type.ofType, node, walk);
    return { schema: z.array(item.schema), map: (v) => (v as unknown[]).map(item.map) };
  }
  if (isScalarType(type)) {
    const scalar = SCALARS[type.name];
    if (!scalar) throw new Error(`No wire form for the scalar ${type.name}`);
    return { schema: scalar(), map: same };
  }
  if (isEnumType(type)) {
    const values = type.getValues().map((v) => v.name) as [string, ...string[]];
    return { schema: describe(z.enum(values), type.description), map: same };
  }
  if (isObjectType(type)) return recordOf(type, node.selectionSet, walk);
  throw new Error(`No wire form for ${String(type)} (interfaces and unions are not derived)`);
}

/** The fields of a selection, fragment spreads expanded in place, each with its record's parts. */
function fieldsOf(
  selectionSet: SelectionSetNode,
  walk: Walk,
  parts: WireParts | undefined,
): [FieldNode, WireParts | undefined][] {
  return selectionSet.selections.flatMap((s): [FieldNode, WireParts | undefined][] => {
    if (s.kind === Kind.FIELD) return [[s, parts]];
    if (s.kind === Kind.FRAGMENT_SPREAD) {
      const definition = walk.fragments.get(s.name.value);
      if (!definition) throw new Error(`No fragment ${s.name.value} in the operation`);
      return fieldsOf(definition.selectionSet, walk, wireParts.get(s.name.value));
    }
    throw new Error('Inline fragments are not derived: select fields, or spread a fragment');
  });
}

function recordOf(
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode | undefined,
  walk: Walk,
  parts?: WireParts,
): DerivedRecord {
  if (!selectionSet) throw new Error(`${type.name} is selected without fields`);
  const only = selectionSet.selections.length === 1 ? selectionSet.selections[0] : undefined;
  if (only?.kind === Kind.FRAGMENT_SPREAD) return namedRecord(only.name.value, type, walk);
  const wire = WIRE_CASE[walk.family];
  const shape: Record<string, z.ZodType> = {};
  // Each field: its key in GraphQL's value, its wire name (null: a spread record's fields
  // stand beside), and its value's mapping. A loop over tuples, not a closure per field: this
  // runs for every record of every answer.
  const fields: [string, string | null, Mapper][] = [];
  for (const [node, fieldParts] of fieldsOf(selectionSet, walk, parts)) {
    const field = type.getFields()[node.name.value];
    if (!field) throw new Error(`${type.name} has no field ${node.name.value}`);
    const key = node.alias?.value ?? node.name.value;
    // A JSON field may state its shape (`extensions: { jsonShape }` on the GraphQL field).
    const jsonShape = (field.extensions as { jsonShape?: z.ZodType }).jsonShape;
    const value = jsonShape
      ? { schema: isNonNullType(field.type) ? jsonShape : jsonShape.nullable(), map: same }
      : valueOf(field.type, node, walk);
    const derived = { schema: describe(value.schema, field.description), map: value.map };
    const onWire = fieldParts?.values?.[key]?.(derived) ?? derived;
    if (fieldParts?.spread?.includes(key)) {
      if (!(onWire.schema instanceof z.ZodObject))
        throw new Error(`${type.name}.${key} is spread, so must be a record that is always there`);
      Object.assign(shape, onWire.schema.shape);
      fields.push([key, null, onWire.map]);
    } else {
      shape[wire(key)] = onWire.schema;
      fields.push([key, wire(key), onWire.map]);
    }
  }
  const map: Mapper = (v) => {
    const from = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, name, mapValue] of fields) {
      if (name === null) Object.assign(out, mapValue(from[key]));
      else out[name] = mapValue(from[key]);
    }
    return out;
  };
  return { schema: describe(z.object(shape), type.description), map };
}

/** A record selected by a fragment alone: named after it, the same schema wherever spread. */
function namedRecord(name: string, type: GraphQLObjectType, walk: Walk): DerivedRecord {
  const definition = walk.fragments.get(name);
  if (!definition) throw new Error(`No fragment ${name} in the operation`);
  const selection = print(definition);
  const key = `${walk.family} ${name}`;
  const known = named.get(key);
  if (known) {
    if (known.selection !== selection)
      throw new Error(`Two fragments named ${name} select different fields: rename one`);
    return known.record;
  }
  const parts = wireParts.get(name);
  const record = recordOf(type, definition.selectionSet, walk, parts);
  const schema = describe(record.schema, parts?.description).meta({ id: name });
  named.set(key, { selection, record: { ...record, schema } });
  return { ...record, schema };
}

const child = (node: FieldNode, name: string) =>
  node.selectionSet?.selections.find(
    (s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === name,
  );

/**
 * Where a page's nodes are: down single-field selections (`customer { coinMovements }`) to the
 * connection, then its `edges { node }`.
 */
function connectionOf(node: FieldNode, on: GraphQLObjectType, path: string[] = []) {
  const type = getNamedType(on.getFields()[node.name.value]!.type);
  if (!isObjectType(type)) throw new Error(`${node.name.value} is not a connection`);
  path.push(node.alias?.value ?? node.name.value);
  const edges = child(node, 'edges');
  if (edges) {
    const edge = getNamedType(type.getFields().edges!.type) as GraphQLObjectType;
    const nodeType = getNamedType(edge.getFields().node!.type) as GraphQLObjectType;
    return { path, nodeField: child(edges, 'node')!, nodeType };
  }
  const inner = node.selectionSet?.selections ?? [];
  const next = inner[0];
  if (inner.length !== 1 || next?.kind !== Kind.FIELD)
    throw new Error(`No connection under ${node.name.value}`);
  return connectionOf(next, type, path);
}

/** The one field a root field selects, when that field selects fields of its own. */
function answerBelow(node: FieldNode): FieldNode | undefined {
  const selections = node.selectionSet?.selections ?? [];
  const only = selections.length === 1 ? selections[0] : undefined;
  return only?.kind === Kind.FIELD && only.selectionSet ? only : undefined;
}

const at = (data: unknown, path: string[]) =>
  path.reduce((v, key) => (v as Record<string, unknown>)[key], data);

/**
 * A row's `response` and `result` from its operation: the answer is the one root field's value
 * (or, for a page, the nodes of the connection under it).
 */
export function deriveAnswer(row: { family: ApiFamily; operation: string; paginated?: boolean }): {
  response: z.ZodType;
  result: (data: Record<string, unknown>) => unknown;
} {
  const schema = getSchema();
  const document: DocumentNode = parse(row.operation);
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation;
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    if (d.kind === Kind.OPERATION_DEFINITION) operation = d;
  }
  const node = operation?.selectionSet.selections[0];
  if (operation?.selectionSet.selections.length !== 1 || node?.kind !== Kind.FIELD)
    throw new Error(`An answer is derived from one root field:\n${row.operation}`);
  const root =
    operation.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
  const walk: Walk = { family: row.family, fragments };
  if (row.paginated) {
    if (row.family !== 'partner') throw new Error('Only cursor pages are derived');
    const { path, nodeField, nodeType } = connectionOf(node, root);
    const record = recordOf(nodeType, nodeField.selectionSet, walk);
    return {
      response: record.schema,
      result: (data) => toPage(at(data, path), record.map as (node: never) => unknown),
    };
  }
  // Documented as there: a field that finds nothing raises not_found (null is passed on as is).
  const key = node.alias?.value ?? node.name.value;
  const below = answerBelow(node);
  if (below) {
    // One field below the root: `acquirePlayerOrder(…) { record(type: Acquisition) { … } }`
    // answers the record, as a page's nodes are found below the field that holds them.
    const on = getNamedType(root.getFields()[node.name.value]!.type) as GraphQLObjectType;
    const answer = present(on.getFields()[below.name.value]!.type, below, walk);
    const inner = below.alias?.value ?? below.name.value;
    return {
      response: answer.schema,
      result: (data) => {
        const value = (data[key] as Record<string, unknown> | null)?.[inner];
        return ENVELOPE[row.family](value == null ? null : answer.map(value));
      },
    };
  }
  const answer = present(root.getFields()[node.name.value]!.type, node, walk);
  return {
    response: answer.schema,
    result: (data) => ENVELOPE[row.family](data[key] == null ? null : answer.map(data[key])),
  };
}

/**
 * A fragment's record on a family's wire, for what is not one route's answer: event data, and
 * records a hand-written answer nests.
 */
export function wireRecord(family: ApiFamily, record: Fragment): DerivedRecord {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of parse(record.definition).definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const type = getSchema().getType(fragments.get(record.name)!.typeCondition.name.value);
  if (!isObjectType(type)) throw new Error(`${record.name} is not on an object type`);
  return namedRecord(record.name, type, { family, fragments });
}
