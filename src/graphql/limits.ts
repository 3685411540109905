// What one GraphQL request may ask for, and what it costs (docs/api-conventions.md, "GraphQL
// limits"). Every document is parsed and validated here, before the rate limiter and before yoga:
// the schema's rules and GraphQL Armor's limits (depth, aliases, directives; tokens bound the
// parser). A refused document never runs and is charged one read unit, whatever it asked for, and
// every refusal made here answers 400 in the same envelope (issue 29, G5). A valid one is charged
// by its cost (a query) or its root fields (a mutation): one request cannot do the work of
// thousands for the price of one.
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  getNamedType,
  GraphQLError,
  isLeafType,
  Kind,
  OperationTypeNode,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { AppError } from '../domain/errors.js';
import { CURSOR_PAGE } from '../domain/pages.js';

export const GRAPHQL_LIMITS = {
  /** Lexical tokens in the document; also bounds nesting before the parser recurses. */
  tokens: 2_000,
  /** Field nesting (introspection excepted, which GraphiQL needs). */
  depth: 10,
  aliases: 20,
  directives: 20,
  /** Objects a request may fetch, counted as below. */
  cost: 5_000,
  /** Cost bought by one unit of the read budget: a page of 100 records with its edges is ~201. */
  costPerReadUnit: 250,
} as const;

// A connection's `first`/`last` when absent, and its cap: the builder's (schema/builder.ts). This
// said 20 while the builder answered 25, so an unsized page was costed a fifth too low.
const { defaultSize: DEFAULT_PAGE, maxSize: MAX_PAGE } = CURSOR_PAGE;

/**
 * Cost counts the objects a request can return: each object-typed field is 1 plus its
 * selection, scalars are free, and a field paginated by `first`/`last` multiplies its selection
 * by the page size asked for. So nested pages multiply, as the database work does.
 */
const objectCount: ComplexityEstimator = ({ field, args, childComplexity }) => {
  if (isLeafType(getNamedType(field.type))) return 0;
  if (!field.args.some((a) => a.name === 'first' || a.name === 'last')) return 1 + childComplexity;
  const asked: unknown = args.first ?? args.last;
  const size = Math.min(MAX_PAGE, Math.max(1, typeof asked === 'number' ? asked : DEFAULT_PAGE));
  return 1 + size * childComplexity;
};

export type GraphQLCharge = {
  bucket: 'read' | 'write';
  /** Units of that bucket this request spends. */
  units: number;
  /** Set when the request is refused before it runs (the rate budget is still charged). */
  refusal?: AppError;
};

/** A document refused before it runs: GraphQL's own errors (with their locations), all of them. */
export class DocumentRefused extends AppError {
  constructor(readonly errors: readonly GraphQLError[]) {
    super('invalid_request', errors[0]!.message);
  }
}

const LIMIT_RULES = [
  ...specifiedRules,
  maxAliasesRule({ n: GRAPHQL_LIMITS.aliases, exposeLimits: true }),
  maxDepthRule({ n: GRAPHQL_LIMITS.depth, ignoreIntrospection: true, exposeLimits: true }),
  maxDirectivesRule({ n: GRAPHQL_LIMITS.directives, exposeLimits: true }),
];

/** Documents already checked, by their text: the backoffice sends the same few all day. */
const checked = new Map<string, DocumentNode | DocumentRefused>();
const CHECKED_MAX = 1_000;

/** The document, parsed and valid under the schema and the limits, or why not. */
export function checkedDocument(
  schema: GraphQLSchema,
  query: string,
): DocumentNode | DocumentRefused {
  let result = checked.get(query);
  if (result) return result;
  try {
    const document = parse(query, { maxTokens: GRAPHQL_LIMITS.tokens });
    const errors = validate(schema, document, LIMIT_RULES);
    result = errors.length ? new DocumentRefused(errors) : document;
  } catch (error) {
    const syntax = error instanceof GraphQLError ? error : new GraphQLError(String(error));
    result = new DocumentRefused([
      /more th\w+ \d+ tokens/.test(syntax.message) // graphql-js 16 says "more that"
        ? new GraphQLError(`Syntax Error: Token limit of ${GRAPHQL_LIMITS.tokens} exceeded.`)
        : syntax,
    ]);
  }
  if (checked.size >= CHECKED_MAX) checked.clear(); // a bound against a flood of distinct texts
  checked.set(query, result);
  return result;
}

/**
 * The charge of one GraphQL request: a mutation spends one write unit per root field (aliases
 * included, so 20 aliased mutations are 20 writes); a query spends read units by its cost. A
 * document refused before it runs (syntax, validation, limits, cost) spends one read unit.
 */
export function chargeOf(schema: GraphQLSchema, params: unknown): GraphQLCharge {
  const { query, variables, operationName } = (params ?? {}) as Record<string, unknown>;
  if (typeof query !== 'string') return { bucket: 'read', units: 1 }; // yoga says what is missing
  const document = checkedDocument(schema, query);
  if (document instanceof DocumentRefused) return { bucket: 'read', units: 1, refusal: document };
  const operation = pickOperation(document, operationName);
  if (!operation) return { bucket: 'read', units: 1 }; // yoga says which operation is missing
  if (operation.operation === OperationTypeNode.MUTATION) {
    return { bucket: 'write', units: Math.max(1, rootFieldCount(document, operation)) };
  }
  let cost: number;
  try {
    cost = getComplexity({
      schema,
      query: document,
      operationName: operation.name?.value,
      variables: isObject(variables) ? variables : {},
      estimators: [objectCount],
    });
  } catch {
    return { bucket: 'read', units: 1 }; // invalid variables: yoga says which
  }
  const units = Math.max(1, Math.ceil(cost / GRAPHQL_LIMITS.costPerReadUnit));
  if (cost > GRAPHQL_LIMITS.cost) {
    return {
      bucket: 'read',
      units: 1,
      refusal: new AppError(
        'invalid_request',
        `This query's cost is ${cost}, above the limit of ${GRAPHQL_LIMITS.cost} (objects it can return, ` +
          'pages multiplied by their size). Ask for smaller pages or fewer nested lists.',
      ),
    };
  }
  return { bucket: 'read', units };
}

export function pickOperation(
  document: DocumentNode,
  name: unknown,
): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (typeof name === 'string' && name) return operations.find((o) => o.name?.value === name);
  return operations.length === 1 ? operations[0] : undefined;
}

/** Root fields of the operation, through fragments (each alias is one more field). */
function rootFieldCount(document: DocumentNode, operation: OperationDefinitionNode): number {
  return rootFields(document, operation).length;
}

/** The names of the operation's root fields, through fragments, once per selection. */
export function rootFields(document: DocumentNode, operation: OperationDefinitionNode): string[] {
  const fragments = new Map(
    document.definitions.flatMap((d) =>
      d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [],
    ),
  );
  const names: string[] = [];
  const seen = new Set<string>();
  const pending = [...operation.selectionSet.selections];
  while (pending.length) {
    const selection = pending.pop()!;
    if (selection.kind === Kind.FIELD) names.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT)
      pending.push(...selection.selectionSet.selections);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      pending.push(...(fragments.get(selection.name.value)?.selectionSet.selections ?? []));
    }
  }
  return names;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
