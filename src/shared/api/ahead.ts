/**
 * Fetching ahead: the app's one way to ask for a GET before the code that reads it is there, so that
 * the answer is on its way (or in) when that code asks (docs/architecture.md "Fetching ahead in the
 * browser"). Who asks:
 * - a step page's entry (src/boot.ts `askForStepShell`, below), as soon as it runs, before the app's
 *   ~275 KiB of scripts have arrived (issue 14, the steps' LCP): the request, the dashboard-redirect
 *   check, the public settings and the applicant's own data the step's widgets draw with;
 * - the step page (src/pages/flow/FlowStepsPage.tsx), as its chunk is evaluated and as it renders: the
 *   request again (the same ask: not sent twice) and, through the step's widgets' `prefetch`
 *   (src/pages/flow/step-services.ts `stepAhead`), their option lists and the applicant's own data.
 * Whoever needs an answer then takes it (`takeAhead`) and reads it with the app's client
 * (`api.receive`: the same envelope, errors and 401 handling as any call); without one it asks itself.
 *
 * The rules, the same for every answer: one ask per key (an ask for a key asked already, fresh and for
 * the same user and language, sends nothing); an answer is handed on once, only for the user and
 * language it was asked for, and only while fresh (`AHEAD_FRESH_MS`), then it is let go; a failed
 * answer (no answer, or not 2xx) is not kept, so whoever needs it asks again.
 *
 * This module imports nothing: the page's entry imports it, and must not wait for the app's chunks
 * (vite.config.ts keeps it out of the `app` group). So the few things it shares with the app are
 * spelled here, and tests/web/ahead.test.tsx checks them against the app's own: the
 * localStorage keys (src/shared/session.ts, src/shared/language.ts), the headers of every call
 * (src/shared/api/client.ts) and the dashboard-redirect cookie (src/app/guards.tsx).
 */

/**
 * How long an answer asked for ahead waits to be taken: the app's scripts arrive within seconds,
 * ~9 s on a 250 kbit/s connection, and a widget mounts right after its step's request.
 */
export const AHEAD_FRESH_MS = 30_000;

/** The dashboard-redirect check's path (spec 000 §7), the key its answer asked ahead is kept under. */
export const DASHBOARD_REDIRECT_PATH = '/api/user/dashboard-redirect';

/**
 * The public settings (brand, support widget: `useConfig`, src/shared/api/hooks.ts), which the app asks
 * for as it starts on every page: asked after all of its scripts, one more round trip on a phone.
 */
export const CONFIG_PATH = '/api/config';

interface Asked {
  token: string | null;
  language: string;
  at: number;
  response: Promise<Response>;
}

const asked = new Map<string, Asked>();

function storedItem(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled: the app asks itself
  }
}

/** The language the app's client sends (src/shared/language.ts `storedLanguage`). */
function storedLanguage(): string {
  return storedItem('language') === 'en' ? 'en' : 'ro';
}

/** The headers the app's client sends with every call (src/shared/api/client.ts `request`). */
function aheadHeaders(token: string | null, language: string): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'Accept-Language': language };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** Lets go of an answer nobody reads: its body, left unread, would keep the request open. */
function drop(entry: Asked): void {
  void entry.response.then((response) => response.body?.cancel()).catch(() => undefined);
}

/** Forgets `entry` if it is still the one kept under `key`; `release` lets go of its answer too. */
function forget(key: string, entry: Asked, release: boolean): void {
  if (asked.get(key) !== entry) return;
  asked.delete(key);
  if (release) drop(entry);
}

const fresh = (entry: Asked, token: string | null, now: number) => entry.token === token && entry.language === storedLanguage() && now - entry.at <= AHEAD_FRESH_MS;

/**
 * Asks for `GET url` ahead for the user whose token is `token` (null: a guest), kept under `key` (the
 * call's path and query, without a cache-busting `timestamp`), unless that was asked already and is
 * fresh. The answer on its way, for whoever waits for the ask itself (a test, the prerender's recorder).
 */
export function askAhead(key: string, token: string | null, url: string = key, now = Date.now()): Promise<Response> {
  const kept = asked.get(key);
  if (kept && fresh(kept, token, now)) return kept.response;
  if (kept) forget(key, kept, true);
  const language = storedLanguage();
  const response = fetch(url, { headers: aheadHeaders(token, language), credentials: 'same-origin' });
  const entry: Asked = { token, language, at: now, response };
  asked.set(key, entry);
  // A failed answer is not kept; read (or not) by the app, it is never an unhandled rejection meanwhile.
  response.then(
    (answer) => {
      if (!answer.ok) forget(key, entry, true);
    },
    () => forget(key, entry, false),
  );
  // Not taken while fresh (the app went elsewhere): let go.
  setTimeout(() => forget(key, entry, true), AHEAD_FRESH_MS);
  return response;
}

/**
 * The answer asked for ahead under `key`, once: only for the user who is signed in now (`token`), in
 * the language they use now, and while fresh; null otherwise, and the caller asks itself.
 */
export function takeAhead(key: string, token: string | null, now = Date.now()): Promise<Response> | null {
  const entry = asked.get(key);
  if (!entry) return null;
  asked.delete(key);
  if (fresh(entry, token, now)) return entry.response;
  drop(entry);
  return null;
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

/**
 * What a step page's entry (src/boot.ts) asks for ahead, as soon as it runs, for the step page whose
 * shell is `shell` (scripts/prerender.ts `withStepShell`: its `data-open`, `data-registration-type`
 * and `data-ahead`, from the flow file), for a signed-in user of that flow: the request, as the app
 * asks for it (`?timestamp=`, spec 000 §7), the dashboard-redirect check unless its cookie
 * `dashboard_redirect=0` spares it, the public settings (`CONFIG_PATH`), and the applicant's own data
 * the step's widgets draw with (`data-ahead`: the identity session, the overview's data). Anyone else
 * (a guest, a user of the other flow, who the app sends elsewhere) is asked for nothing.
 */
export function askForStepShell(shell: HTMLElement, now = Date.now()): void {
  const open = shell.getAttribute('data-open');
  const user = storedUser();
  if (!open || !user || String(user.registrationType) !== shell.getAttribute('data-registration-type')) return;
  askAhead(open, user.token, `${open}?timestamp=${now}`, now);
  if (!/(?:^|;\s*)dashboard_redirect=0(?:;|$)/.test(document.cookie)) askAhead(DASHBOARD_REDIRECT_PATH, user.token, DASHBOARD_REDIRECT_PATH, now);
  askAhead(CONFIG_PATH, user.token, CONFIG_PATH, now);
  for (const path of (shell.getAttribute('data-ahead') ?? '').split(' ')) {
    if (path.startsWith('/api/')) askAhead(path, user.token, path, now);
  }
}
