import type { TrackedCookie } from '@/core/api-types';

/** Cookies of `document.cookie` as name/value pairs (values decoded when possible). */
export function parseCookies(cookieString: string): TrackedCookie[] {
  const out: TrackedCookie[] = [];
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    if (!key) continue;
    const raw = part.slice(eq + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      value = raw;
    }
    out.push({ key, value });
  }
  return out;
}

/** The user-source cookie names set by the marketing site, for product slug `slug` (spec 000 §3, §9). */
export function userSourceCookieNames(slug: string): string[] {
  return [
    'first_source',
    'last_source',
    'userSource_firstTimestamp',
    'userSource_lastTimestamp',
    'source_path',
    'create_account_source',
    'campaigns_list',
  ].map((name) => `${slug}_${name}`);
}

/**
 * The tracked cookies copied into the registration payload (spec 000 §9): `referral`, every
 * `utm_*`, the `{slug}_` user-source values and timestamps, source path, account creation source,
 * campaigns list and the analytics client id `_ga`.
 */
export function trackedCookies(cookieString: string, slug: string): TrackedCookie[] {
  const named = new Set(['referral', '_ga', ...userSourceCookieNames(slug)]);
  return parseCookies(cookieString).filter((c) => named.has(c.key) || c.key.startsWith('utm_'));
}

/** The referral code: query `referral_code` or `ref`, else the `referral` cookie. */
export function referralCode(search: URLSearchParams, cookieString: string): string | null {
  const fromQuery = search.get('referral_code') ?? search.get('ref');
  if (fromQuery?.trim()) return fromQuery.trim();
  const fromCookie = parseCookies(cookieString).find((c) => c.key === 'referral')?.value;
  return fromCookie?.trim() || null;
}
