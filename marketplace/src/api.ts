// The marketplace's one GraphQL client: POST /graphql with the store session as the bearer (never
// a cookie: third-party cookies are blocked in iframes) and the document's id, never its text
// (the server runs only these trusted documents). Each mutation carries an Idempotency-Key.
import type { TadaDocumentNode } from 'gql.tada';
import ids from './document-ids.json';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let token = '';
let onEnded: () => void = () => {};
/** Answers the server gave with the page, each used once, for exactly its variables. */
let preloaded: { name: string; variables: unknown; data: unknown }[] = [];

export function setPreloaded(answers: typeof preloaded): void {
  preloaded = answers;
}

/**
 * The session the client sends from now on: set before anything renders with it (a screen's
 * query may run before its parent's effects do).
 */
export function setToken(next: string): void {
  token = next;
}

/** What to do when the server says the session has ended. */
export function onSessionEnded(ended: () => void): void {
  onEnded = ended;
}

type Definition = { kind: string; name?: { value: string } };
const nameOf = (document: { definitions: readonly unknown[] }) =>
  (document.definitions as Definition[]).find((d) => d.kind === 'OperationDefinition')?.name
    ?.value ?? '';

/**
 * The answer the server gave with the page for this document and exactly these variables, once;
 * synchronous, so a screen's first render can use it.
 */
export function takePreloaded<Data, Variables>(
  document: TadaDocumentNode<Data, Variables>,
  variables: Variables,
): Data | null {
  const name = nameOf(document);
  const given = JSON.stringify(variables);
  const at = preloaded.findIndex((p) => p.name === name && JSON.stringify(p.variables) === given);
  return at >= 0 ? (preloaded.splice(at, 1)[0]!.data as Data) : null;
}

/** Runs one of the trusted documents; `key` for a mutation (the same key for a re-send). */
export async function run<Data, Variables>(
  document: TadaDocumentNode<Data, Variables>,
  variables: Variables,
  key?: string,
): Promise<Data> {
  const name = nameOf(document);
  if (!key) {
    const early = takePreloaded(document, variables);
    if (early) return early;
  }
  const documentId = (ids as Record<string, string>)[name];
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      credentials: 'omit',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify({ documentId, variables }),
    });
  } catch {
    throw new ApiError('network', 'The connection was lost.');
  }
  const body = (await res.json().catch(() => null)) as {
    data?: Data | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  } | null;
  const error = body?.errors?.[0];
  if (res.status === 401 || error?.extensions?.code === 'unauthorized') {
    onEnded();
    throw new ApiError('unauthorized', error?.message ?? 'The session has ended.');
  }
  if (error || !body?.data) {
    throw new ApiError(error?.extensions?.code ?? 'error', error?.message ?? `HTTP ${res.status}`);
  }
  return body.data;
}

/** A fresh Idempotency-Key. */
export const newKey = () => crypto.randomUUID();
