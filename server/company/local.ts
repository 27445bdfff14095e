import { eq } from 'drizzle-orm';
import type { Db } from '../db';
import { companies } from '../db/schema';
import type { CompanyLookup, CompanyRecord } from './types';

/**
 * The default company lookup: the local registry seeded from `server/db/seed/companies.json`
 * (sample sole proprietorships and one SRL). No set-up and no network; the CUI's check digit is
 * checked before any lookup by the step rule.
 */
export class LocalCompanyRegistry implements CompanyLookup {
  readonly name = 'local' as const;

  constructor(private readonly db: Db) {}

  async lookup(cui: string): Promise<CompanyRecord | null> {
    const [row] = await this.db.select().from(companies).where(eq(companies.fiscalCode, cui));
    if (!row) return null;
    return {
      fiscal_code: row.fiscalCode,
      name: row.name,
      address: row.address,
      registration_number: row.registrationNumber,
      legal_form: row.legalForm,
      is_pfa: row.legalForm === 'PFA',
      county: row.county,
      city: row.city,
      caen_code: row.caenCode,
    };
  }
}
