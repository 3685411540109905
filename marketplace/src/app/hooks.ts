// Small hooks the screens share: the hash route, a document loaded by variables, and an action
// (a mutation) that keeps its Idempotency-Key for a re-send of the same thing.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { TadaDocumentNode } from 'gql.tada';
import { newKey, run, type ApiError } from '../api';

export function useHash(): string {
  const [hash, setHash] = useState(window.location.hash || '#/shop');
  useEffect(() => {
    const changed = () => {
      setHash(window.location.hash || '#/shop');
      window.scrollTo(0, 0);
    };
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return hash;
}

/** A query's data, loaded again when `variables` (as JSON) or `version` change. */
export function useQuery<Data, Variables>(
  document: TadaDocumentNode<Data, Variables>,
  variables: Variables,
  version = 0,
) {
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const key = JSON.stringify(variables);
  useEffect(() => {
    let live = true;
    setError(null);
    run(document, JSON.parse(key) as Variables).then(
      (d) => live && setData(d),
      (e: ApiError) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [document, key, version]);
  return { data, error, setData };
}

/**
 * A mutation as a tap sends it: a new Idempotency-Key for a new request, the same one when the
 * same request goes again before an answer came (a double tap, a retry after a lost
 * connection), so the server applies it once.
 */
export function useAction<Data, Variables>(document: TadaDocumentNode<Data, Variables>) {
  const attempt = useRef<{ key: string; form: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const act = useCallback(
    async (variables: Variables): Promise<Data | null> => {
      const form = JSON.stringify(variables);
      if (attempt.current?.form !== form) attempt.current = { key: newKey(), form };
      setBusy(true);
      setError(null);
      try {
        const data = await run(document, variables, attempt.current.key);
        attempt.current = null;
        return data;
      } catch (e) {
        if ((e as ApiError).code !== 'network') attempt.current = null;
        setError(e as ApiError);
        return null;
      } finally {
        setBusy(false);
      }
    },
    [document],
  );
  return { act, busy, error, reset: () => setError(null) };
}
