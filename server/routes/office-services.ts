import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { replies } from '../lib/api-schemas';
import type { OfficeService } from '../../src/core/api-types';

const SEED = new URL('../db/seed/office-services.json', import.meta.url);

/**
 * The services of the office popup (spec 001 §2 item 4), from server/db/seed/office-services.json:
 * checked at start, so a broken edit stops the server with a clear message instead of a popup with
 * no way out.
 */
export function readOfficeServices(text: string = readFileSync(SEED, 'utf8')): OfficeService[] {
  const list = (JSON.parse(text) as { office_services?: unknown }).office_services;
  const problem = (why: string) => new Error(`server/db/seed/office-services.json: ${why}`);
  if (!Array.isArray(list) || list.length < 1 || list.length > 4) throw problem('office_services must list 1 to 4 services');
  const ids = new Set<string>();
  return list.map((entry: Record<string, unknown>, index) => {
    const { id, name, description, url } = entry ?? {};
    if (typeof id !== 'string' || !/^[a-z0-9-]{1,60}$/.test(id) || ids.has(id)) throw problem(`entry ${index}: id must be unique, lower-case letters, digits and hyphens`);
    if (typeof name !== 'string' || !name.trim()) throw problem(`entry ${index}: name is missing`);
    if (typeof url !== 'string' || !/^https:\/\//.test(url) || !URL.canParse(url)) throw problem(`entry ${index}: url must be an https:// address`);
    ids.add(id);
    return { id, name: name.trim(), description: typeof description === 'string' ? description.trim() : null, url };
  });
}

const service = {
  type: 'object',
  required: ['id', 'name', 'description', 'url'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: ['string', 'null'] }, url: { type: 'string' } },
};

export default (async (app) => {
  const services = readOfficeServices();
  app.get('/nomenclature/office-services', { schema: { response: replies({ type: 'array', items: service }, "The office popup's services") } }, async () => ({
    message: '',
    payload: services,
  }));
}) satisfies FastifyPluginAsync;
