import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { prefetchNextPage, sparesData } from '@/guest/prefetch';

/**
 * src/guest/prefetch.ts: a guest page fetches the scripts of the page its form leads to (the build's
 * `<template id="next-page">`) once it has loaded and the browser is idle, unless the visitor saves data.
 */
const TEMPLATE =
  '<template id="next-page"><link rel="prefetch" as="script" crossorigin href="/assets/framework-1.js"><link rel="prefetch" as="script" crossorigin href="/assets/main-2.js"></template>';

let idle: IdleRequestCallback[] = [];

/** The document's readyState, as the page sees it while loading or once loaded. */
function setReadyState(state: DocumentReadyState) {
  Object.defineProperty(document, 'readyState', { configurable: true, get: () => state });
}

function prefetched(): string[] {
  return [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]')].map((link) => link.getAttribute('href')!);
}

beforeEach(() => {
  idle = [];
  vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => idle.push(callback));
  document.head.innerHTML = TEMPLATE;
});

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(document, 'readyState');
  Reflect.deleteProperty(navigator, 'connection');
  document.head.innerHTML = '';
});

function runIdle() {
  for (const callback of idle.splice(0)) callback({ didTimeout: false, timeRemaining: () => 50 });
}

describe('prefetchNextPage', () => {
  it('puts the listed scripts in <head>, with their crossorigin mode, only after the load event and when idle', () => {
    setReadyState('interactive');
    prefetchNextPage();
    expect(prefetched()).toEqual([]);
    window.dispatchEvent(new Event('load'));
    expect(prefetched()).toEqual([]);
    runIdle();
    expect(prefetched()).toEqual(['/assets/framework-1.js', '/assets/main-2.js']);
    expect(document.head.querySelector('link[rel="prefetch"]')!.hasAttribute('crossorigin')).toBe(true);
    // Inert no more: the template is gone, a second call adds nothing.
    expect(document.querySelector('template#next-page')).toBeNull();
    prefetchNextPage();
    runIdle();
    expect(prefetched()).toHaveLength(2);
  });

  it('on a page already loaded, waits only for the browser to be idle', () => {
    setReadyState('complete');
    prefetchNextPage();
    expect(prefetched()).toEqual([]);
    runIdle();
    expect(prefetched()).toHaveLength(2);
  });

  it('without requestIdleCallback (Safari), after a short timeout', () => {
    vi.useFakeTimers();
    try {
      vi.stubGlobal('requestIdleCallback', undefined);
      setReadyState('complete');
      prefetchNextPage();
      expect(prefetched()).toEqual([]);
      vi.advanceTimersByTime(200);
      expect(prefetched()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    [{ saveData: true, effectiveType: '4g' }],
    [{ saveData: false, effectiveType: '2g' }],
    [{ effectiveType: 'slow-2g' }],
  ])('fetches nothing ahead on a connection that spares data: %o', (connection) => {
    Object.defineProperty(navigator, 'connection', { configurable: true, value: connection });
    setReadyState('complete');
    prefetchNextPage();
    runIdle();
    expect(prefetched()).toEqual([]);
  });

  it('a page without a next page (the template absent) does nothing', () => {
    document.head.innerHTML = '';
    setReadyState('complete');
    prefetchNextPage();
    runIdle();
    expect(idle).toHaveLength(0);
    expect(prefetched()).toEqual([]);
  });
});

describe('sparesData', () => {
  it('is true for Save-Data and 2G, false for 3G, 4G and a browser that does not say', () => {
    expect(sparesData({ saveData: true })).toBe(true);
    expect(sparesData({ effectiveType: '2g' })).toBe(true);
    expect(sparesData({ effectiveType: 'slow-2g' })).toBe(true);
    expect(sparesData({ effectiveType: '3g' })).toBe(false);
    expect(sparesData({ effectiveType: '4g', saveData: false })).toBe(false);
    expect(sparesData(undefined)).toBe(false);
  });
});
