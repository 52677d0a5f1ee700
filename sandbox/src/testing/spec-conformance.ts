import { Ajv, type ValidateFunction } from 'ajv';
import { loadApiFacts } from '../spec/api-facts';

// Canton's OpenAPI document as derived into the repo (npm run spec:derive): the same schemas with
// their prose stripped, which ajv ignores anyway.
const { paths, schemas } = loadApiFacts().http;
// OpenAPI 3.0 formats like int32/int64 are not JSON Schema formats; types still get checked.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'spec.json', components: { schemas } });

// Literal templates first, so /v2/parties/participant-id is not taken for /v2/parties/{party}.
const templates = Object.keys(paths)
  .map((template) => ({
    template,
    parameters: template.split('{').length - 1,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }))
  .sort((a, b) => a.parameters - b.parameters);
const validators = new Map<string, ValidateFunction>();

function validatorFor(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    // Inline schemas refer to '#/components/…' of the spec document.
    const rebased = JSON.parse(
      key.replaceAll('"#/components/', '"spec.json#/components/'),
    ) as object;
    validate = ajv.compile(rebased);
    validators.set(key, validate);
  }
  return validate;
}

/**
 * Required fields the spec leaves untyped (any JSON value): their `null` is a value, kept. A
 * created event matched by interface filters alone has a `null` create argument.
 */
const UNTYPED_REQUIRED = new Set(['createArgument']);

/**
 * The real server prints absent optional fields as `null` (circe's printer keeps nulls, §0.4)
 * although the spec types them as plain strings or objects; drop them before validating.
 */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key, field]) => field !== null || UNTYPED_REQUIRED.has(key))
        .map(([key, field]) => [key, withoutNulls(field)]),
    );
  }
  return value;
}

export type ConformanceResult = { checked: boolean; errors: string[] };

/**
 * Checks one response against Canton's OpenAPI document: the status must be declared (or fall
 * under `default`), the content type must be the declared one, and a JSON body must validate
 * against its schema. Paths outside the spec (the legacy 404 route) are not checked.
 */
export function checkResponse(
  method: string,
  pathname: string,
  status: number,
  contentType: string | null,
  body: string,
): ConformanceResult {
  const match = templates.find(({ regex }) => regex.test(pathname));
  const operation = match && paths[match.template]?.[method.toLowerCase()];
  if (!operation) return { checked: false, errors: [] };
  const mediaType = (contentType ?? '').split(';')[0]?.trim() ?? '';
  // The spec declares 400 only as tapir's text/plain; the JsCantonError bodies that the server
  // sends with 400 too fall under `default`.
  const exact = operation.responses[String(status)];
  const response =
    exact && (exact.content === undefined || mediaType in exact.content)
      ? exact
      : (operation.responses.default ?? exact);
  if (!response) return { checked: true, errors: [`status ${String(status)} is not declared`] };
  const declared = Object.keys(response.content ?? {});
  if (declared.length === 0) {
    return {
      checked: true,
      errors: body === '' || body === '{}' ? [] : [`expected no body, got ${body.slice(0, 200)}`],
    };
  }
  if (!declared.includes(mediaType)) {
    return {
      checked: true,
      errors: [`content type ${mediaType} is not one of ${declared.join(', ')}`],
    };
  }
  const schema = response.content?.[mediaType]?.schema;
  if (mediaType !== 'application/json' || schema === undefined)
    return { checked: true, errors: [] };
  const validate = validatorFor(schema);
  const valid = validate(withoutNulls(JSON.parse(body)));
  return {
    checked: true,
    errors: valid
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`),
  };
}

/** Checks a value against one named schema of the spec, e.g. a websocket stream element. */
export function checkSchema(name: string, value: unknown): string[] {
  const validate = validatorFor({ $ref: `#/components/schemas/${name}` });
  return validate(withoutNulls(value))
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
