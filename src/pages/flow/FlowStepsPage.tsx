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
import { askAhead, takeAhead } from '@/shared/api/ahead';

/** The flow's own address or one of its step addresses (any variant's): anything else is a 404 (spec 000 §2.3). */
const isFlowAddress = (flow: Flow, pathname: string) => pathname.replace(/\/+$/, '') === flow.basePath || stepByPath(flow, pathname) !== null;

/**
 * Asks ahead (src/shared/api/ahead.ts), side by side, for the request and for the validator and widgets
 * of the step at this address, and for what those widgets draw with (`stepAhead`: their option lists,
 * the identity session, the overview's data). Asking again, as a render React starts over does, sends
 * nothing twice. The wizard takes the request when it mounts (`takeRequest`), and preloads the
 * request's current step too, should it be another one or a partner's variant.
 */
function askAheadFor(flow: Flow, pathname: string): void {
  void preloadStepAt(flow, pathname, stepAhead(flow));
  askAhead(flow.api.open, session.token(), `${flow.api.open}?timestamp=${Date.now()}`).catch(() => undefined);
}

// On a step page's document (its prerendered shell) this chunk asks as soon as the router evaluates
// it, while the app's first render is still to come (issue 14: the step's data and widgets are there
// sooner on a phone); the request itself the document's entry asked for already (src/boot.ts).
if (typeof window !== 'undefined') {
  const user = session.user();
  const pathname = window.location.pathname;
  const flow = user ? FLOWS[user.registration_type] : undefined;
  if (flow && shellRoute() === pathname.replace(/(.)\/+$/, '$1') && isFlowAddress(flow, pathname)) askAheadFor(flow, pathname);
}

/** The request as the wizard asks for it when it mounts: the answer asked for ahead, once, else the server's. */
function takeRequest(flow: Flow): Promise<RegistrationRequest> {
  const taken = takeAhead(flow.api.open, session.token());
  return taken ? api.receive<RegistrationRequest>(taken) : api.get<RegistrationRequest>(`${flow.api.open}?timestamp=${Date.now()}`);
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
  useState(() => {
    if (known && user) askAheadFor(flow, pathname);
  });
  const openRequest = useCallback(() => takeRequest(flow), [flow]);

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
      openRequest={openRequest}
      onProgress={onProgress}
      onRedirect={redirect}
      onStale={onStale}
      onLeave={onLeave}
    />
  );
}

const redirect = (url: string) => browser.assign(url);
