// A mutation as a form submits it: every submission carries an Idempotency-Key, which the server
// requires of mutations that move coins or create records (docs/idempotency.md). The same form
// sent again before its answer came (a double click, a retry after a lost connection) keeps its
// key, so the server applies it once and answers the first's result; once an answer came, the
// next submission is a new one with a new key.
import { useCallback, useRef } from 'react';
import { useMutation, type AnyVariables, type OperationResult, type TypedDocumentNode } from 'urql';

export function useFormMutation<Data, Variables extends AnyVariables>(
  query: TypedDocumentNode<Data, Variables>,
) {
  const [state, execute] = useMutation<Data, Variables>(query);
  const attempt = useRef<{ key: string; form: string } | null>(null);
  const submit = useCallback(
    /**
     * `key`: a key of the caller's own (a bulk adjustment keeps the previewed one); `headers`:
     * more headers (another tenant's, for an order in the cross-tenant queue).
     */
    async (
      variables: Variables,
      options: { key?: string; headers?: Record<string, string> } = {},
    ): Promise<OperationResult<Data, Variables>> => {
      const form = JSON.stringify(variables);
      if (options.key) attempt.current = { key: options.key, form };
      else if (attempt.current?.form !== form) attempt.current = { key: crypto.randomUUID(), form };
      const result = await execute(variables, {
        fetchOptions: {
          headers: { ...options.headers, 'idempotency-key': attempt.current.key },
        },
      });
      // Answered (a success or a refusal): the next submission is a new one.
      if (!result.error?.networkError) attempt.current = null;
      return result;
    },
    [execute],
  );
  return [state, submit] as const;
}
