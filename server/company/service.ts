import type { AppConfig } from '../config';
import type { Db } from '../db';
import { AnafCompanyLookup } from './anaf';
import { LocalCompanyRegistry } from './local';
import type { CompanyLookup } from './types';

/** `COMPANY_LOOKUP=anaf`: the ANAF web service at `ANAF_API_URL`; else (the default) the local registry. */
export function createCompanyLookup(config: AppConfig, db: Db): CompanyLookup {
  if (config.companyLookup === 'anaf') return new AnafCompanyLookup({ baseUrl: config.anafApiUrl });
  return new LocalCompanyRegistry(db);
}
