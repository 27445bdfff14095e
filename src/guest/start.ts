import type { ComponentType } from 'react';
import { signedInGuestTarget } from '@/core/session';
import { session } from '@/shared/session';
import { prefetchNextPage } from './prefetch';
import { renderGuestPage } from './render';

export interface GuestPage {
  /** The route pattern as in src/app/routes.tsx (`/register/:partner?`): the page's `useParams`. */
  route: string;
  /** Guest only (spec 000 §2.2): a signed-in user is sent to the flow of their registration type (or the account page asked for), as `guestOnlyLoader` does. */
  guestOnly: boolean;
  page: ComponentType;
}

/**
 * The entry of one guest page (src/guest/pages/*.ts; built by vite.guest.config.ts on Preact): the guard,
 * then the page, rendered over its prerendered markup (scripts/prerender.ts).
 */
export function startGuestPage({ route, guestOnly, page }: GuestPage): void {
  const user = session.user();
  if (guestOnly && user) {
    location.replace(signedInGuestTarget(user, location.search));
    return;
  }
  // Two tasks instead of one long one (issue 14: Lighthouse's TBT counts each task's time above 50 ms):
  // the page's modules, Chakra's system among them, are evaluated in this one, the page renders in the
  // next; the browser may handle input or paint in between. The prerendered page is on screen meanwhile.
  setTimeout(() => {
    renderGuestPage(route, page);
    prefetchNextPage();
  }, 0);
}
