import { useCallback, useEffect, useRef, useState } from 'react';
import { IDENTITY_CONTEXTS, type IdentityContext, type IdentityService, type IdentitySession, type Profile, type StepServices } from '../types';
import { useLive } from '../shared/useLive';
import { usePolling } from '../shared/usePolling';
import { CONTEXT_KEYS, isSessionLost, PHOTO_POLL_MS, profileComplete, STATUS, STATUS_POLL_MS, type Phase } from './identity-rules';
import { MAX_IMAGE_SIDE, scaleImage } from './scale-image';
import { useIdentityUploads } from './useIdentityUploads';
import { useSessionLost } from './useSessionLost';

type SessionKeys = { session_id: string; custom_id: string };

export interface IdentitySessionOptions {
  identity: IdentityService;
  t: StepServices['t'];
  /** The request's profile as last loaded (a rejection with a complete profile counts as approved). */
  profile: Profile;
  reloadRequest(): Promise<void>;
  /** Reloads the page (3 s after the session was deleted elsewhere). */
  reloadPage(): void;
  /** Handed over to a phone: the photos are asked for every 3 s while collecting. */
  pollPhotos: boolean;
  /** The restart button emptied the screen (the caller resets its own view state). */
  onReset?(): void;
}

/**
 * The identity verification session of the step (spec 000 §2.3, §4.4): restores it from the
 * server on load, creates it at the first upload, uploads the three photos in order, submits,
 * polls the decision every 5 s (and the photos every 3 s while handed over to a phone), settles
 * a rejection, restarts, and notices a session deleted elsewhere.
 */
export function useIdentitySession({ identity, t, profile, reloadRequest, reloadPage, pollPhotos, onReset }: IdentitySessionOptions) {
  const [phase, setPhase] = useState<Phase>('loading');
  const [session, setSession] = useState<SessionKeys | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [rejection, setRejection] = useState<string | null>(null);
  const uploads = useIdentityUploads();
  const { patch, remember, markServerUploads } = uploads;
  const { lost, lose } = useSessionLost(reloadPage);
  const live = useLive();
  const profileRef = useRef(profile);
  useEffect(() => {
    profileRef.current = profile;
  }, [profile]);

  /** Status 3: the reason, unless profile, address and the three uploads make it count as approved. */
  const settleRejected = useCallback(
    async (current: SessionKeys, allUploaded: boolean) => {
      if (allUploaded && profileComplete(profileRef.current)) {
        setPhase('approved');
        return;
      }
      let reason: string | null = null;
      try {
        const { code, translated_reason } = await identity.error(current.session_id, current.custom_id);
        // The reason in the applicant's language when its code is known (`identity.reasons`), else the server's Romanian text.
        reason = (code !== null ? t(`steps:identity.reasons.${code}`, { defaultValue: translated_reason ?? '' }) : translated_reason) || null;
      } catch (error) {
        if (isSessionLost(error)) return lose();
      }
      if (!live.current) return;
      setRejection(reason ? t('steps:identity.errors.rejected', { reason }) : t('steps:identity.errors.rejectedGeneric'));
      setPhase('rejected');
    },
    [identity, lose, t, live],
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
      markServerUploads(last.uploads);
      for (const context of IDENTITY_CONTEXTS) {
        const uploaded = last.uploads[context];
        if (uploaded && !uploads.latest.current[context].preview) {
          identity.preview(uploaded.preview_url).then(
            (url) => live.current && patch(context, { preview: remember(url) }),
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
    [identity, reloadRequest, settleRejected, markServerUploads, patch, remember, uploads.latest, live],
  );

  // On load the last session is fetched and the screen restored by its status.
  useEffect(() => {
    identity.lastSession().then(restore, (error) => {
      if (isSessionLost(error)) lose();
      else {
        setFailure(t('steps:identity.errors.sessionStart'));
        setPhase('collecting');
      }
    });
  }, [identity, restore, lose, t]);

  // Waiting for a decision: the status every 5 s.
  usePolling(phase === 'waiting' && session !== null, STATUS_POLL_MS, async (stop) => {
    if (!session) return;
    let status: number;
    try {
      status = await identity.status(session.session_id, session.custom_id);
    } catch (error) {
      if (isSessionLost(error)) {
        stop();
        lose();
      }
      return;
    }
    if (!live.current || status === STATUS.submitted) return;
    stop();
    if (status === STATUS.approved) {
      await reloadRequest(); // the decision filled the profile
      if (live.current) setPhase('approved');
    } else if (status === STATUS.rejected) {
      await settleRejected(session, IDENTITY_CONTEXTS.every((c) => uploads.latest.current[c].completed));
    } else {
      setPhase('collecting');
      await reloadRequest();
    }
  });

  // Handed over to a phone: the photos every 3 s, shown as they arrive.
  usePolling(pollPhotos && phase === 'collecting', PHOTO_POLL_MS, () => {
    identity.lastSession().then(
      (last) => last && restore(last),
      (error) => isSessionLost(error) && lose(),
    );
  });

  async function ensureSession(): Promise<SessionKeys | null> {
    if (session) return session;
    try {
      const created = await identity.createSession();
      setSession(created);
      return created;
    } catch (error) {
      if (isSessionLost(error)) lose();
      else setFailure(t('steps:identity.errors.sessionStart'));
      return null;
    }
  }

  /** Scales and uploads the photo of one context. */
  async function pick(context: IdentityContext, file: File) {
    setFailure(null);
    patch(context, { uploading: true, progress: 0, hasError: false });
    const current = await ensureSession();
    if (!current) {
      patch(context, { uploading: false });
      return;
    }
    try {
      const scaled = await scaleImage(file, MAX_IMAGE_SIDE);
      await identity.upload(current.session_id, context, scaled.blob, scaled.fileName, (fraction) => {
        if (live.current) patch(context, { progress: fraction });
      });
      if (!live.current) return;
      patch(context, { uploading: false, completed: true, progress: 1, preview: remember(URL.createObjectURL(scaled.blob)) });
    } catch (error) {
      if (!live.current) return;
      if (isSessionLost(error)) return lose();
      patch(context, { uploading: false, hasError: true });
      setFailure(t('steps:identity.errors.upload', { context: t(`steps:identity.contextNames.${CONTEXT_KEYS[context]}`) }));
    }
  }

  async function submit() {
    if (!session || !uploads.allUploaded || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await identity.submit(session.session_id);
      if (!live.current) return;
      setSubmitted(true);
      setPhase('waiting');
    } catch (error) {
      if (isSessionLost(error)) lose();
      else setFailure(t('steps:identity.errors.submit'));
    } finally {
      if (live.current) setBusy(false);
    }
  }

  /** Deletes the session and starts again from the first photo. */
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
    uploads.reset();
    setSession(null);
    setSubmitted(false);
    setFailure(null);
    setRejection(null);
    onReset?.();
    setPhase('collecting');
    await reloadRequest();
    if (live.current) setBusy(false);
  }

  return { phase, session, submitted, busy, failure, rejection, sessionLost: lost, uploads, pick, submit, restart };
}
