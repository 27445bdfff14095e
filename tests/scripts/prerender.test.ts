import { describe, expect, it } from 'vitest';
import { flowStartPaths, renderRoute, renderStepShell, stepShellAsks, stepShellModules, stepShellPaths } from '@/prerender';
import { FLOWS as FLOW_FILES } from '@/engine/flows';
import { SHELL_CONTEXT, shellStep } from '@/pages/flow/StepShell';
import { resolveFlow, type Flow } from '@/core/flow';
import { localeText } from '../copy';
import { ROUTE_PAGES } from '../../scripts/guest-pages';
import { nextPageFiles, staticChunks, withLowPriorityScripts, withModulePreloads, withNextPage, withStepShell } from '../../scripts/prerender';

const FLOWS: Flow[] = Object.values(FLOW_FILES);

/** Text as react-dom/server writes it into HTML. */
const inHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The HTML a guest sees before any JavaScript ran (issue 14): the real page, in Romanian, with its styles. */
describe('guest pages prerendered at build time', () => {
  it.each([
    ['/login', ['Bine ai revenit!', 'Parola']],
    ['/register', ['Creează-ți contul Ghișeu']],
    ['/register/account', ['Datele contului tău', 'Telefon', 'Vreau cont Ghișeu']],
    ['/password/forgot', ['Ai uitat parola?', 'Trimite']],
  ])('%s', async (route, texts) => {
    const html = await renderRoute(route);
    for (const text of texts) expect(html).toContain(text);
    expect(html).toMatch(/<main[^>]*id="main"/);
    expect(html).toContain('<style data-emotion=');
  });

  it('each page carries the style of every class it uses, also when rendered after another page', async () => {
    // One build renders the four pages in turn: emotion writes a style into the HTML only the first time
    // its cache sees it, so a cache shared by the pages left the later ones unstyled until their script ran.
    for (const route of ['/login', '/register', '/register/account', '/password/forgot']) {
      const html = await renderRoute(route);
      const used = new Set([...html.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1].split(' ')).filter((c) => /^css-[a-z0-9]+$/.test(c)));
      const styled = new Set([...html.matchAll(/<style data-emotion="css ([^"]*)"/g)].flatMap((m) => m[1].split(' ').map((name) => `css-${name}`)));
      expect(used.size).toBeGreaterThan(5);
      expect([...used].filter((c) => !styled.has(c)), route).toEqual([]);
    }
  });

  it('a form sent before the page script ran goes by POST: nothing typed (the password) ends up in the address', async () => {
    for (const route of ['/login', '/register/account', '/password/forgot']) {
      const forms = [...(await renderRoute(route)).matchAll(/<form\b[^>]*>/g)].map((m) => m[0]);
      expect(forms.length, route).toBeGreaterThan(0);
      for (const form of forms) expect(form, route).toMatch(/\smethod="post"/);
    }
  });

  it('every prerendered page is one of these (a page prerendered without a test could show nothing)', () => {
    expect(ROUTE_PAGES.filter((p) => p.prerender).map((p) => p.route)).toEqual(['/login', '/register', '/register/account', '/password/forgot']);
  });
});

/** Every emotion class of the markup (`css-<name>`) has its rules in a `<style data-emotion="css … name …">` of the same HTML. */
function unstyledClasses(html: string): string[] {
  const styled = new Set([...html.matchAll(/<style data-emotion="css ([^"]+)"/g)].flatMap((m) => m[1].split(' ')));
  const used = new Set([...html.matchAll(/class="([^"]*)"/g)].flatMap((m) => [...m[1].matchAll(/\bcss-([a-z0-9]+)\b/g)].map((c) => c[1])));
  return [...used].filter((name) => !styled.has(name));
}

describe('prerendered pages carry their own styles', () => {
  it('each guest page and step shell, rendered one after the other as the build does, has the rules of every class it uses', async () => {
    // With one emotion cache for all of them, a page after the first lacked the rules an earlier page had used.
    for (const route of ROUTE_PAGES.filter((p) => p.prerender).map((p) => p.route)) expect(unstyledClasses(await renderRoute(route)), route).toEqual([]);
    for (const route of stepShellPaths()) expect(unstyledClasses(await renderStepShell(route)), route).toEqual([]);
    // 21 server renders: well above the unit project's 5 s on a loaded machine.
  }, 120_000);
});

describe('step shells (the HTML of a step before the app has loaded)', () => {
  it('one per step of both flow files', () => {
    expect(stepShellPaths()).toEqual([...Object.values(FLOWS).flatMap((f) => f.steps.map((s) => s.path))]);
    expect(stepShellPaths()).toContain('/infiintare-pfa/0');
    expect(stepShellPaths()).toContain('/inregistrare/7');
  });

  /** A step's text as its flow file names it (`title`, or an entry of its `copy`), from the locale file. */
  const stepText = (path: string, part: string, vars: Record<string, unknown> = {}) => {
    const step = Object.values(FLOWS)
      .flatMap((f) => f.steps)
      .find((s) => s.path === path)!;
    const key = part === 'title' ? step.title : (step.copy as Record<string, string>)[part];
    return localeText(key, vars);
  };
  const progress = (position: number, total: number) => localeText('steps:common.progress', { position, total });

  it.each([
    ['/infiintare-pfa/0', () => [localeText('common:flows.new'), progress(1, 10), stepText('/infiintare-pfa/0', 'title'), localeText('common:logout')]],
    ['/inregistrare/2', () => [localeText('common:flows.existing'), progress(2, 7), stepText('/inregistrare/2', 'title')]],
    // The identity step's intro is its flow file's copy too (what the three photos are, for every applicant).
    ['/infiintare-pfa/1', () => [progress(2, 10), stepText('/infiintare-pfa/1', 'intro'), stepText('/infiintare-pfa/1', 'privacyNote')]],
    ['/inregistrare/5', () => [localeText('common:flows.existing'), stepText('/inregistrare/5', 'intro')]],
    // The card step's offer is its flow file's copy `intro`: readable before the app has loaded.
    ['/infiintare-pfa/8', () => [progress(9, 10), stepText('/infiintare-pfa/8', 'title'), stepText('/infiintare-pfa/8', 'intro')]],
    ['/inregistrare/7', () => [localeText('common:flows.existing'), stepText('/inregistrare/7', 'title'), stepText('/inregistrare/7', 'intro')]],
  ])('%s: the header, the position, the heading and the guidance, in Romanian', async (route, texts) => {
    const html = await renderStepShell(route);
    for (const text of texts()) expect(html).toContain(inHtml(text));
    expect(html).toMatch(/<h1[^>]*>/);
    expect(html).toMatch(/<header/);
    expect(html).toMatch(/<footer/);
  });

  it('the pricing step: the title of an applicant without a partner (a partner\'s name is the app\'s to fill in)', async () => {
    const pricing = await renderStepShell('/infiintare-pfa/9');
    expect(pricing).toContain(inHtml(progress(10, 10)));
    expect(pricing).toMatch(new RegExp(`<h1[^>]*>${escapeRegExp(inHtml(localeText('steps:pricing.titleUnaffiliated')))}</h1>`));
    // Without the flow files' variant for unaffiliated applicants, the title needs the partner: no heading then.
    const withoutVariant = FLOWS.map((flow) => ({ ...flow, variants: (flow.variants ?? []).filter((v) => v.id !== 'unaffiliated') }));
    expect(await renderStepShell('/infiintare-pfa/9', undefined, withoutVariant)).not.toMatch(/<h1/);
  });

  it("a copy variant for one partner: the shell keeps the base title and guidance, the partner's applicants get theirs from the app", async () => {
    // A partner whose applicants read other copy on the card step (its title and offer): product staff's JSON, no code.
    const card = FLOW_FILES[2].steps.find((s) => s.path === '/infiintare-pfa/8')!;
    const edited = FLOWS.map((flow) =>
      flow.id !== 'new-pfa'
        ? flow
        : {
            ...flow,
            variants: [
              ...(flow.variants ?? []),
              { id: 'partener-nou', description: 'Other card copy for one partner.', when: { partner: 'partener-nou' }, steps: { [card.id]: { title: 'steps:questionnaire.title', copy: { intro: 'steps:identity.intro' } } } },
            ],
          },
    );
    const shell = await renderStepShell('/infiintare-pfa/8', undefined, edited);
    expect(shell).toContain(inHtml(stepText('/infiintare-pfa/8', 'title')));
    expect(shell).toContain(inHtml(stepText('/infiintare-pfa/8', 'intro')));
    expect(shell).not.toContain(inHtml(localeText('steps:identity.intro')));
    // The same shell as without the variant: nothing of it shows before the request is known.
    expect(shell).toBe(await renderStepShell('/infiintare-pfa/8'));
    // The partner's applicants: the app resolves the flow for their request (tests/engine/config-driven.test.tsx renders it).
    const newFlow = edited.find((f) => f.id === 'new-pfa')!;
    const theirs = resolveFlow(newFlow, { partner: 'partener-nou', unaffiliated: false, activity: null, formData: {} }).steps.find((s) => s.id === card.id)!;
    expect([theirs.title, theirs.copy?.intro, theirs.copy?.submit]).toEqual(['steps:questionnaire.title', 'steps:identity.intro', card.copy?.submit]);
  });

  it('shellStep: the step as an applicant no variant applies to sees it (the flow resolved for SHELL_CONTEXT)', () => {
    const newFlow = FLOW_FILES[2];
    const at = (id: string) => shellStep(newFlow, newFlow.steps.find((s) => s.id === id)!);
    // The unaffiliated title; no activity's notice on the overview, no partner's office step.
    expect(at('requesting-company-step-9').title).toBe('steps:pricing.titleUnaffiliated');
    expect(at('requesting-company-step-7').copy?.notice).toBeUndefined();
    expect(at('requesting-company-step-6')).toEqual(newFlow.steps.find((s) => s.id === 'requesting-company-step-6'));
    expect(SHELL_CONTEXT).toMatchObject({ partner: null, unaffiliated: true, activity: null, formData: {} });
  });

  it('"Ieșire din cont" works before the app has loaded: a button in a form that posts to /logout', async () => {
    for (const route of ['/infiintare-pfa/1', '/inregistrare/2']) {
      const html = await renderStepShell(route);
      // The form holds the button (emotion's <style> for it comes first in the server render).
      const form = /<form[^>]*action="\/logout"[^>]*>(.*?)<\/form>/s.exec(html)?.[1] ?? '';
      expect(form.replace(/<style[^>]*>.*?<\/style>/gs, ''), route).toMatch(/^<button[^>]*type="submit"[^>]*>Ieșire din cont<\/button>$/);
      expect(html, route).toMatch(/<form(?=[^>]*method="post")[^>]*action="\/logout"/);
    }
  });

  it('withStepShell: the shell above a hidden root, without test ids, and a modulepreload per chunk', () => {
    const index = '<html><head>\n    <script type="module" src="/assets/index-1.js"></script>\n  </head><body>\n    <div id="root"></div>\n</body></html>';
    const asks = { open: '/api/registration/open', registrationType: 2 };
    const html = withStepShell(index, '/infiintare-pfa/3', '<header><span data-testid="flow-title">Înființare PFA</span></header>', ['assets/FlowStepsPage-2.js'], asks);
    expect(html).toContain(
      '<div id="shell" data-route="/infiintare-pfa/3" data-open="/api/registration/open" data-registration-type="2"><header><span>Înființare PFA</span></header></div>',
    );
    expect(html).toContain('<div id="root" hidden></div>');
    // The shell is the first paint: the app's scripts at low priority, index.html's entry too.
    expect(html).toContain('<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/FlowStepsPage-2.js">\n  </head>');
    expect(html).toContain('<script type="module" fetchpriority="low" src="/assets/index-1.js"></script>');
    expect(() => withStepShell('<div id="app"></div>', '/x', '', [], asks)).toThrow(/no <div id="root"><\/div>/);
    // The applicant's own data the step's widgets read, when there is any.
    expect(withStepShell(index, '/infiintare-pfa/7', '', [], { ...asks, ahead: ['/api/registration/overview'] })).toContain(
      '<div id="shell" data-route="/infiintare-pfa/7" data-open="/api/registration/open" data-registration-type="2" data-ahead="/api/registration/overview">',
    );
  });

  it('withModulePreloads: a modulepreload per chunk at the end of <head> (index.html preloads the app beside its small entry)', () => {
    const index = '<html><head>\n    <script type="module" crossorigin src="/assets/index-1.js"></script>\n  </head><body></body></html>';
    expect(withModulePreloads(index, ['assets/main-2.js', 'assets/framework-3.js'])).toBe(
      '<html><head>\n    <script type="module" crossorigin src="/assets/index-1.js"></script>\n    <link rel="modulepreload" crossorigin href="/assets/main-2.js">\n    <link rel="modulepreload" crossorigin href="/assets/framework-3.js">\n  </head><body></body></html>',
    );
  });

  it('withLowPriorityScripts: every module script and modulepreload once, nothing else', () => {
    const head = '<script type="module" crossorigin src="/assets/index-1.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/main-2.js">\n<link rel="icon" href="/favicon.svg">\n<script type="module" fetchpriority="high" src="/assets/x-3.js"></script>';
    const low = withLowPriorityScripts(head);
    expect(low).toBe(
      '<script type="module" fetchpriority="low" crossorigin src="/assets/index-1.js"></script>\n<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/main-2.js">\n<link rel="icon" href="/favicon.svg">\n<script type="module" fetchpriority="high" src="/assets/x-3.js"></script>',
    );
    expect(withLowPriorityScripts(low)).toBe(low);
  });

  it('staticChunks: the chunks and what they import statically, without the entry and its own imports', () => {
    const manifest = {
      'index.html': { file: 'assets/index.js', imports: ['_react.js'] },
      '_react.js': { file: 'assets/react.js' },
      '_stack.js': { file: 'assets/stack.js', imports: ['_react.js'] },
      'src/pages/flow/FlowStepsPage.tsx': { file: 'assets/FlowStepsPage.js', imports: ['index.html', '_stack.js'], dynamicImports: ['_lazy.js'] },
      '_lazy.js': { file: 'assets/lazy.js' },
    };
    expect(staticChunks(manifest, ['src/pages/flow/FlowStepsPage.tsx'])).toEqual(['assets/FlowStepsPage.js', 'assets/stack.js']);
    expect(() => staticChunks(manifest, ['src/nothing.tsx'])).toThrow(/no entry src\/nothing.tsx/);
  });

  it("stepShellAsks: the flow's request and the applicant's own data the step's widgets ask for (their prefetch)", async () => {
    expect(await stepShellAsks('/infiintare-pfa/1')).toEqual({ open: '/api/registration/open', registrationType: 2, ahead: ['/api/veriff/get-last-session'] });
    expect(await stepShellAsks('/inregistrare/5')).toEqual({ open: '/api/registration/existing/open', registrationType: 1, ahead: ['/api/veriff/get-last-session'] });
    expect(await stepShellAsks('/infiintare-pfa/7')).toEqual({ open: '/api/registration/open', registrationType: 2, ahead: ['/api/registration/overview'] });
    // Lists (the same for everyone) are the app's to ask; the card step asks for nothing more.
    expect((await stepShellAsks('/infiintare-pfa/0')).ahead).toEqual([]);
    expect((await stepShellAsks('/infiintare-pfa/8')).ahead).toEqual([]);
  });

  it("stepShellModules: a step's validator and the widgets and fields of its flow file, as the manifest names them", () => {
    expect(stepShellModules('/infiintare-pfa/1')).toEqual(['virtual:step-validator/identity.json.js', 'widgets/id-capture/IdentityField.tsx']);
    expect(stepShellModules('/infiintare-pfa/0')).toEqual(['virtual:step-validator/questionnaire.json.js', 'widgets/questionnaire/QuestionnaireWidget.tsx']);
    expect(stepShellModules('/inregistrare/2')).toEqual(['virtual:step-validator/fiscal-code.json.js']);
    expect(() => stepShellModules('/infiintare-pfa/99')).toThrow(/no step of a flow file/);
  });
});

/** What a guest page fetches ahead for the page its form leads to (src/guest/prefetch.ts puts the links in <head> when idle). */
describe('the next page of a guest page', () => {
  const app = {
    'index.html': { file: 'assets/index-1.js', imports: ['_framework.js'] },
    '_framework.js': { file: 'assets/framework-2.js' },
    'src/main.tsx': { file: 'assets/main-3.js', imports: ['_framework.js', '_app.js'], dynamicImports: ['src/pages/DashboardPage.tsx'] },
    '_app.js': { file: 'assets/app-4.js' },
    'src/pages/DashboardPage.tsx': { file: 'assets/DashboardPage-5.js' },
    'src/pages/flow/FlowLayout.tsx': { file: 'assets/FlowLayout-6.js', imports: ['_app.js'] },
    'src/pages/flow/FlowStepsPage.tsx': { file: 'assets/FlowStepsPage-7.js', imports: ['_step-services.js'] },
    '_step-services.js': { file: 'assets/step-services-8.js' },
    'locales/ro/steps.json': { file: 'assets/steps-9.js' },
    'src/shared/toaster-view.tsx': { file: 'assets/toaster-view-h.js', imports: ['_framework.js'] },
  };
  const guest = {
    'src/guest/pages/register.ts': { file: 'assets/register-a.js', imports: ['_start.js'] },
    'src/guest/pages/register-account.ts': { file: 'assets/register-account-b.js', imports: ['_start.js', '_paths.js'] },
    '_start.js': { file: 'assets/start-c.js' },
    '_paths.js': { file: 'assets/paths-d.js' },
  };

  it("'app': what every step page loads (the entry and its preloads, the app, the step page's chunks, the steps copy, the toasts' view), not the lazy pages", () => {
    expect(nextPageFiles('app', ['assets/login-e.js', 'assets/start-c.js'], app, guest)).toEqual([
      'assets/index-1.js',
      'assets/framework-2.js',
      'assets/main-3.js',
      'assets/app-4.js',
      'assets/FlowLayout-6.js',
      'assets/FlowStepsPage-7.js',
      'assets/step-services-8.js',
      'assets/steps-9.js',
      'assets/toaster-view-h.js',
    ]);
  });

  it("'first-step': the same and the chunks of the steps the flow files start at, with what they import", () => {
    const withSteps = {
      ...app,
      'widgets/questionnaire/QuestionnaireWidget.tsx': { file: 'assets/QuestionnaireWidget-f.js', imports: ['_app.js', '_types.js'] },
      '_types.js': { file: 'assets/types-g.js' },
    };
    const files = nextPageFiles('first-step', [], withSteps, guest, ['widgets/questionnaire/QuestionnaireWidget.tsx']);
    expect(files.slice(0, 9)).toEqual(nextPageFiles('app', [], withSteps, guest));
    expect(files.slice(9)).toEqual(['assets/QuestionnaireWidget-f.js', 'assets/types-g.js']);
    expect(nextPageFiles('app', [], withSteps, guest, ['widgets/questionnaire/QuestionnaireWidget.tsx'])).toHaveLength(9);
  });

  it('flowStartPaths: the first step of each flow file', () => {
    expect(flowStartPaths()).toEqual(Object.values(FLOWS).map((f) => f.steps[0].path));
    expect(flowStartPaths()).toContain('/infiintare-pfa/0');
  });

  it('a guest route: that page\'s chunks, without those the page has loaded already', () => {
    const own = ['assets/register-a.js', 'assets/start-c.js'];
    expect(nextPageFiles('/register/account', own, app, guest)).toEqual(['assets/register-account-b.js', 'assets/paths-d.js']);
    expect(() => nextPageFiles('/nowhere', own, app, guest)).toThrow(/\/nowhere is not a guest page/);
  });

  it('every guest page whose form leads on names where: signing in into the app, the account to the first step, the type to the account form', () => {
    expect(Object.fromEntries(ROUTE_PAGES.map((p) => [p.route, p.next ?? null]))).toEqual({
      '/login': 'app',
      '/register': '/register/account',
      '/register/account': 'first-step',
      '/password/forgot': null,
    });
  });

  it('withNextPage: the prefetch links inert in a template at the end of <head>, nothing for no files', () => {
    const page = '<html><head>\n    <script type="module" crossorigin src="/assets/login-1.js"></script>\n  </head><body></body></html>';
    expect(withNextPage(page, ['assets/framework-2.js', 'assets/main-3.js'])).toBe(
      '<html><head>\n    <script type="module" crossorigin src="/assets/login-1.js"></script>\n    <template id="next-page">\n' +
        '      <link rel="prefetch" as="script" crossorigin href="/assets/framework-2.js">\n' +
        '      <link rel="prefetch" as="script" crossorigin href="/assets/main-3.js">\n' +
        '    </template>\n  </head><body></body></html>',
    );
    expect(withNextPage(page, [])).toBe(page);
  });
});
