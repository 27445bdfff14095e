import type { ComponentType } from 'react';
import { flowPath } from '@/core/session';
import { session } from '@/shared/session';

export interface GuestPage {
  /** The route pattern as in src/app/routes.tsx (`/register/:partner?`): the page's `useParams`. */
  route: string;
  /** Guest only (spec 000 §2.2): a signed-in user is sent to the flow of their registration type, as `guestOnlyLoader` does. */
  guestOnly: boolean;
  /** The page component (a dynamic import: its chunks are preloaded by the page's HTML). */
  load: () => Promise<ComponentType>;
}

/** Runs `run` once the browser has painted what it has (the prerendered page), or now in a hidden tab (no frames there). */
function afterFirstPaint(run: () => void): void {
  if (document.visibilityState === 'hidden') run();
  else requestAnimationFrame(() => setTimeout(run, 0));
}

/**
 * The entry of one guest page (src/guest/pages/*.ts; built by vite.guest.config.ts on Preact). Light on
 * purpose: the guard, then, after the prerendered page (scripts/prerender.ts) has been painted, the UI
 * kit and the page (src/guest/render.tsx), whose chunks the HTML preloads meanwhile. So the first paint
 * never waits for the scripts' evaluation, and the work that makes the page usable is split in tasks.
 */
export function startGuestPage({ route, guestOnly, load }: GuestPage): void {
  const user = session.user();
  if (guestOnly && user) {
    location.replace(flowPath(user.registration_type));
    return;
  }
  afterFirstPaint(() => {
    void Promise.all([import('./render'), load()]).then(([{ renderGuestPage }, Page]) => {
      // A task of its own: evaluating the UI kit's modules and rendering the page are two shorter tasks.
      setTimeout(() => renderGuestPage(route, Page), 0);
    });
  });
}
