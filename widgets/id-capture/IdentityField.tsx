import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Image, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { IDENTITY_CONTEXTS, stepContext, type IdentityContext, type StepLists, type StepServices } from '../types';
import { UploadSlot } from './UploadSlot';
import { HandOver } from './HandOver';
import { HomeAddress } from './HomeAddress';
import { CONTEXT_KEYS, profileComplete } from './identity-rules';
import type { IdentityUploads } from './useIdentityUploads';
import { useIdentitySession } from './useIdentitySession';
import { useMediaQuery } from '../shared/useMediaQuery';

export { PHOTO_POLL_MS, profileComplete, SESSION_LOST_RELOAD_MS, STATUS_POLL_MS } from './identity-rules';

/**
 * The last identity session (what the step draws first: the uploads so far, the wait, the decision) is
 * asked for with the step's request (widgets/types.ts `WidgetModule`): one round trip less on a phone,
 * the handed-over one too.
 */
export const prefetch = (ahead: StepLists) => ahead.lastIdentitySession?.() ?? Promise.resolve();

/** Spec 000 §9: the identity step's phone layout is up to 1024 px wide. */
export const MOBILE_QUERY = '(max-width: 1024px)';

interface Options {
  withPlaceOfBirth?: boolean;
  handOverRoute?: string;
}

type T = StepServices['t'];

/**
 * The identity step (spec 000 §2.3, §4.4; 001 §2 item 13): three ordered uploads (front of ID,
 * back of ID, selfie), the phone hand-over by QR code on desktop, submit, the wait for a decision,
 * then the home address with its form. Sets `verified: true` when "Pasul următor" is allowed:
 * status 2 (or 3 with a complete profile and three uploads), submitted, no failure, an address.
 */
export default function IdentityField(props: FieldProps<{ verified?: boolean }>) {
  const { registry, onChange, fieldPathId, formData, uiSchema } = props;
  const { services, profile, reloadRequest, blockNext } = stepContext(registry);
  const { t, identity, places } = services;
  const options = (uiSchema?.['ui:options'] ?? {}) as Options;
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [handOver, setHandOver] = useState(!mobile);
  const handedOver = handOver && !mobile;
  const idv = useIdentitySession({ identity, t, profile, reloadRequest, reloadPage: services.reloadPage, pollPhotos: handedOver, onReset: () => setHandOver(!mobile) });
  const { phase, uploads, busy } = idv;

  // The step's schema requires `verified: true`: the engine's "Pasul următor" follows it.
  const ready = phase === 'approved' && idv.submitted && !idv.failure && profileComplete(profile);
  useEffect(() => {
    if (ready !== Boolean(formData?.verified)) onChange(ready ? { verified: true } : {}, fieldPathId.path);
  }, [ready, formData?.verified, onChange, fieldPathId.path]);

  // Why "Pasul următor" is disabled, beside it (issue 17): the address after approval, else the verification.
  const addressMissing = phase === 'approved' && !profileComplete(profile);
  const blocked = ready ? null : t(addressMissing ? 'steps:identity.nextNeedsAddress' : 'steps:identity.nextNeedsVerification');
  useEffect(() => {
    blockNext?.(blocked);
  }, [blocked, blockNext]);

  // The decision's message takes the focus when it arrives (not the page body the waiting spinner leaves).
  const result = useRef<HTMLDivElement>(null);
  const lastPhase = useRef(phase);
  useEffect(() => {
    if (lastPhase.current === 'waiting' && (phase === 'approved' || phase === 'rejected')) result.current?.focus();
    lastPhase.current = phase;
  }, [phase]);

  if (idv.sessionLost) {
    return (
      <Alert.Root status="warning" role="alert">
        <Alert.Indicator />
        <Alert.Description>{t('steps:identity.sessionLost')}</Alert.Description>
      </Alert.Root>
    );
  }
  if (phase === 'loading') return <Spinner aria-label={t('steps:common.loading')} />;

  const labels = Object.fromEntries(IDENTITY_CONTEXTS.map((c) => [c, t(`steps:identity.contexts.${CONTEXT_KEYS[c]}`)])) as Record<IdentityContext, string>;
  const restartButton = idv.session ? (
    <Button variant="outline" colorPalette="red" onClick={() => void idv.restart()} disabled={busy} alignSelf="flex-start">
      {t('steps:identity.restart')}
    </Button>
  ) : null;

  return (
    <Stack gap="5" data-testid="identity-step" data-phase={phase}>
      {idv.failure ? <FailureBanner failure={idv.failure} anyUploaded={uploads.anyUploaded} t={t} /> : null}

      {phase === 'collecting' ? (
        <>
          {handedOver ? (
            <HandOver identity={identity} route={options.handOverRoute ?? 'collect-user-profile-step'} t={t} onDesktop={() => setHandOver(false)} />
          ) : null}
          <UploadList uploads={uploads} labels={labels} busy={busy} mobile={mobile} handedOver={handedOver} t={t} onFile={(context, file) => void idv.pick(context, file)} />
          {handedOver && !uploads.allUploaded ? null : (
            <Button colorPalette="blue" size="lg" onClick={() => void idv.submit()} disabled={!uploads.allUploaded || uploads.uploading || busy} loading={busy} loadingText={t('steps:identity.submit')}>
              {t('steps:identity.submit')}
            </Button>
          )}
          {!mobile && !handOver ? (
            <Button variant="ghost" onClick={() => setHandOver(true)} alignSelf="flex-start">
              {t('steps:identity.handOver.phone')}
            </Button>
          ) : null}
          {restartButton}
        </>
      ) : null}

      {phase === 'waiting' ? (
        <Stack gap="3" align="center" role="status" aria-live="polite">
          <Spinner size="lg" aria-hidden="true" />
          <Text>{t('steps:identity.waiting')}</Text>
        </Stack>
      ) : null}

      {phase === 'rejected' ? (
        <Stack gap="4">
          <Alert.Root status="error" role="alert" ref={result} tabIndex={-1} data-testid="identity-result">
            <Alert.Indicator />
            <Alert.Description>{idv.rejection}</Alert.Description>
          </Alert.Root>
          {restartButton}
        </Stack>
      ) : null}

      {phase === 'approved' ? (
        <Stack gap="4">
          <Alert.Root status="success" ref={result} tabIndex={-1} data-testid="identity-result">
            <Alert.Indicator />
            <Alert.Description>{t('steps:identity.approved')}</Alert.Description>
          </Alert.Root>
          <HomeAddress
            profile={profile}
            places={places}
            t={t}
            withPlaceOfBirth={options.withPlaceOfBirth !== false}
            save={async (values) => {
              await identity.saveAddress(values);
              await reloadRequest();
            }}
          />
          <Previews uploads={uploads} labels={labels} t={t} />
          {restartButton}
        </Stack>
      ) : null}
    </Stack>
  );
}

/** A failed call: what failed, and whether to restart (photos were taken) or reload. */
function FailureBanner({ failure, anyUploaded, t }: { failure: string; anyUploaded: boolean; t: T }) {
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          {t('steps:identity.errors.bannerPrefix')} {failure}
        </Alert.Title>
        <Alert.Description>{t(anyUploaded ? 'steps:identity.errors.hintRestart' : 'steps:identity.errors.hintReload')}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

interface UploadListProps {
  uploads: IdentityUploads;
  labels: Record<IdentityContext, string>;
  busy: boolean;
  mobile: boolean;
  /** While handed over, the phone takes the photos; the slots only show what arrived. */
  handedOver: boolean;
  t: T;
  onFile(context: IdentityContext, file: File): void;
}

/** The three ordered uploads: each opens once the ones before it are done. */
function UploadList({ uploads, labels, busy, mobile, handedOver, t, onFile }: UploadListProps) {
  const state = uploads.uploads;
  return (
    <Stack gap="3" as="ol" listStyleType="none" aria-label={t('steps:identity.uploadsLabel')}>
      {IDENTITY_CONTEXTS.map((context, index) => {
        const before = IDENTITY_CONTEXTS.slice(0, index);
        const enabled = before.every((c) => state[c].completed) && !uploads.uploading && !uploads.uploadError && !busy;
        if (handedOver && !state[context].completed) return null;
        return (
          <Box as="li" key={context}>
            <UploadSlot
              context={context}
              position={index + 1}
              label={labels[context]}
              state={state[context]}
              disabled={!enabled}
              mobile={mobile}
              t={t}
              onFile={(file) => onFile(context, file)}
            />
          </Box>
        );
      })}
    </Stack>
  );
}

/** The photos sent, shown after approval. */
function Previews({ uploads, labels, t }: { uploads: IdentityUploads; labels: Record<IdentityContext, string>; t: T }) {
  return (
    <SimpleGrid columns={{ base: 1, sm: 3 }} gap="3">
      {IDENTITY_CONTEXTS.map((context) => {
        const preview = uploads.uploads[context].preview;
        return preview ? <Image key={context} src={preview} alt={t('steps:identity.previewAlt', { label: labels[context] })} maxH="40" objectFit="contain" /> : null;
      })}
    </SimpleGrid>
  );
}
