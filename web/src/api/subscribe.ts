// Live screens: a GraphQL subscription over server-sent events (docs/backoffice.md, "Live
// updates"). EventSource cannot send the CSRF header, so this is fetch with a streamed body:
// POST with Accept: text/event-stream and the session's headers, read event by event. The server
// pushes the whole answer at once and after each change; a stream that drops (a server restart,
// a network change, the server's 10-minute bound) is opened again, at once the first time and
// then after 1, 2, 4… up to 30 s. A refusal (not found, forbidden) is shown and not retried.
import { useEffect, useRef, useState } from 'react';
import { CombinedError, stringifyDocument, type TypedDocumentNode } from 'urql';
import { tenantHeaders } from './client';
import { useSession } from './session';

export type LiveState = 'connecting' | 'live' | 'reconnecting';

type Payload<D> = {
  data?: D | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
};

/** Codes worth another try; any other refusal stays refused. */
const PASSING = new Set([
  'internal_error',
  'service_unavailable',
  'rate_limited',
  'too_many_requests',
]);
const MAX_DELAY_MS = 30_000;

/** The wait before attempt `n` (0: the stream just ended after answering): 0, ~1, ~2, ~4… 30 s. */
export const backoffMs = (n: number) =>
  n === 0 ? 0 : Math.min(MAX_DELAY_MS, 1000 * 2 ** (n - 1)) * (0.75 + Math.random() / 2);

/** Reads an SSE body, calling `onNext` with each `next` event's payload until it says stop. */
async function readEvents<D>(
  body: ReadableStream<Uint8Array>,
  onNext: (p: Payload<D>) => 'stop' | void,
) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (event === 'next' && data.length) {
        if (onNext(JSON.parse(data.join('\n')) as Payload<D>) === 'stop') {
          await reader.cancel().catch(() => {});
          return;
        }
      }
      if (event === 'complete') return;
    }
  }
}

const errorOf = (p: Payload<unknown>, requestId: string | null) =>
  new CombinedError({
    graphQLErrors: (p.errors ?? []).map((e) => ({
      ...e,
      extensions: { ...e.extensions, requestId },
    })),
  });

/**
 * A subscription's latest answer, pushed by the server, with the stream's state. `pause` closes
 * it, and so does an answer `until` accepts (a finished tournament no longer changes); new
 * variables open a new one.
 */
export function useLive<D, V extends Record<string, unknown>>(
  document: TypedDocumentNode<D, V>,
  variables: V,
  options: { pause?: boolean; until?: (data: D) => boolean } = {},
): { data: D | null; error: CombinedError | null; state: LiveState } {
  const { session, setSession, subBrandId, environment } = useSession();
  const csrf = session?.csrfToken ?? '';
  const [data, setData] = useState<D | null>(null);
  const [error, setError] = useState<CombinedError | null>(null);
  const [state, setState] = useState<LiveState>('connecting');
  const query = useRef(stringifyDocument(document)).current;
  const vars = JSON.stringify(variables);
  const pause = options.pause ?? false;
  const until = useRef(options.until);
  useEffect(() => {
    until.current = options.until;
  });
  useEffect(() => {
    if (pause || !csrf) return;
    const abort = new AbortController();
    const signal = abort.signal;
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    void (async () => {
      let attempt = 0;
      setState('connecting');
      while (!signal.aborted) {
        let refused = false; // or finished: either way, no other attempt
        try {
          const res = await fetch('/graphql', {
            method: 'POST',
            credentials: 'same-origin',
            headers: {
              'content-type': 'application/json',
              accept: 'text/event-stream',
              ...tenantHeaders(csrf, { subBrandId, environment }),
            },
            body: JSON.stringify({ query, variables: JSON.parse(vars) as V }),
            signal,
          });
          const requestId = res.headers.get('x-request-id');
          if (res.status === 401) return setSession(null);
          if (!res.ok || !res.body || !/event-stream/.test(res.headers.get('content-type') ?? '')) {
            // Refused before GraphQL ran: the API's envelope or GraphQL's errors.
            const body = (await res.json().catch(() => null)) as
              (Payload<D> & { error?: { code: string; message: string } }) | null;
            const p: Payload<D> = body?.error
              ? { errors: [{ message: body.error.message, extensions: { code: body.error.code } }] }
              : (body ?? { errors: [{ message: `The server answered ${res.status}.` }] });
            setError(errorOf(p, requestId));
            refused = res.status < 500 && res.status !== 429;
          } else {
            await readEvents<D>(res.body, (p) => {
              if (p.data) {
                setData(p.data);
                setError(null);
                setState('live');
                attempt = 0;
                if (until.current?.(p.data)) {
                  refused = true;
                  return 'stop';
                }
              } else if (p.errors?.length) {
                setError(errorOf(p, requestId));
                const code = p.errors[0]?.extensions?.code;
                refused = !PASSING.has(String(code));
                if (refused) return 'stop';
              }
            });
          }
        } catch {
          if (signal.aborted) return;
        }
        if (refused || signal.aborted) return;
        setState('reconnecting');
        await sleep(backoffMs(attempt++));
      }
    })();
    return () => abort.abort();
  }, [query, vars, pause, csrf, subBrandId, environment, setSession]);
  return { data, error, state };
}
