import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// Browser APIs that jsdom lacks and Chakra UI / Ark UI use.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener() {},
  removeListener() {},
  addEventListener() {},
  removeEventListener() {},
  dispatchEvent: () => false,
})) as typeof window.matchMedia;
Element.prototype.scrollIntoView ??= function () {};
Element.prototype.scrollTo ??= function () {};
window.scrollTo = () => {};

// Tests wait for what a user waits for (findBy…, waitFor), generously: on a loaded 2-core machine a
// lazy page chunk or a step's buttons can take seconds to appear (no test should need a retry).
// Not 3000 or 5000: tests spy on setTimeout to find the e-mail pages' 3 s and 5 s timers.
configure({ asyncUtilTimeout: 15000 });

// jsdom has no CSS.escape; Ark UI's combobox (zag) uses it to find the highlighted option.
globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

// jest-dom is not installed: tests use plain `expect`. Unmount what a test rendered (vitest runs
// without globals, so Testing Library cannot register this itself).
afterEach(() => {
  cleanup();
});
