import { useCallback, useEffect, useMemo, useState } from 'react';
import { Spinner } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { api } from '@/shared/api/client';
import { useConfig } from '@/shared/api/hooks';
import { browser } from '@/shared/browser';
import { loadStepsNamespace } from '@/shared/i18n';
import { session, useSession } from '@/shared/session';
import { toaster } from '@/shared/toaster';
import { useFlowProgress } from '@/shared/flow-progress';
import { usePageTitle, useT } from '@/shared/useT';
import { stepByPath, type Flow } from '@/core/flow';
import { STATIC_ROUTES } from '@/core/routes';
import { FLOWS } from '@/engine/flows';
import { preloadStepAt } from '@/engine/preload';
import { Wizard } from '@/engine/Wizard';
import type { RegistrationRequest } from '@/core/api-types';
import type { StepServices } from '../../../widgets/types';
import { createStepServices, stepAhead } from './step-services';
import { NotFoundMessage } from '@/pages/NotFoundPage';
import { shellRoute } from '@/shared/shell';
import { takeEarly } from '@/early-requests';

interface Opening {
  flow: Flow;
  pathname: string;
  request: Promise<RegistrationRequest>;
}

/** The flow's own address or one of its step addresses (any variant's): anything else is a 404 (spec 000 §2.3). */
const isFlowAddress = (flow: Flow, pathname: string) => pathname.replace(/\/+$/, '') === flow.basePath || stepByPath(flow, pathname) !== null;

/**
 * Asks, side by side, for the request and for the validator and widgets of the step at this address,
 * and for what those widgets draw with (`stepAhead`: their option lists, the identity session). The
 * wizard preloads the request's current step too, should it be another one or a partner's variant.
 */
function open(flow: Flow, pathname: string, early: Promise<Response> | null = null): Opening {
  void preloadStepAt(flow, pathname, stepAhead(flow));
  const request = early ? api.receive<RegistrationRequest>(early) : api.get<RegistrationRequest>(`${flow.api.open}?timestamp=${Date.now()}`);
  // The wizard handles a failure once it mounts (after the copy): not an unhandled rejection meanwhile.
  request.catch(() => undefined);
  return { flow, pathname, request };
}

/**
 * The opening no mounted page has taken yet. On a step page's document (its prerendered shell) it is
 * made as soon as the router evaluates this chunk, while the app's first render is still to come, and
 * takes the request the document's entry asked for before the app's scripts arrived (issue 14: the
 * step's data and widget are there sooner on a phone); and a render React starts over (the first
 * render is a transition) takes the same opening instead of asking the server twice.
 */
let pending: Opening | null = null;
if (typeof window !== 'undefined') {
  const user = session.user();
  const pathname = window.location.pathname;
  const flow = user ? FLOWS[user.registration_type] : undefined;
  if (flow && shellRoute() === pathname.replace(/(.)\/+$/, '$1') && isFlowAddress(flow, pathname)) {
    // The document asked for it already, unless the user changed meanwhile (src/early-requests.ts).
    pending = open(flow, pathname, takeEarly(flow.api.open, session.token()));
  }
}

function takeOpening(flow: Flow, pathname: string): Opening {
  if (pending?.flow !== flow || pending.pathname !== pathname) pending = open(flow, pathname);
  return pending;
}

/**
 * The step view of a flow wrapper: the wizard of the user's flow file (src/engine), with the app's
 * API client, copy and progress bar. The `steps` copy loads with this chunk, not with the login page.
 */
export function FlowStepsPage() {
  const { i18n } = useTranslation();
  const t = useT('common');
  const { user } = useSession();
  const { setProgress } = useFlowProgress();
  const [copyReady, setCopyReady] = useState(() => i18n.hasResourceBundle(i18n.resolvedLanguage ?? 'ro', 'steps'));
  const registrationType = user?.registration_type ?? 2;
  const { pathname } = useLocation();
  const flow = FLOWS[registrationType];
  const known = isFlowAddress(flow, pathname);
  usePageTitle(!known ? t('notFound.title') : copyReady ? t(flow.title) : '');

  // Asked for at once and side by side with the step copy, not one after the other.
  const [opening] = useState(() => (known && user ? takeOpening(flow, pathname) : null));
  // Mounted with it: the next page asks afresh.
  useEffect(() => {
    if (pending === opening) pending = null;
  }, [opening]);

  const [copy] = useState(() => (copyReady ? null : loadStepsNamespace(i18n)));
  useEffect(() => {
    if (copyReady) return;
    let live = true;
    void (copy ?? loadStepsNamespace(i18n)).then(() => live && setCopyReady(true));
    return () => {
      live = false;
    };
  }, [copy, copyReady, i18n]);

  const { config } = useConfig();
  const { terms_url: termsUrl, privacy_url: privacyUrl } = config;
  const services: StepServices = useMemo(() => ({ ...createStepServices(t, flow), legal: { termsUrl, privacyUrl } }), [t, flow, termsUrl, privacyUrl]);
  // Stable callbacks: the progress bar re-renders this page, and the memoized wizard stays as it is.
  const onProgress = useCallback(
    ({ percent, position, total }: { percent: number; position: number; total: number }) =>
      setProgress({ value: percent, label: t('steps:common.progress', { position, total }) }),
    [setProgress, t],
  );
  const onStale = useCallback(() => toaster.create({ type: 'info', description: t('steps:common.staleStep') }), [t]);
  const onLeave = useCallback(
    (path: string) => {
      // The questionnaire's mark-as-lost: the user's flow is stopped until they come back.
      if (user && path === STATIC_ROUTES['register-questionnaire-info']) session.setUser({ ...user, stop_flow: true });
    },
    [user],
  );

  if (!known) return <NotFoundMessage />;
  if (!copyReady || !user) return <Spinner aria-label="…" />;
  return (
    <Wizard
      registrationType={registrationType}
      api={api}
      services={services}
      initialRequest={opening?.flow === flow ? opening.request : undefined}
      onProgress={onProgress}
      onRedirect={redirect}
      onStale={onStale}
      onLeave={onLeave}
    />
  );
}

const redirect = (url: string) => browser.assign(url);
