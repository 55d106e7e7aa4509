/**
 * Fastify's response serializers, built as its default compiler builds them (fast-json-stringify, the shared schemas
 * of app.addSchema at hand), but compiled once per process for each response schema, by its text: the same routes'
 * schemas come again with every app a process builds (the tests build hundreds, a tenth of a second each), and a
 * serializer keeps no state between calls.
 */
import fastJsonStringify, { type Options, type Schema } from 'fast-json-stringify';
import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;
type Serializer = (data: unknown) => string;

const serializers = new Map<string, Serializer>();

export const buildSerializer: SerializerFactory = (externalSchemas, serializerOptions) => {
  const options: Options = { ...serializerOptions, schema: externalSchemas as Options['schema'] };
  const optionsText = JSON.stringify(options);
  return ({ schema }) => {
    const key = `${optionsText}\n${JSON.stringify(schema)}`;
    let serializer = serializers.get(key);
    if (!serializer) {
      serializer = fastJsonStringify(schema as Schema, withoutItself(options, schema as Schema)) as Serializer;
      serializers.set(key, serializer);
    }
    return serializer;
  };
};

/** A shared schema used as a route's own is left out of the shared ones, as Fastify's default compiler does. */
function withoutItself(options: Options, schema: Schema): Options {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string' || !options.schema?.[id]) return options;
  const { [id]: _itself, ...others } = options.schema;
  return { ...options, schema: others };
}
