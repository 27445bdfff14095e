/** The support chat widget, loaded only while a user is signed in (spec 000 §1). */
export const SUPPORT_WIDGET_ID = 'support-widget';

export function mountSupportWidget(url: string | null | undefined): void {
  if (!url || document.getElementById(SUPPORT_WIDGET_ID)) return;
  const script = document.createElement('script');
  script.id = SUPPORT_WIDGET_ID;
  script.src = url;
  script.async = true;
  document.body.appendChild(script);
}

/** Removes the script and every element the widget created (ids starting with `support-widget`). */
export function removeSupportWidget(): void {
  document.querySelectorAll(`[id^="${SUPPORT_WIDGET_ID}"]`).forEach((el) => el.remove());
}
