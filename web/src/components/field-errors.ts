// The API's per-field problems (`extensions.issues` of a refused GraphQL mutation, the domain's
// FieldIssue list), so a form shows each one under the input it is about.
import type { CombinedError } from 'urql';

export type FieldErrors = {
  /** The message for exactly this field (`title`, `prizes.0.rank`), if any. */
  of: (field: string) => string | undefined;
  /** Every message for this field and the fields inside it (`targeting` → `targeting.conditions.0.value`). */
  under: (prefix: string) => string | undefined;
  /** True when at least one problem names a field. */
  any: boolean;
};

type Issue = { field: string; message: string };

export function fieldErrors(error: CombinedError | null | undefined): FieldErrors {
  const issues = (error?.graphQLErrors ?? []).flatMap(
    (e) => ((e.extensions as { issues?: Issue[] } | undefined)?.issues ?? []) as Issue[],
  );
  const byField = new Map<string, string>();
  for (const i of issues)
    byField.set(
      i.field,
      byField.has(i.field) ? `${byField.get(i.field)}; ${i.message}` : i.message,
    );
  return {
    of: (field) => byField.get(field),
    under: (prefix) => {
      const found = issues.filter((i) => i.field === prefix || i.field.startsWith(`${prefix}.`));
      return found.length
        ? found
            .map((i) =>
              i.field === prefix ? i.message : `${i.field.slice(prefix.length + 1)}: ${i.message}`,
            )
            .join('; ')
        : undefined;
    },
    any: issues.length > 0,
  };
}
