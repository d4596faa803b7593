import { existsSync, readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { ServiceName } from '@shop/contracts';
import { inspectService, type ControllerRoute } from '@shop/nest-common';
import { AppModule as CartModule } from '../../services/cart/src/app.module';
import { AppModule as CatalogModule } from '../../services/catalog/src/app.module';
import { AppModule as CheckoutModule } from '../../services/checkout/src/app.module';
import { AppModule as IdentityModule } from '../../services/identity/src/app.module';
import { AppModule as OrdersModule } from '../../services/orders/src/app.module';
import { mergeApiDocuments, type OpenApiDocument } from '../src/api-docs/merge';
import { API_DOCUMENT_FILE } from '../src/api-docs/serve';
import { isBackendPath, matchRoute, ROUTES } from '../src/routes';

/**
 * The document at GET /api/docs against the code: every route a controller declares and the gateway proxies is
 * in it, with its auth; every prefix of the gateway's route table is; nothing else is; it validates as OpenAPI 3;
 * and the built file the gateway serves is the one the sources make. Controller routes are read from Nest's own
 * metadata (the router's source), not from the documents, so a route without swagger decorators is still seen.
 */
const MODULES: Record<ServiceName, unknown> = {
  catalog: CatalogModule,
  cart: CartModule,
  identity: IdentityModule,
  checkout: CheckoutModule,
  orders: OrdersModule,
};

type Operation = {
  tags?: string[];
  summary?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string }>;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
};

describe('GET /api/docs is generated from the code', () => {
  let routes: Array<ControllerRoute & { service: ServiceName }>;
  let merged: OpenApiDocument;
  const operation = (method: string, path: string) => merged.paths[path]?.[method] as Operation | undefined;

  beforeAll(async () => {
    const inspected = await Promise.all(
      (Object.entries(MODULES) as Array<[ServiceName, unknown]>).map(async ([service, module]) => ({
        service,
        ...(await inspectService(service, module)),
      })),
    );
    routes = inspected.flatMap(({ service, routes }) => routes.map((r) => ({ ...r, service })));
    merged = mergeApiDocuments(inspected.map(({ service, document }) => ({ service, document: document as never })));
  });

  it('finds the controllers (sanity: the enumeration itself works)', () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes).toContainEqual(expect.objectContaining({ method: 'put', path: '/api/admin/orders/{id}' }));
  });

  it('documents every controller route the gateway proxies, under the service that answers it', () => {
    const missing = routes
      .filter((r) => isBackendPath(r.path) && !operation(r.method, r.path))
      .map((r) => `${r.method.toUpperCase()} ${r.path} (${r.service} ${r.controller}.${r.handler})`);
    expect(missing).toEqual([]);
    const misrouted = routes
      .filter((r) => isBackendPath(r.path) && matchRoute(r.path)?.service !== r.service)
      .map(
        (r) =>
          `${r.method.toUpperCase()} ${r.path}: declared by ${r.service}, routed to ${matchRoute(r.path)?.service}`,
      );
    expect(misrouted).toEqual([]);
  });

  it('documents every prefix of the gateway route table, and nothing that is not served', () => {
    const documented = Object.keys(merged.paths);
    const uncovered = ROUTES.filter((r) => !documented.some((p) => p === r.prefix || p.startsWith(`${r.prefix}/`)));
    expect(uncovered).toEqual([]);
    const declared = new Set(routes.map((r) => `${r.method} ${r.path}`));
    const phantom = Object.entries(merged.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
      .filter((op) => op !== 'get /api/docs' && !declared.has(op));
    expect(phantom).toEqual([]);
    // operational endpoints (/health, /ready, metrics) are not public
    expect(documented.filter((p) => !isBackendPath(p))).toEqual([]);
  });

  it('marks auth as the guard enforces it: bearer where required, optional for carts, none on public routes', () => {
    const wrong: string[] = [];
    for (const r of routes.filter((route) => isBackendPath(route.path))) {
      const op = operation(r.method, r.path)!;
      const security = JSON.stringify(op.security ?? []);
      const expected = r.optional
        ? JSON.stringify([{}, { bearerAuth: [] }])
        : r.roles
          ? JSON.stringify([{ bearerAuth: [] }])
          : '[]';
      if (security !== expected) wrong.push(`${r.method} ${r.path}: security ${security}, expected ${expected}`);
      if ((r.roles || r.optional) && !op.responses['401']) wrong.push(`${r.method} ${r.path}: no 401`);
      if (r.roles?.includes('admin') && !op.responses['403']) wrong.push(`${r.method} ${r.path}: no 403`);
    }
    expect(wrong).toEqual([]);
  });

  it('gives every operation a tag, a summary, a success response and errors in the one error shape', () => {
    const wrong: string[] = [];
    for (const [path, item] of Object.entries(merged.paths)) {
      for (const [method, value] of Object.entries(item)) {
        const op = value as Operation;
        const where = `${method.toUpperCase()} ${path}`;
        if (!op.tags?.length) wrong.push(`${where}: no tag`);
        if (!op.summary) wrong.push(`${where}: no summary`);
        const statuses = Object.keys(op.responses);
        if (!statuses.some((s) => /^2\d\d$/.test(s))) wrong.push(`${where}: no 2xx response`);
        for (const status of statuses.filter((s) => Number(s) >= 400)) {
          const ref = op.responses[status].content?.['application/json']?.schema?.$ref;
          if (ref !== '#/components/schemas/ApiErrorBody')
            wrong.push(`${where}: ${status} is not {message, statusCode}`);
        }
        const idParam = op.parameters?.some((p) => p.in === 'path' && p.name === 'id');
        if (idParam && !op.responses['400']) wrong.push(`${where}: an id parameter but no 400 for a malformed one`);
      }
    }
    expect(wrong).toEqual([]);
    expect(merged.components?.schemas?.ApiErrorBody).toMatchObject({ required: ['message', 'statusCode'] });
  });

  it('validates as OpenAPI 3 (schema and references)', async () => {
    await expect(SwaggerParser.validate(structuredClone(merged) as never)).resolves.toBeDefined();
  });

  it('is what the gateway serves: the built gateway/dist/openapi.json matches the sources', () => {
    if (!existsSync(API_DOCUMENT_FILE)) throw new Error(`${API_DOCUMENT_FILE} is missing: run node scripts/build.mjs`);
    const built = JSON.parse(readFileSync(API_DOCUMENT_FILE, 'utf8'));
    // A mismatch means a stale build: node scripts/build.mjs writes it again.
    expect(built).toEqual(JSON.parse(JSON.stringify(merged)));
  });
});
