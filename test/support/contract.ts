// A contract checker, as a validating proxy (Prism's) would be: each answer is matched to its
// operation in the served OpenAPI document, its status must be one the operation declares, and
// its body must validate against the declared schema (Ajv, JSON Schema 2020-12, the OpenAPI 3.1
// dialect), named components included.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Reply } from './harness.js';

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, any> }>>;
  components: Record<string, unknown>;
};

export function contractOf(doc: Doc, prefix = '') {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const cache = new Map<string, ValidateFunction>();
  // Literal paths before templated ones: `/players/search` is not `/players/{playerId}`.
  const templates = Object.keys(doc.paths)
    .sort((a, b) => a.split('{').length - b.split('{').length)
    .map((template) => ({
      template,
      regex: new RegExp(`^${prefix}${template.replace(/\{\w+\}/g, '[^/]+')}$`),
    }));

  /** Problems with one answer (empty when it matches the document). */
  return function check(method: string, url: string, reply: Reply): string[] {
    const path = url.split('?')[0]!;
    const found = templates.find((t) => t.regex.test(path));
    const op = found && doc.paths[found.template]![method.toLowerCase()];
    if (!op) return [`${method} ${path}: no operation in the document`];
    const where = `${method} ${found.template} ${reply.status}`;
    const response = op.responses[String(reply.status)];
    if (!response) return [`${where}: status not declared`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return [];
    const id = `${method} ${found.template} ${reply.status}`;
    let validate = cache.get(id);
    if (!validate) {
      // References point into the document: `#/components/...` becomes `doc#/components/...`.
      const rebased = JSON.parse(
        JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/'),
      );
      validate = ajv.compile(rebased);
      cache.set(id, validate);
    }
    return validate(reply.body)
      ? []
      : [`${where}: ${ajv.errorsText(validate.errors, { separator: '; ' })}`];
  };
}
