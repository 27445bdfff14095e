/** What the Network Information API says of the connection (Chromium's; absent in Firefox and Safari). */
interface Connection {
  saveData?: boolean;
  effectiveType?: string;
}

/** A connection on which the next page's scripts are not fetched ahead: the visitor asked to save data, or it is 2G. */
export function sparesData(connection: Connection | undefined): boolean {
  return Boolean(connection?.saveData) || connection?.effectiveType === 'slow-2g' || connection?.effectiveType === '2g';
}

/**
 * Fetches into the browser's cache the scripts of the page this one leads to (issue 14: after "Intră în
 * cont" or "Vreau cont Ghișeu" the wizard's step then waits for its scripts' evaluation, not for ~250 KiB
 * over a phone's connection). The build lists them in `<template id="next-page">` as `<link
 * rel="prefetch">` (scripts/prerender.ts `withNextPage`); they go into <head> once the page has loaded
 * and the browser is idle, so they never share the bandwidth with the page's own scripts, and only
 * once. A browser without `rel=prefetch` (Safari) ignores them; nothing else depends on them.
 */
export function prefetchNextPage(doc: Document = document, win: Window = window): void {
  const template = doc.querySelector<HTMLTemplateElement>('template#next-page');
  if (!template) return;
  template.remove();
  if (sparesData((win.navigator as Navigator & { connection?: Connection }).connection)) return;
  const insert = () => doc.head.append(template.content.cloneNode(true));
  const whenIdle = () => {
    if (typeof win.requestIdleCallback === 'function') win.requestIdleCallback(insert, { timeout: 2000 });
    else win.setTimeout(insert, 200);
  };
  if (doc.readyState === 'complete') whenIdle();
  else win.addEventListener('load', whenIdle, { once: true });
}
