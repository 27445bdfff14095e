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
