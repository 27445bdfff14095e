import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * src/boot.ts, the app's entry: on a step page (its prerendered shell in the document) the app's
 * modules are evaluated only after the browser has drawn a frame, so the shell is painted first;
 * elsewhere at once; in a hidden tab (no frames) after 100 ms at most.
 */
const started = vi.fn();

let frames: FrameRequestCallback[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  vi.resetModules();
  started.mockClear();
  // The app itself stands in here: the test sees when it is evaluated.
  vi.doMock('@/main', () => {
    started();
    return {};
  });
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

/** Lets the boot's promises and the dynamic import settle (fake timers do not run them). */
async function settle() {
  for (let i = 0; i < 20; i++) await vi.advanceTimersByTimeAsync(0);
}

describe('the app entry (src/boot.ts)', () => {
  it('on a step page, evaluates the app only after the next frame has been drawn', async () => {
    document.body.innerHTML = '<div id="shell" data-route="/infiintare-pfa/1">Identitate</div><div id="root" hidden></div>';
    await import('@/boot');
    await settle();
    expect(started).not.toHaveBeenCalled();
    expect(frames).toHaveLength(1);
    frames[0](performance.now()); // the frame: its paint comes next, then the task
    expect(started).not.toHaveBeenCalled();
    await settle();
    expect(started).toHaveBeenCalledTimes(1);
  });

  it('on a step page, asks for the step’s request before the app is even evaluated (src/shared/api/ahead.ts)', async () => {
    localStorage.setItem('user', JSON.stringify({ id: 7, access_token: 'jeton', registration_type: 2 }));
    const fetch = vi.fn(() => new Promise<Response>(() => undefined));
    vi.stubGlobal('fetch', fetch);
    document.body.innerHTML =
      '<div id="shell" data-route="/infiintare-pfa/1" data-open="/api/registration/open" data-registration-type="2">Identitate</div><div id="root" hidden></div>';
    await import('@/boot');
    expect(started).not.toHaveBeenCalled();
    expect(fetch.mock.calls.map((c) => String((c as unknown[])[0]).split('?')[0])).toEqual(['/api/registration/open', '/api/user/dashboard-redirect', '/api/config']);
    localStorage.clear();
  });

  it('on a page without a shell, evaluates the app at once', async () => {
    document.body.innerHTML = '<div id="root"></div>';
    await import('@/boot');
    await settle();
    expect(frames).toHaveLength(0);
    expect(started).toHaveBeenCalledTimes(1);
  });

  it('in a hidden tab, which draws no frames, evaluates the app after 100 ms', async () => {
    document.body.innerHTML = '<div id="shell" data-route="/inregistrare/2"></div><div id="root" hidden></div>';
    await import('@/boot');
    await vi.advanceTimersByTimeAsync(99);
    expect(started).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(started).toHaveBeenCalledTimes(1);
  });
});
