import type { AppConfig } from '../config';

/** A processor of personal data in use (GDPR art. 28), as the privacy page names it. */
export interface Processor {
  purpose: string;
  name: string;
}

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/**
 * The processors this instance really uses, from its configuration (issue 32): the privacy page
 * names them, so the text stays true when a deployment changes provider. Development stand-ins
 * (the identity simulator, the built-in checkout, the outbox, the local folder) are named as such.
 */
export function processorsOf(config: Pick<AppConfig, 'veriffApiKey' | 'stripeSecretKey' | 'smtpUrl' | 's3' | 'databaseUrl' | 'companyLookup'>): Processor[] {
  const smtpHost = hostOf(config.smtpUrl);
  const s3 = config.s3;
  const storage = s3
    ? s3.endpoint
      ? `un serviciu de stocare compatibil S3 (${hostOf(s3.endpoint) ?? s3.endpoint})`
      : `Amazon Web Services, Amazon S3 (regiunea ${s3.region})`
    : 'serverul nostru (disc local)';
  const database = config.databaseUrl ? `o bază de date PostgreSQL (${hostOf(config.databaseUrl) ?? 'serverul nostru'})` : 'serverul nostru (bază de date locală)';
  return [
    {
      purpose: 'verificarea identității (fotografiile actului și selfie-ul)',
      name: config.veriffApiKey ? 'Veriff OÜ (Estonia, Uniunea Europeană)' : 'simulatorul de verificare al produsului (mediu de dezvoltare: nimic nu pleacă din server)',
    },
    {
      purpose: 'plăți',
      name: config.stripeSecretKey ? 'Stripe Payments Europe, Ltd. (Irlanda, Uniunea Europeană)' : 'plata simulată a produsului (mediu de dezvoltare: nicio plată reală)',
    },
    {
      purpose: 'trimiterea e-mailurilor',
      name: smtpHost ? `serverul de e-mail ${smtpHost}` : 'niciunul: mesajele rămân pe server (mediu de dezvoltare)',
    },
    { purpose: 'găzduirea fișierelor încărcate (criptate)', name: storage },
    { purpose: 'găzduirea datelor contului și ale dosarului', name: database },
    ...(config.companyLookup === 'anaf' ? [{ purpose: 'căutarea firmei după codul fiscal', name: 'ANAF, serviciile web publice (doar codul fiscal)' }] : []),
  ];
}

/**
 * The `{{…}}` values of content/legal/*.md besides `product` and `contact_email` (issue 32): the
 * retention periods of the configuration and the processors in use, so the lawyers' text states
 * what the product really does.
 */
export function policyValues(config: AppConfig, myDataPath: string): Record<string, string> {
  const r = config.retention;
  return {
    retention_unfinished_days: String(r.unfinishedDays),
    retention_warning_days: String(r.warningDays),
    retention_id_media_days: String(r.idMediaDays),
    retention_lost_days: String(r.lostDays),
    retention_accounting_years: String(r.accountingYears),
    retention_contract_years: String(r.contractYears),
    processors: processorsOf(config)
      .map((p) => `- ${p.purpose}: ${p.name};`)
      .join('\n'),
    my_data_url: myDataPath,
  };
}
