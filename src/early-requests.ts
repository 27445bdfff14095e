/**
 * What a step page's document asks the API for as soon as its entry (src/boot.ts) runs, before the
 * app's ~275 KiB of scripts have arrived (issue 14, the steps' LCP): the request (`GET <flow's open>`),
 * the dashboard-redirect check (spec 000 §4.5) and what the step's widgets draw with of the applicant's
 * own (the identity session, the overview's data). The app asked for them only once its modules were
 * evaluated, so a phone waited for one more round trip after all of its scripts before it could draw
 * the step. The app takes each answer once (`takeEarly`) and reads it with its own client
 * (`api.receive`: the same envelope, errors and 401 handling as any call).
 *
 * This module imports nothing: the entry must not wait for the app's chunks, and a module of
 * src/shared or src/core imported here would be one of them (vite.config.ts, the `app` group). So the
 * few things it shares with the app are spelled here, and tests/web/early-requests.test.tsx checks
 * them against the app's own: the localStorage keys (src/shared/session.ts, src/shared/language.ts),
 * the headers of every call (src/shared/api/client.ts) and the dashboard-redirect cookie
 * (src/app/guards.tsx).
 */

/**
 * How long an answer asked for early waits for the app to take it: the app's scripts arrive within
 * seconds, ~9 s on a 250 kbit/s connection. Only the first call of its kind takes it (the step page's
 * opening, the flow guard's check, the widget service's first call); every later one asks the server.
 */
export const EARLY_FRESH_MS = 30_000;

/** The dashboard-redirect check's path (spec 000 §7), the key its early answer is kept under. */
export const DASHBOARD_REDIRECT_PATH = '/api/user/dashboard-redirect';

/**
 * The public settings (brand, support widget: `useConfig`, src/shared/api/hooks.ts), which the app asks
 * for as it starts on every page: asked after all of its scripts, one more round trip on a phone.
 */
export const CONFIG_PATH = '/api/config';

interface Early {
  token: string;
  at: number;
  response: Promise<Response>;
}

const asked = new Map<string, Early>();

function storedItem(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled: the app asks itself
  }
}

/** The signed-in user as src/shared/session.ts keeps it (localStorage `user`): their token and registration type. */
function storedUser(): { token: string; registrationType: unknown } | null {
  try {
    const user = JSON.parse(storedItem('user') ?? 'null') as { access_token?: unknown; registration_type?: unknown } | null;
    return user && typeof user.access_token === 'string' && user.access_token ? { token: user.access_token, registrationType: user.registration_type } : null;
  } catch {
    return null;
  }
}

/** The headers the app's client sends with every call (src/shared/api/client.ts `request`). */
function earlyHeaders(token: string): Record<string, string> {
  const language = storedItem('language');
  return {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
    'Accept-Language': language === 'en' ? 'en' : 'ro',
    Authorization: `Bearer ${token}`,
  };
}

/** Lets go of an answer nobody reads: its body, left unread, would keep the request open. */
function drop(early: Early): void {
  void early.response.then((response) => response.body?.cancel()).catch(() => undefined);
}

function ask(key: string, url: string, token: string, now: number): void {
  const response = fetch(url, { headers: earlyHeaders(token), credentials: 'same-origin' });
  // Read (or not) by the app: never an unhandled rejection meanwhile.
  response.catch(() => undefined);
  const early = { token, at: now, response };
  asked.set(key, early);
  // Not taken while fresh (the app went elsewhere): dropped.
  setTimeout(() => {
    if (asked.get(key) !== early) return;
    asked.delete(key);
    drop(early);
  }, EARLY_FRESH_MS);
}

/**
 * Asks for what the step page whose shell is `shell` (scripts/prerender.ts `withStepShell`: its
 * `data-open`, `data-registration-type` and `data-ahead`, from the flow file) will read first, for a
 * signed-in user of that flow: the request, as the app asks for it (`?timestamp=`, spec 000 §7), the
 * dashboard-redirect check unless its cookie `dashboard_redirect=0` spares it, the public settings
 * (`CONFIG_PATH`), and the applicant's own
 * data the step's widgets draw with (`data-ahead`: the identity session, the overview's data; taken by
 * src/pages/flow/step-services.ts). Anyone else (a guest, a user of the other flow, who the app sends
 * elsewhere) is asked for nothing.
 */
export function askForStepShell(shell: HTMLElement, now = Date.now()): void {
  const open = shell.getAttribute('data-open');
  const user = storedUser();
  if (!open || !user || String(user.registrationType) !== shell.getAttribute('data-registration-type')) return;
  ask(open, `${open}?timestamp=${now}`, user.token, now);
  if (!/(?:^|;\s*)dashboard_redirect=0(?:;|$)/.test(document.cookie)) ask(DASHBOARD_REDIRECT_PATH, DASHBOARD_REDIRECT_PATH, user.token, now);
  ask(CONFIG_PATH, CONFIG_PATH, user.token, now);
  for (const path of (shell.getAttribute('data-ahead') ?? '').split(' ')) {
    if (path.startsWith('/api/')) ask(path, path, user.token, now);
  }
}

/**
 * The answer asked for early under `key` (the call's path, without its query), once: only for the
 * user who is signed in now (`token`) and while fresh; null otherwise, and the caller asks itself.
 */
export function takeEarly(key: string, token: string | null, now = Date.now()): Promise<Response> | null {
  const early = asked.get(key);
  if (!early) return null;
  asked.delete(key);
  if (early.token === token && now - early.at <= EARLY_FRESH_MS) return early.response;
  drop(early);
  return null;
}
