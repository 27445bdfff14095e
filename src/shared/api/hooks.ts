import useSWR, { preload } from 'swr';
import type { City, County, Page, Partner, PublicConfig } from '@/core/api-types';
import { api } from './client';
// The brand's staff-edited defaults (also the server's, before its variables): what prerendered pages show.
import brand from '../../../content/brand.json';

/** Used until `GET /api/config` answers (and if it fails): the brand's defaults. */
export const DEFAULT_CONFIG: PublicConfig = {
  product_name: brand.name,
  product_slug: 'ghiseu',
  dashboard_url: '',
  support_widget_url: null,
  site_url: brand.site_url,
  contact_email: brand.contact_email,
  contact_phone: brand.contact_phone,
  logo_url: brand.logo_url,
  terms_url: brand.terms_url,
  privacy_url: brand.privacy_url,
};

export const CONFIG_KEY = '/config';

export function fetchConfig(): Promise<PublicConfig> {
  return api.get<PublicConfig>(CONFIG_KEY);
}

/**
 * The settings already asked for (a step page's document asks as its entry runs, src/shared/api/ahead.ts):
 * `useConfig`'s first call reads this answer instead of asking again (SWR's `preload`).
 */
export function preloadConfig(sent: Promise<Response>): void {
  void preload(CONFIG_KEY, () => api.receive<PublicConfig>(sent)).catch(() => undefined);
}

/** Public runtime settings (brand, dashboard address, support widget). Never undefined: defaults meanwhile. */
export function useConfig(): { config: PublicConfig; loaded: boolean } {
  const { data } = useSWR(CONFIG_KEY, fetchConfig, { revalidateOnFocus: false, revalidateIfStale: false, shouldRetryOnError: false });
  return { config: data ? { ...DEFAULT_CONFIG, ...data } : DEFAULT_CONFIG, loaded: Boolean(data) };
}

/** The config, from the SWR cache when loaded, else fetched now (falls back to the defaults). */
export async function resolveConfig(loaded: PublicConfig | null): Promise<PublicConfig> {
  if (loaded) return loaded;
  try {
    return { ...DEFAULT_CONFIG, ...(await fetchConfig()) };
  } catch {
    return DEFAULT_CONFIG;
  }
}

/** Subscription types for the register form; `selectedPartner` is the route's partner slug. */
export function usePartners(selectedPartner?: string | null) {
  return useSWR(['/partner/index', selectedPartner ?? ''], ([path, slug]) =>
    api.get<Partner[]>(path, { selected_partner: slug || undefined }),
  { revalidateOnFocus: false });
}

export const COUNTY_LIMIT = 42;
export const CITY_PAGE_SIZE = 25;

/** Counties (42), optionally filtered by a search term. */
export function useCounties(searchTerm = '') {
  return useSWR(['/nomenclature/county/index', searchTerm], ([path, term]) =>
    api.get<Page<County>>(`${path}/0/${COUNTY_LIMIT}`, { search_term: term || undefined }),
  { revalidateOnFocus: false, keepPreviousData: true });
}

/** One page of a county's cities; no request until a county is chosen. */
export function useCities(countyId: number | null, offset = 0, searchTerm = '') {
  return useSWR(countyId ? ['/nomenclature/city/index', countyId, offset, searchTerm] as const : null, ([path, county, off, term]) =>
    api.get<Page<City>>(`${path}/${off}/${CITY_PAGE_SIZE}`, { county_id: county, search_term: term || undefined }),
  { revalidateOnFocus: false, keepPreviousData: true });
}
