import { PURCHASE_CURRENCY, PURCHASE_VALUE } from '@/core/registration';
/** Analytics events on `window.dataLayer` (spec 000 §4.1, §4.3). */
declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

export function dataLayer(): Record<string, unknown>[] {
  window.dataLayer = window.dataLayer || [];
  return window.dataLayer;
}

export function trackLogin(userId: number): void {
  dataLayer().push({ event: 'login', user_id: userId });
}

export function trackLead(registrationType: number, userId: number): void {
  dataLayer().push({ event: 'lead', registration_type: registrationType, user_id: userId });
}

/**
 * The purchase event (spec 001 §4 "Payment", §9), pushed once per request: a reload of the
 * confirmation page or a second tab does not count the sale twice.
 */
export function trackPurchase(requestId: number): boolean {
  const key = `purchase_tracked_${requestId}`;
  try {
    if (window.localStorage.getItem(key)) return false;
    window.localStorage.setItem(key, '1');
  } catch {
    // Storage refused (private mode): the in-page guard of the caller still holds.
  }
  dataLayer().push({ event: 'purchase', ecommerce: { transaction_id: String(requestId), value: PURCHASE_VALUE, currency: PURCHASE_CURRENCY } });
  return true;
}
