// Errors as the API said them: message, code and the request id to quote to support.
import { Alert, Code, Text } from '@mantine/core';
import type { CombinedError } from 'urql';
import { ApiError } from '../api/http';
import { t } from '../i18n';

export type ShownError = { message: string; code: string | null; requestId: string | null };

export function describeError(error: CombinedError | Error | null | undefined): ShownError | null {
  if (!error) return null;
  if (error instanceof ApiError)
    return { message: error.message, code: error.code, requestId: error.requestId };
  const combined = error as CombinedError;
  const first = combined.graphQLErrors?.[0];
  if (first) {
    const ext = first.extensions as { code?: string; requestId?: string } | undefined;
    return { message: first.message, code: ext?.code ?? null, requestId: ext?.requestId ?? null };
  }
  return { message: combined.networkError?.message ?? error.message, code: null, requestId: null };
}

export function ErrorAlert(props: {
  error: CombinedError | Error | null | undefined;
  title?: string;
}) {
  const shown = describeError(props.error);
  if (!shown) return null;
  return (
    <Alert color="red" variant="light" title={props.title ?? t('The server refused')} role="alert">
      <Text size="sm">{shown.message}</Text>
      {(shown.code || shown.requestId) && (
        <Text size="xs" mt={4}>
          {shown.code && <Code>{shown.code}</Code>}{' '}
          {shown.requestId && (
            <>
              {t('request id')} <Code>{shown.requestId}</Code>
            </>
          )}
        </Text>
      )}
    </Alert>
  );
}
