import { isDeepStrictEqual } from 'node:util';
import type { ServiceName } from '@shop/contracts';
import { isBackendPath, matchRoute } from '../routes';

type Named = Record<string, unknown>;

/** The parts of an OpenAPI 3 document the merge reads (documents are JSON: everything else passes through). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Named>;
  components?: Record<string, Named | undefined>;
  [key: string]: unknown;
}

/** Tags in the order the browsable page shows them; a tag not listed here comes after these. */
const TAG_ORDER: Record<string, string> = {
  users: 'Register, log in, your profile (identity)',
  newsletter: 'Newsletter subscriptions (identity)',
  products: 'The public catalogue (catalog)',
  images: 'Product images (catalog)',
  cart: 'Guest and user carts (cart)',
  checkout: 'Checkouts, payment and the SPA runtime configuration (checkout)',
  orders: "A customer's orders (orders)",
  admin: 'Admin area: users, products, orders, dashboard figures',
  gateway: "The gateway's own endpoints",
};

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The gateway's own public endpoint, described here because the gateway is no Nest app. */
const GATEWAY_PATHS: OpenApiDocument['paths'] = {
  '/api/docs': {
    get: {
      tags: ['gateway'],
      summary: 'This document (OpenAPI 3, JSON); browsable at /api/docs/ui/',
      operationId: 'gateway_docs',
      responses: {
        200: { description: 'The OpenAPI document of the whole /api surface', content: { 'application/json': {} } },
        503: {
          description: 'The document was not built (run the build)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiErrorBody' } } },
        },
      },
    },
  },
};

/**
 * Merges the five services' documents into the one document of the public surface, as the gateway routes it:
 * a path the gateway does not proxy (a service's /health, /ready, /metrics) is left out, and a public path served
 * by another service than the route table says, the same operation in two documents, or one schema name with two
 * shapes is an error (the document would lie). Paths keep the services' order, then the gateway's own.
 */
export function mergeApiDocuments(
  documents: ReadonlyArray<{ service: ServiceName; document: OpenApiDocument }>,
): OpenApiDocument {
  const problems: string[] = [];
  const paths: OpenApiDocument['paths'] = {};
  const schemas: Named = {};
  const securitySchemes: Named = {};
  const tags = new Map<string, string | undefined>();
  const owners = new Map<string, ServiceName>();

  const addAll = (kind: string, into: Named, from: Named | undefined, by: ServiceName) => {
    for (const [name, value] of Object.entries(from ?? {})) {
      if (into[name] !== undefined && !isDeepStrictEqual(into[name], value)) {
        problems.push(`${kind} "${name}" differs between ${owners.get(`${kind}:${name}`)} and ${by}`);
        continue;
      }
      into[name] = value;
      if (!owners.has(`${kind}:${name}`)) owners.set(`${kind}:${name}`, by);
    }
  };

  for (const { service, document } of documents) {
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      if (!isBackendPath(path)) continue; // operational: the gateway does not proxy it
      const owner = matchRoute(path)?.service;
      if (owner !== service) {
        problems.push(
          owner
            ? `${service} declares ${path}, but the gateway routes it to ${owner}`
            : `${service} declares ${path}, which no route of the gateway's table reaches`,
        );
        continue;
      }
      const merged = (paths[path] ??= {});
      for (const [method, operation] of Object.entries(item)) {
        if (HTTP_METHODS.has(method) && merged[method] !== undefined) {
          problems.push(`${method.toUpperCase()} ${path} is declared twice`);
          continue;
        }
        merged[method] = operation;
        for (const tag of (operation as { tags?: string[] }).tags ?? []) if (!tags.has(tag)) tags.set(tag, undefined);
      }
    }
    addAll('schema', schemas, document.components?.schemas, service);
    addAll('security scheme', securitySchemes, document.components?.securitySchemes, service);
    for (const tag of document.tags ?? [])
      if (tag.description || !tags.has(tag.name)) tags.set(tag.name, tag.description);
  }
  if (problems.length)
    throw new Error(`The services' OpenAPI documents cannot be merged:\n  - ${problems.join('\n  - ')}`);

  Object.assign(paths, GATEWAY_PATHS);
  tags.set('gateway', undefined);
  const order = Object.keys(TAG_ORDER);
  const rank = (tag: string) => (order.includes(tag) ? order.indexOf(tag) : order.length);
  const tagNames = [...tags.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

  return {
    openapi: documents[0]?.document.openapi ?? '3.0.0',
    info: {
      title: 'Gridiron Store API',
      version: '1.0.0',
      description:
        'The public /api surface behind the gateway, generated from the services’ code. Prices are GBP. ' +
        'Every error is JSON `{message, statusCode}`. Every response carries `x-request-id` (send your own to ' +
        'correlate). Routes marked with a lock take `Authorization: Bearer <token>` (from register or login).',
    },
    servers: [{ url: '/' }],
    tags: tagNames.map((name) => ({ name, description: tags.get(name) ?? TAG_ORDER[name] })),
    paths,
    components: { securitySchemes, schemas },
  };
}
