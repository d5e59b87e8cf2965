import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export interface FieldError {
  field: string;
  message: string;
}

/**
 * Validates credential payloads against their configuration's JSON Schema. Compiled schemas are
 * cached per configuration id and schema text, so a re-registered configuration is recompiled.
 */
export class PayloadValidator {
  readonly #ajv = new Ajv({ allErrors: true, strict: false });
  readonly #compiled = new Map<string, { key: string; validate: ValidateFunction }>();
  readonly #bySchemaObject = new WeakMap<object, { id: string; validate: ValidateFunction }>();

  constructor() {
    addFormats(this.#ajv);
  }

  /** Errors as `payload.<path>` fields; empty when the payload is valid. */
  validate(configurationId: string, schema: Record<string, unknown>, payload: unknown): FieldError[] {
    const validate = this.#validator(configurationId, schema);
    if (validate(payload)) return [];
    return (validate.errors ?? []).map(toFieldError);
  }

  /** Throws on a schema that is not valid JSON Schema; used when operators register configurations. */
  assertSchema(schema: Record<string, unknown>): void {
    this.#ajv.compile(schema);
  }

  #validator(id: string, schema: Record<string, unknown>): ValidateFunction {
    // A cached configuration hands over the same frozen schema object every time: no need to serialise it.
    const bySchema = this.#bySchemaObject.get(schema);
    if (bySchema?.id === id) return bySchema.validate;
    const key = JSON.stringify(schema);
    const cached = this.#compiled.get(id);
    const validate = cached?.key === key ? cached.validate : this.#ajv.compile(schema);
    this.#compiled.set(id, { key, validate });
    if (Object.isFrozen(schema)) this.#bySchemaObject.set(schema, { id, validate });
    return validate;
  }
}

function toFieldError(e: ErrorObject): FieldError {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (e.keyword === 'required') path.push(String((e.params as { missingProperty: string }).missingProperty));
  if (e.keyword === 'additionalProperties') {
    path.push(String((e.params as { additionalProperty: string }).additionalProperty));
    return { field: ['payload', ...path].join('.'), message: 'is not a field of this credential' };
  }
  const message = e.keyword === 'required' ? 'is required' : (e.message ?? 'is not valid');
  return { field: ['payload', ...path].join('.'), message };
}
