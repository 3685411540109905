// Runs a route's GraphQL operation in-process against the one schema. Documents are parsed and
// validated once (persisted operations): a route whose document does not fit the schema fails at
// start-up, not on a customer's request.
import {
  execute,
  parse,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
} from 'graphql';
import { PothosValidationError } from '@pothos/core';
import { AppError, invalidCursor } from '../domain/errors.js';
import type { GraphQLContext } from '../schema/context.js';

export class OperationStore {
  private readonly documents = new Map<string, DocumentNode>();

  constructor(private readonly schema: GraphQLSchema) {}

  /** Parses and validates a document, once. */
  prepare(source: string): DocumentNode {
    let document = this.documents.get(source);
    if (!document) {
      document = parse(source);
      const errors = validate(this.schema, document);
      if (errors.length)
        throw new Error(`Invalid persisted operation:\n${source}\n${errors.join('\n')}`);
      this.documents.set(source, document);
    }
    return document;
  }

  async run(
    source: string,
    variables: Record<string, unknown>,
    context: GraphQLContext,
  ): Promise<Record<string, unknown>> {
    const result = await execute({
      schema: this.schema,
      document: this.prepare(source),
      variableValues: variables,
      contextValue: context,
    });
    if (result.errors?.length) throw toAppError(result.errors[0]!);
    return result.data as Record<string, unknown>;
  }
}

/** The domain error behind a GraphQL error; variable coercion problems are the caller's. */
export function toAppError(error: GraphQLError): Error {
  const original = error.originalError;
  if (original instanceof AppError) return original;
  // At request time Pothos only raises these for connection arguments: a cursor we did not issue.
  if (original instanceof PothosValidationError) {
    return invalidCursor(/cursor/i.test(original.message) ? 'cursor' : '');
  }
  if (original) return original; // unexpected: the transport logs it and answers internal_error
  // No original error: the document or its variables did not fit the schema. Route inputs are
  // validated before this point, so reaching here is a bug in a route's variable mapping.
  return new Error(`GraphQL rejected a persisted operation: ${error.message}`);
}
