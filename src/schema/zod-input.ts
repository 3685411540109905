// GraphQL input types derived from the domain's zod input schemas (issue 30): a body the domain
// validates is written once, in its zod schema, and GraphQL states its fields, types, enums and
// descriptions instead of taking it as JSON. The domain still validates every rule GraphQL cannot
// say (lengths, ranges, patterns, which fields go together), with its own field errors.
//
// What GraphQL input types cannot say stays JSON, with the zod description: maps keyed by the
// caller (texts by language), unions of objects and scalars, anything unknown. A union of strings
// (a uuid or "none") is a String.
import type { InputFieldRef, InputObjectRef } from '@pothos/core';
import type { z } from 'zod';
import { builder } from './builder.js';

/** The Pothos type a field takes: a scalar's name, a derived type, or a list of one. */
type InputType =
  | 'String'
  | 'ID'
  | 'Int'
  | 'SafeInt'
  | 'Float'
  | 'Boolean'
  | 'JSON'
  | InputObjectRef<typeof builder.$inferSchemaTypes, unknown>
  | ReturnType<typeof builder.enumType>;
type FieldType = InputType | [InputType];

type Def = z.core.$ZodTypeDef & Record<string, unknown>;
const defOf = (schema: z.core.$ZodType) => schema._zod.def as Def;

const INT32 = 2 ** 31;
const pascal = (key: string) => key.charAt(0).toUpperCase() + key.slice(1);

/** One GraphQL type per zod schema: a schema shared by two bodies is one type (its first name). */
const derived = new WeakMap<z.core.$ZodType, InputType>();

/** GraphQL enums by their values: one list of words is one enum, whoever declares it first. */
const enums = new Map<string, ReturnType<typeof builder.enumType>>();

/**
 * The enum of these values: the one already declared with them (`Language`, `PrizeCategory`),
 * else a new one named `name`. Input types resolve their fields when the schema is built, after
 * every module has declared its enums, so an input reuses them whatever the import order.
 */
export function enumOf<const V extends readonly string[]>(
  name: string,
  values: V,
  description?: string,
) {
  const key = [...values].sort().join('|');
  const known = enums.get(key);
  if (known) return known as ReturnType<typeof builder.enumType<V[number], V>>;
  const type = builder.enumType(name, { values, ...(description ? { description } : {}) });
  enums.set(key, type);
  return type;
}

/** Wrappers that do not change what a caller sends: optional, nullable, default, checks. */
function unwrap(schema: z.core.$ZodType): { inner: z.core.$ZodType; required: boolean } {
  let inner = schema;
  let required = true;
  for (;;) {
    const def = defOf(inner);
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') {
      required = false;
      inner = def.innerType as z.core.$ZodType;
    } else if (def.type === 'pipe') {
      inner = def.in as z.core.$ZodType; // what is sent is the pipe's input
    } else return { inner, required };
  }
}

const isStringLike = (schema: z.core.$ZodType): boolean => {
  const def = defOf(unwrap(schema).inner);
  if (def.type === 'string') return true;
  if (def.type === 'literal') return (def.values as unknown[]).every((v) => typeof v === 'string');
  if (def.type === 'enum') return true;
  return false;
};

function typeOf(schema: z.core.$ZodType, name: string): FieldType {
  const known = derived.get(schema);
  if (known) return known;
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return (def as { format?: string }).format === 'uuid' ? 'ID' : 'String';
    case 'boolean':
      return 'Boolean';
    case 'number': {
      const n = schema as unknown as z.ZodNumber;
      if (!n.isInt) return 'Float';
      const small = (n.minValue ?? -Infinity) >= -INT32 && (n.maxValue ?? Infinity) < INT32;
      return small ? 'Int' : 'SafeInt';
    }
    case 'enum': {
      const type = enumOf(name, Object.values(def.entries as Record<string, string>));
      derived.set(schema, type);
      return type;
    }
    case 'array': {
      const item = typeOf(unwrap(def.element as z.core.$ZodType).inner, `${name}Item`);
      return [item as InputType];
    }
    case 'object': {
      const type = inputTypeOf(name, schema as z.core.$ZodObject);
      derived.set(schema, type);
      return type;
    }
    case 'union':
      return (def.options as z.core.$ZodType[]).every(isStringLike) ? 'String' : 'JSON';
    case 'literal': {
      const values = def.values as unknown[];
      if (values.every((v) => typeof v === 'string')) return 'String';
      if (values.every((v) => typeof v === 'boolean')) return 'Boolean'; // `termsAccepted: true`
      return 'JSON';
    }
    default:
      return 'JSON'; // records (maps), unknown, and anything GraphQL inputs cannot state
  }
}

/**
 * The GraphQL input type of a zod object, named `name`; its nested objects and enums are named
 * after it and their field (`${name}${Field}`).
 */
export function inputTypeOf(
  name: string,
  schema: z.core.$ZodObject,
): InputObjectRef<typeof builder.$inferSchemaTypes, unknown> {
  const shape = (schema._zod.def as { shape: Record<string, z.core.$ZodType> }).shape;
  const description = (schema as unknown as z.ZodType).description;
  return builder.inputType(name, {
    ...(description ? { description } : {}),
    fields: (t) =>
      Object.fromEntries(
        Object.entries(shape).map(
          ([key, field]): [string, InputFieldRef<typeof builder.$inferSchemaTypes, unknown>] => {
            const { inner, required } = unwrap(field);
            const description =
              (field as unknown as z.ZodType).description ??
              (inner as unknown as z.ZodType).description;
            const type = typeOf(inner, `${name}${pascal(key)}`);
            return [
              key,
              t.field({
                type: type as never, // a type derived at start: Pothos cannot infer it statically
                required,
                ...(description ? { description } : {}),
              }) as InputFieldRef<typeof builder.$inferSchemaTypes, unknown>,
            ];
          },
        ),
      ),
  });
}
