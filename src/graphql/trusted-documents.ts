// A player (a store session, the marketplace) runs only the marketplace's own documents, sent by
// id: trusted documents, as GraphQL's persisted operations are called (docs/marketplace.md). The
// id is the SHA-256 of the document's text; the text comes from the committed list, never from
// the request, and then goes through the same charge, limits and rate budget as any document.
import type { RequestHandler } from 'express';
import { AppError } from '../domain/errors.js';
import { locals } from '../http/locals.js';
import { TRUSTED_DOCUMENTS } from './trusted-documents.generated.js';

export const trustedDocuments: RequestHandler = (req, res, next) => {
  if (!locals(res).principal?.player) return next();
  const body = (req.method === 'POST' ? req.body : undefined) as
    Record<string, unknown> | undefined;
  if (!body || body.query !== undefined || typeof body.documentId !== 'string') {
    throw new AppError(
      'forbidden',
      'A store session runs the marketplace’s own documents only: POST { documentId, variables }.',
    );
  }
  const text = TRUSTED_DOCUMENTS[body.documentId];
  if (text === undefined) {
    throw new AppError(
      'invalid_request',
      'Unknown documentId: the marketplace’s documents are those of its current version (reload the page).',
    );
  }
  // From here on it is a document like any other (yoga takes no `documentId`).
  body.query = text;
  delete body.documentId;
  next();
};
