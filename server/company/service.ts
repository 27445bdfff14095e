import type { AppConfig } from '../config';
import type { Db } from '../db';
import { AnafCompanyLookup, type AnafLookupOptions } from './anaf';
import { LocalCompanyRegistry } from './local';
import type { CompanyLookup } from './types';

/**
 * `COMPANY_LOOKUP=anaf`: the ANAF web service at `ANAF_API_URL` (its cache and pace in Redis when
 * `shared`); else (the default) the local registry.
 */
export function createCompanyLookup(config: AppConfig, db: Db, shared: AnafLookupOptions['shared'] = null): CompanyLookup {
  if (config.companyLookup === 'anaf') return new AnafCompanyLookup({ baseUrl: config.anafApiUrl, shared });
  return new LocalCompanyRegistry(db);
}
