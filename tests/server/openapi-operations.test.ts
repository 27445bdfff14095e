import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { OPERATIONS, TAGS, flowOperations, operationTable, pascalCase } from '../../server/lib/openapi-operations';
import { testApp } from './helpers';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
}

/** "METHOD /url" of each route the document shows (HEAD copies and hidden routes are not in it). */
function documentedRoutes(routes: RouteOptions[]): string[] {
  return routes
    .filter((route) => route.method !== 'HEAD' && !(route.schema as { hide?: boolean } | undefined)?.hide)
    .map((route) => `${[route.method].flat().join(',')} ${route.url}`);
}

describe('every operation of the OpenAPI document has a name, a summary, a tag and its callers', () => {
  let app: FastifyInstance;
  let doc: { openapi: string; tags: { name: string; description: string }[]; paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    app = await testApp();
    doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  });
  afterAll(() => app?.close());

  it('is OpenAPI 3.1 (JSON Schema 2020-12: the step schemas’ if/then/else are valid)', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('has a row for every route and a route for every row (server/lib/openapi-operations.ts)', () => {
    const routes = documentedRoutes(app.registeredRoutes);
    // About a hundred routes (a broken walk would find few).
    expect(routes.length).toBeGreaterThan(90);
    const table = operationTable(app.flows.flows);
    const withoutRow = routes.filter((route) => !table.has(route));
    expect(withoutRow, 'routes without a row in server/lib/openapi-operations.ts (add one: operationId, summary, tag, access)').toEqual([]);
    const withoutRoute = [...table.keys()].filter((route) => !routes.includes(route));
    expect(withoutRoute, 'rows of server/lib/openapi-operations.ts that match no route (remove them)').toEqual([]);
  });

  it('gives each operation a unique camelCase operationId, a summary, one declared tag and a security', () => {
    const tags = new Set(doc.tags.map((t) => t.name));
    expect([...tags]).toEqual(TAGS.map((t) => t.name));
    const ids: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const name = `${method.toUpperCase()} ${path}`;
        expect(op.operationId, name).toMatch(/^[a-z][A-Za-z0-9]*$/);
        expect(op.summary, name).toMatch(/^\S.{2,80}$/);
        expect(op.tags?.length, name).toBe(1);
        expect(tags.has(op.tags![0]), `${name}: tag ${op.tags![0]}`).toBe(true);
        expect(Array.isArray(op.security), name).toBe(true);
        ids.push(op.operationId!);
      }
    }
    expect(ids.length).toBeGreaterThan(90);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('names the registration steps by their flow files (a step id, and the variant for its own endpoint)', () => {
    const operations = flowOperations(app.flows.flows);
    expect(operations.get('POST /api/registration/collect/company')).toMatchObject({ operationId: 'submitRequestingCompanyStep2', tag: 'Registration', access: 'applicant' });
    expect(operations.get('POST /api/registration/collect/icredit-office')?.operationId).toBe('submitRequestingCompanyStep6Icredit');
    expect(operations.get('GET /api/registration/existing/open')?.operationId).toBe('getExistingPfaRequest');
    expect(pascalCase('existing-company-step-7')).toBe('ExistingCompanyStep7');
    // The hand-written rows never name a step route: those follow the flow files.
    expect([...OPERATIONS.keys()].filter((route) => operations.has(route))).toEqual([]);
  });

  it('marks who may call: public calls without security, the others by their kind of token', () => {
    const op = (path: string, method: (typeof METHODS)[number]) => doc.paths[path][method];
    expect(op('/api/login', 'post').security).toEqual([]);
    expect(op('/api/registration/open', 'get').security).toEqual([{ applicant: [] }]);
    expect(op('/api/staff/dossiers', 'get').security).toEqual([{ staff: [] }]);
    expect(op('/api/ops/dossiers', 'get').security).toEqual([{ operator: [] }]);
  });
});
