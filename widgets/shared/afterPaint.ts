/**
 * Resolves once the browser has painted what is on screen now: after the next frame, in a task of its
 * own. For what waits for a paint (issue 14): the app's modules behind a step page's shell (src/boot.ts),
 * the overview's combobox and popup chunks behind the drawn step. A hidden tab draws no frames: it
 * waits 100 ms at most. It imports nothing, and stays out of the `app` chunk group (vite.config.ts):
 * the page's entry imports it.
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}
