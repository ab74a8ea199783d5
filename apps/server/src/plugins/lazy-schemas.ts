import ajvCompiler from '@fastify/ajv-compiler';
import serializerCompiler from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** A route's schema as a factory's compiler takes it (the packages' own types describe Ajv's `compile`). */
interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart?: string;
  httpStatus?: string;
}
type Compile<F> = (route: RouteSchema) => F;
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/**
 * Fastify's own compilers (Ajv for requests, fast-json-stringify for answers), each route's schema
 * compiled on its first use instead of at start: compiling all of them took about 1.5 s of CPU per
 * start (docs/PERFORMANCE.md, "Test suite"), and most starts (a test app, an instance of a cluster
 * coming up) answer a few routes. `compileAll` compiles what is still waiting, so a schema that does
 * not compile still fails a test (`lazy-schemas.test.ts` runs it over the whole app).
 */
export function lazySchemaCompilers() {
  const pending = new Set<() => unknown>();
  const validators = ajvCompiler();
  const serializers = serializerCompiler();

  const buildValidator = (...args: Parameters<typeof validators>): Compile<Validate> => {
    const compile = validators(...args) as unknown as Compile<Validate>;
    return (route) => {
      // Fastify leaves a header schema's names as written when the compiler is not its own, and
      // Node.js lowercases header names: refused at start rather than never matching. No route has one.
      if (route.httpPart === 'headers')
        throw new Error(`${route.method} ${route.url}: header schemas are not supported (lazy-schemas.ts)`);
      let compiled: Validate | undefined;
      const get = (): Validate => {
        if (!compiled) {
          compiled = compile(route);
          pending.delete(get);
        }
        return compiled;
      };
      pending.add(get);
      const validate = ((data: unknown, context?: unknown) => get()(data, context)) as Validate;
      // Fastify reads these of an Ajv function: `schemaEnv` to pass the parent (for coercion of a root
      // value), `errors` after a failed call.
      Object.defineProperty(validate, 'schemaEnv', { get: () => get().schemaEnv });
      Object.defineProperty(validate, 'errors', { get: () => get().errors });
      return validate;
    };
  };

  const buildSerializer = (...args: Parameters<typeof serializers>): Compile<(doc: unknown) => string> => {
    const compile = serializers(...args) as Compile<(doc: unknown) => string>;
    return (route) => {
      let compiled: ((doc: unknown) => string) | undefined;
      const get = () => {
        if (!compiled) {
          compiled = compile(route);
          pending.delete(get);
        }
        return compiled;
      };
      pending.add(get);
      return (doc: unknown) => get()(doc);
    };
  };

  const compilersFactory = { buildValidator, buildSerializer } as unknown as Factories;
  return {
    compilersFactory,
    compileAll(): void {
      for (const compile of [...pending]) compile();
    },
  };
}
