/**
 * Resolves once the browser has painted what is on screen now: after the next frame, in a task of its
 * own. For what a step asks for only once it is drawn (issue 14: the overview's combobox and popup
 * chunks), so that it never competes with the step's own scripts and first paint. A hidden tab draws
 * no frames: it waits 100 ms at most.
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
