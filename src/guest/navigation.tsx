import { forwardRef, useLayoutEffect, type AnchorHTMLAttributes } from 'react';

/**
 * What the guest build (vite.guest.config.ts) gives for `react-router`: the few hooks and components
 * the guest pages use, by document navigation. Each guest page is its own prerendered HTML document
 * (scripts/vite-plugin-route-pages.ts), so moving between them, or into the app after signing in, is a
 * page load (`location.assign`), not a client-side route change, and the guest pages carry no router
 * (~31 KiB gzip). The same page components run under React Router in the app (src/app/routes.tsx).
 * An export the pages need and this module lacks fails the guest build (no silent fallback).
 */
export type To = string | { pathname?: string; search?: string; hash?: string };
export interface NavigateOptions {
  replace?: boolean;
}
export type NavigateFunction = (to: To | number, options?: NavigateOptions) => void;

let pattern = '';

/** The route pattern of this page (`/register/:partner?`), set by src/guest/render.tsx before the first render. */
export function setRoutePattern(route: string): void {
  pattern = route;
}

/** `:name` and `:name?` segments of `pattern` matched against `pathname` (undefined when absent). */
export function matchParams(route: string, pathname: string): Record<string, string | undefined> | null {
  const want = route.split('/').filter(Boolean);
  const have = pathname.replace(/\/+$/, '').split('/').filter(Boolean);
  const params: Record<string, string | undefined> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i];
    if (segment.startsWith(':')) {
      const optional = segment.endsWith('?');
      const name = segment.slice(1, optional ? -1 : undefined);
      if (have[i] === undefined && !optional) return null;
      params[name] = have[i] === undefined ? undefined : decodeURIComponent(have[i]);
    } else if (have[i] !== segment) return null;
  }
  return have.length <= want.length ? params : null;
}

export function href(to: To): string {
  if (typeof to === 'string') return to;
  return `${to.pathname ?? location.pathname}${to.search ?? ''}${to.hash ?? ''}`;
}

export function useNavigate(): NavigateFunction {
  return (to, options) => {
    if (typeof to === 'number') history.go(to);
    else if (options?.replace) location.replace(href(to));
    else location.assign(href(to));
  };
}

export function useParams(): Record<string, string | undefined> {
  return matchParams(pattern, location.pathname) ?? {};
}

export function useLocation() {
  return { pathname: location.pathname, search: location.search, hash: location.hash, state: null, key: 'default' };
}

export function useSearchParams(): [URLSearchParams] {
  return [new URLSearchParams(location.search)];
}

export function Navigate({ to, replace }: { to: To; replace?: boolean }): null {
  useLayoutEffect(() => {
    if (replace) location.replace(href(to));
    else location.assign(href(to));
  }, [to, replace]);
  return null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: To; replace?: boolean };

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link({ to, replace: _replace, ...props }, ref) {
  return <a ref={ref} href={href(to)} {...props} />;
});
