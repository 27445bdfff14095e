import { useEffect, useMemo, useState } from 'react';
import { Spinner } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { api } from '@/shared/api/client';
import { browser } from '@/shared/browser';
import { loadStepsNamespace } from '@/shared/i18n';
import { session, useSession } from '@/shared/session';
import { toaster } from '@/shared/toaster';
import { useFlowProgress } from '@/shared/flow-progress';
import { usePageTitle, useT } from '@/shared/useT';
import { stepByPath } from '@/core/flow';
import { STATIC_ROUTES } from '@/core/routes';
import { FLOWS } from '@/engine/flows';
import { Wizard } from '@/engine/Wizard';
import type { StepServices } from '../../../widgets/types';
import { createStepServices } from './step-services';
import { NotFoundMessage } from '@/pages/NotFoundPage';

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
  // The flow's own address or one of its step addresses (any variant's): anything else is a 404 (spec 000 §2.3).
  const flow = FLOWS[registrationType];
  const known = pathname.replace(/\/+$/, '') === flow.basePath || stepByPath(flow, pathname) !== null;
  usePageTitle(!known ? t('notFound.title') : copyReady ? t(flow.title) : '');

  useEffect(() => {
    if (!copyReady) void loadStepsNamespace(i18n).then(() => setCopyReady(true));
  }, [copyReady, i18n]);

  const services: StepServices = useMemo(() => createStepServices(t, flow), [t, flow]);

  if (!known) return <NotFoundMessage />;
  if (!copyReady || !user) return <Spinner aria-label="…" />;
  return (
    <Wizard
      registrationType={registrationType}
      api={api}
      services={services}
      onProgress={({ percent, position, total }) => setProgress({ value: percent, label: t('steps:common.progress', { position, total }) })}
      onRedirect={(url) => browser.assign(url)}
      onStale={() => toaster.create({ type: 'info', description: t('steps:common.staleStep') })}
      onLeave={(path) => {
        // The questionnaire's mark-as-lost: the user's flow is stopped until they come back.
        if (path === STATIC_ROUTES['register-questionnaire-info']) session.setUser({ ...user, stop_flow: true });
      }}
    />
  );
}
