import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Heading, Image, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { IDENTITY_CONTEXTS, stepContext, type IdentityContext, type IdentityError, type IdentitySession, type Profile } from '../types';
import { AddressForm } from '../address-form/AddressForm';
import { EMPTY_UPLOAD, UploadSlot, type UploadState } from './UploadSlot';
import { HandOver } from './HandOver';
import { MAX_IMAGE_SIDE, scaleImage } from './scale-image';
import { useMediaQuery } from './useMediaQuery';

/** Spec 000 §9: status polling every 5 s, photo polling (phone hand-over) every 3 s, reload 3 s after a lost session. */
export const STATUS_POLL_MS = 5000;
export const PHOTO_POLL_MS = 3000;
export const SESSION_LOST_RELOAD_MS = 3000;
/** Spec 000 §9: the identity step's phone layout is up to 1024 px wide. */
export const MOBILE_QUERY = '(max-width: 1024px)';

const STATUS = { pending: 1, approved: 2, rejected: 3, submitted: 4 } as const;
const KEYS: Record<IdentityContext, string> = { 'document-front': 'front', 'document-back': 'back', face: 'face' };

type Phase = 'loading' | 'collecting' | 'waiting' | 'approved' | 'rejected';
type Uploads = Record<IdentityContext, UploadState>;

const emptyUploads = (): Uploads => ({ 'document-front': { ...EMPTY_UPLOAD }, 'document-back': { ...EMPTY_UPLOAD }, face: { ...EMPTY_UPLOAD } });

/** Spec 000 §5: first name, last name, place of birth, county, city, street and number are present. */
export function profileComplete(profile: Profile): boolean {
  return Boolean(
    profile.first_name && profile.last_name && profile.place_of_birth && profile.county_id && profile.city_id && profile.street && profile.number,
  );
}

function isSessionLost(error: unknown): boolean {
  const e = error as IdentityError | null;
  return e?.status === 404 && e.code === 'VERIFF_SESSION_NOT_FOUND';
}

function formatAddress(profile: Profile): string | null {
  if (!profile.street || !profile.number || !profile.city) return null;
  return [profile.address_1, profile.address_2].filter(Boolean).join(', ') || `${profile.street} ${profile.number}, ${profile.city}`;
}

interface Options {
  withPlaceOfBirth?: boolean;
  handOverRoute?: string;
}

/**
 * The identity step (spec 000 §2.3, §4.4; 001 §2 item 13): three ordered uploads (front of ID,
 * back of ID, selfie), the phone hand-over by QR code on desktop, submit, the wait for a decision,
 * then the home address with its form. Sets `verified: true` when "Pasul următor" is allowed:
 * status 2 (or 3 with a complete profile and three uploads), submitted, no failure, an address.
 */
export default function IdentityField(props: FieldProps<{ verified?: boolean }>) {
  const { registry, onChange, fieldPathId, formData, uiSchema } = props;
  const { services, profile, reloadRequest } = stepContext(registry);
  const { t, identity, places } = services;
  const options = (uiSchema?.['ui:options'] ?? {}) as Options;
  const mobile = useMediaQuery(MOBILE_QUERY);

  const [phase, setPhase] = useState<Phase>('loading');
  const [session, setSession] = useState<{ session_id: string; custom_id: string } | null>(null);
  const [uploads, setUploads] = useState<Uploads>(emptyUploads);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [rejection, setRejection] = useState<string | null>(null);
  const [sessionLost, setSessionLost] = useState(false);
  const [handOver, setHandOver] = useState(!mobile);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const live = useRef(true);
  const objectUrls = useRef<string[]>([]);
  // The latest uploads and profile for the polling callbacks.
  const uploadsRef = useRef(uploads);
  const profileRef = useRef(profile);
  useEffect(() => {
    uploadsRef.current = uploads;
    profileRef.current = profile;
  }, [uploads, profile]);

  useEffect(() => {
    live.current = true;
    const urls = objectUrls.current;
    return () => {
      live.current = false;
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, []);

  const remember = (url: string) => {
    if (url.startsWith('blob:')) objectUrls.current.push(url);
    return url;
  };

  const patchUpload = (context: IdentityContext, patch: Partial<UploadState>) =>
    setUploads((current) => ({ ...current, [context]: { ...current[context], ...patch } }));

  /** A 404 VERIFF_SESSION_NOT_FOUND: the session was deleted elsewhere; reload after 3 s. */
  const loseSession = useCallback(() => {
    setSessionLost(true);
    setTimeout(() => window.location.reload(), SESSION_LOST_RELOAD_MS);
  }, []);

  /** Status 3: the reason, unless profile, address and the three uploads make it count as approved. */
  const settleRejected = useCallback(
    async (current: { session_id: string; custom_id: string }, allUploaded: boolean) => {
      if (allUploaded && profileComplete(profileRef.current)) {
        setPhase('approved');
        return;
      }
      let reason: string | null = null;
      try {
        reason = (await identity.error(current.session_id, current.custom_id)).translated_reason;
      } catch (error) {
        if (isSessionLost(error)) return loseSession();
      }
      if (!live.current) return;
      setRejection(reason ? t('steps:identity.errors.rejected', { reason }) : t('steps:identity.errors.rejectedGeneric'));
      setPhase('rejected');
    },
    [identity, loseSession, t],
  );

  /** Restores the screen from a session as the server has it (on load, and while handed over to a phone). */
  const restore = useCallback(
    async (last: IdentitySession | null) => {
      if (!live.current) return;
      if (!last) {
        setSession(null);
        setPhase('collecting');
        return;
      }
      setSession({ session_id: last.session_id, custom_id: last.custom_id });
      setSubmitted(last.submitted || last.status !== STATUS.pending);
      setUploads((current) => {
        const next = { ...current };
        for (const context of IDENTITY_CONTEXTS) {
          const uploaded = last.uploads[context];
          if (uploaded && !current[context].completed) next[context] = { ...EMPTY_UPLOAD, completed: true };
        }
        return next;
      });
      for (const context of IDENTITY_CONTEXTS) {
        const uploaded = last.uploads[context];
        if (uploaded && !uploadsRef.current[context].preview) {
          identity.preview(uploaded.preview_url).then(
            (url) => live.current && patchUpload(context, { preview: remember(url) }),
            () => undefined,
          );
        }
      }
      const allUploaded = IDENTITY_CONTEXTS.every((c) => last.uploads[c]);
      if (last.status === STATUS.pending) setPhase('collecting');
      else if (last.status === STATUS.submitted) setPhase('waiting');
      else if (last.status === STATUS.approved) setPhase('approved');
      else if (last.status === STATUS.rejected) await settleRejected(last, allUploaded);
      else {
        // Spec 000 §4.4: any other value stops polling and reloads the request.
        setPhase('collecting');
        await reloadRequest();
      }
    },
    [identity, reloadRequest, settleRejected],
  );

  // On load the last session is fetched and the screen restored by its status.
  useEffect(() => {
    identity.lastSession().then(restore, (error) => {
      if (isSessionLost(error)) loseSession();
      else {
        setFailure(t('steps:identity.errors.sessionStart'));
        setPhase('collecting');
      }
    });
  }, [identity, restore, loseSession, t]);

  // Waiting for a decision: the status every 5 s.
  useEffect(() => {
    if (phase !== 'waiting' || !session) return;
    const timer = setInterval(async () => {
      let status: number;
      try {
        status = await identity.status(session.session_id, session.custom_id);
      } catch (error) {
        if (isSessionLost(error)) {
          clearInterval(timer);
          loseSession();
        }
        return;
      }
      if (!live.current || status === STATUS.submitted) return;
      clearInterval(timer);
      if (status === STATUS.approved) {
        await reloadRequest(); // the decision filled the profile
        if (live.current) setPhase('approved');
      } else if (status === STATUS.rejected) {
        await settleRejected(session, IDENTITY_CONTEXTS.every((c) => uploadsRef.current[c].completed));
      } else {
        setPhase('collecting');
        await reloadRequest();
      }
    }, STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, [phase, session, identity, reloadRequest, settleRejected, loseSession]);

  // Handed over to a phone: the photos every 3 s, shown as they arrive.
  useEffect(() => {
    if (!handOver || mobile || phase !== 'collecting') return;
    const timer = setInterval(() => {
      identity.lastSession().then(
        (last) => last && restore(last),
        (error) => isSessionLost(error) && loseSession(),
      );
    }, PHOTO_POLL_MS);
    return () => clearInterval(timer);
  }, [handOver, mobile, phase, identity, restore, loseSession]);

  const allUploaded = IDENTITY_CONTEXTS.every((c) => uploads[c].completed);
  const anyUploaded = IDENTITY_CONTEXTS.some((c) => uploads[c].completed);
  const uploading = IDENTITY_CONTEXTS.some((c) => uploads[c].uploading);
  const uploadError = IDENTITY_CONTEXTS.some((c) => uploads[c].hasError);
  const ready = phase === 'approved' && submitted && !failure && profileComplete(profile);

  // The step's schema requires `verified: true`: the engine's "Pasul următor" follows it.
  useEffect(() => {
    if (ready !== Boolean(formData?.verified)) onChange(ready ? { verified: true } : {}, fieldPathId.path);
  }, [ready, formData?.verified, onChange, fieldPathId.path]);

  async function ensureSession() {
    if (session) return session;
    try {
      const created = await identity.createSession();
      setSession(created);
      return created;
    } catch (error) {
      if (isSessionLost(error)) loseSession();
      else setFailure(t('steps:identity.errors.sessionStart'));
      return null;
    }
  }

  async function pick(context: IdentityContext, file: File) {
    setFailure(null);
    patchUpload(context, { uploading: true, progress: 0, hasError: false });
    const current = await ensureSession();
    if (!current) {
      patchUpload(context, { uploading: false });
      return;
    }
    try {
      const scaled = await scaleImage(file, MAX_IMAGE_SIDE);
      await identity.upload(current.session_id, context, scaled.blob, scaled.fileName, (fraction) => {
        if (live.current) patchUpload(context, { progress: fraction });
      });
      if (!live.current) return;
      patchUpload(context, { uploading: false, completed: true, progress: 1, preview: remember(URL.createObjectURL(scaled.blob)) });
    } catch (error) {
      if (!live.current) return;
      if (isSessionLost(error)) return loseSession();
      patchUpload(context, { uploading: false, hasError: true });
      setFailure(t('steps:identity.errors.upload', { context: t(`steps:identity.contextNames.${KEYS[context]}`) }));
    }
  }

  async function submit() {
    if (!session || !allUploaded || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await identity.submit(session.session_id);
      if (!live.current) return;
      setSubmitted(true);
      setPhase('waiting');
    } catch (error) {
      if (isSessionLost(error)) loseSession();
      else setFailure(t('steps:identity.errors.submit'));
    } finally {
      if (live.current) setBusy(false);
    }
  }

  async function restart() {
    if (busy) return;
    setBusy(true);
    try {
      if (session) await identity.deleteSession(session.session_id, session.custom_id);
    } catch (error) {
      if (!isSessionLost(error)) {
        setFailure(t('steps:common.saveError'));
        setBusy(false);
        return;
      }
    }
    for (const url of objectUrls.current.splice(0)) URL.revokeObjectURL(url);
    setSession(null);
    setUploads(emptyUploads());
    setSubmitted(false);
    setFailure(null);
    setRejection(null);
    setEditing(false);
    setHandOver(!mobile);
    setPhase('collecting');
    await reloadRequest();
    if (live.current) setBusy(false);
  }

  const restartButton = session ? (
    <Button variant="outline" colorPalette="red" onClick={() => void restart()} disabled={busy} alignSelf="flex-start">
      {t('steps:identity.restart')}
    </Button>
  ) : null;

  if (sessionLost) {
    return (
      <Alert.Root status="warning" role="alert">
        <Alert.Indicator />
        <Alert.Description>{t('steps:identity.sessionLost')}</Alert.Description>
      </Alert.Root>
    );
  }
  if (phase === 'loading') return <Spinner aria-label={t('steps:common.loading')} />;

  const labels = Object.fromEntries(IDENTITY_CONTEXTS.map((c) => [c, t(`steps:identity.contexts.${KEYS[c]}`)])) as Record<IdentityContext, string>;
  const previews = (
    <SimpleGrid columns={{ base: 1, sm: 3 }} gap="3">
      {IDENTITY_CONTEXTS.map((context) =>
        uploads[context].preview ? (
          <Image key={context} src={uploads[context].preview!} alt={t('steps:identity.previewAlt', { label: labels[context] })} maxH="40" objectFit="contain" />
        ) : null,
      )}
    </SimpleGrid>
  );

  return (
    <Stack gap="5" data-testid="identity-step" data-phase={phase}>
      {failure ? (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              {t('steps:identity.errors.bannerPrefix')} {failure}
            </Alert.Title>
            <Alert.Description>{t(anyUploaded ? 'steps:identity.errors.hintRestart' : 'steps:identity.errors.hintReload')}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : null}

      {phase === 'collecting' ? (
        <>
          <Text>{t('steps:identity.intro')}</Text>
          {handOver && !mobile ? (
            <HandOver identity={identity} route={options.handOverRoute ?? 'collect-user-profile-step'} t={t} onDesktop={() => setHandOver(false)} />
          ) : null}
          <Stack gap="3" as="ol" listStyleType="none" aria-label={t('steps:identity.uploadsLabel')}>
            {IDENTITY_CONTEXTS.map((context, index) => {
              const before = IDENTITY_CONTEXTS.slice(0, index);
              const enabled = before.every((c) => uploads[c].completed) && !uploading && !uploadError && !busy;
              // While handed over, the phone takes the photos; the slots only show what arrived.
              if (handOver && !mobile && !uploads[context].completed) return null;
              return (
                <Box as="li" key={context}>
                  <UploadSlot
                    context={context}
                    position={index + 1}
                    label={labels[context]}
                    state={uploads[context]}
                    disabled={!enabled}
                    mobile={mobile}
                    t={t}
                    onFile={(file) => void pick(context, file)}
                  />
                </Box>
              );
            })}
          </Stack>
          {handOver && !mobile && !allUploaded ? null : (
            <Button colorPalette="blue" size="lg" onClick={() => void submit()} disabled={!allUploaded || uploading || busy} loading={busy}>
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
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Description>{rejection}</Alert.Description>
          </Alert.Root>
          {restartButton}
        </Stack>
      ) : null}

      {phase === 'approved' ? (
        <Stack gap="4">
          <Alert.Root status="success">
            <Alert.Indicator />
            <Alert.Description>{t('steps:identity.approved')}</Alert.Description>
          </Alert.Root>
          {editing ? (
            <AddressForm
              initial={profile}
              places={places}
              t={t}
              withPlaceOfBirth={options.withPlaceOfBirth !== false}
              onSave={async (values) => {
                await identity.saveAddress(values);
                await reloadRequest();
                if (!live.current) return;
                setEditing(false);
                setSaved(true);
              }}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <Stack gap="2" data-testid="identity-address">
              <Heading as="h2" size="md">
                {t('steps:identity.homeAddress')}
              </Heading>
              {profile.first_name || profile.last_name ? (
                <Text fontWeight="semibold">
                  {profile.last_name} {profile.first_name}
                </Text>
              ) : null}
              {formatAddress(profile) && profileComplete(profile) ? (
                <Text>{formatAddress(profile)}</Text>
              ) : (
                <Text color="fg.error">{t('steps:identity.missingAddress')}</Text>
              )}
              {profile.place_of_birth ? <Text>{t('steps:identity.placeOfBirth', { place: profile.place_of_birth })}</Text> : null}
              {saved ? (
                <Text color="green.600" role="status">
                  {t('steps:identity.saved')}
                </Text>
              ) : null}
              <Button variant="outline" onClick={() => setEditing(true)} alignSelf="flex-start">
                {t('steps:identity.edit')}
              </Button>
            </Stack>
          )}
          {previews}
          {restartButton}
        </Stack>
      ) : null}
    </Stack>
  );
}
