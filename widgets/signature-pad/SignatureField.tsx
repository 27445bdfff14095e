import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Box, Button, Image, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import SignaturePad from 'signature_pad';
import { stepContext, type MediaFile } from '../types';

/** `new`: the pad holds a drawing (attached as semnatura.png); `saved`: keep the saved signature. */
interface SignatureData {
  signature?: 'new' | 'saved';
}

/** The pad's look (spec 001 §9): height 233, blue pen, widths 0.5 to 2.5; flow files may change them. */
interface PadOptions {
  height: number;
  penColor: string;
  minWidth: number;
  maxWidth: number;
}

const DEFAULTS: PadOptions = { height: 233, penColor: 'blue', minWidth: 0.5, maxWidth: 2.5 };
export const SIGNATURE_FILE_NAME = 'semnatura.png';

/** A `data:` URL's bytes as a Blob (synchronous: the file is attached before "next" can be pressed). */
export function dataUrlToBlob(dataUrl: string): Blob {
  const [head, data = ''] = dataUrl.split(',');
  const type = /^data:([^;,]+)/.exec(head)?.[1] ?? 'image/png';
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type });
}

function savedFile(media: Record<string, MediaFile | MediaFile[] | null | undefined> | undefined): MediaFile | null {
  const file = media?.signature_document;
  return file && !Array.isArray(file) && file.url ? file : null;
}

/**
 * The signature step (spec 001 §2 item 5, §4 "Signature"): a draw pad (signature_pad) that works
 * with mouse, pen and touch, keeps the drawing when the window is resized, a clear action, the
 * consent text (articles 2.10.3 and 2.10.4) and the saved signature with its delete action.
 * Form data: `{ signature: 'new' }` with a drawing (the PNG attached as the multipart `file`),
 * `{ signature: 'saved' }` with an empty pad and a saved signature, `{}` otherwise, so the
 * engine's "Pasul următor" stays disabled until there is something to sign with.
 */
export default function SignatureField(props: FieldProps<SignatureData>) {
  const { formData, onChange, registry, fieldPathId, uiSchema, disabled, readonly } = props;
  const { services, media, reloadRequest, attachFile } = stepContext(registry);
  const { t } = services;
  const options: PadOptions = { ...DEFAULTS, ...((uiSchema?.['ui:options'] ?? {}) as Partial<PadOptions>) };
  const saved = savedFile(media);
  const ids = useId();
  const labelId = `${ids}-label`;
  const descriptionId = `${ids}-description`;
  const consentId = `${ids}-consent`;

  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const [drawn, setDrawn] = useState(false);
  const [preview, setPreview] = useState<{ of: string; src: string | null } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const live = useRef(true);
  const off = Boolean(disabled || readonly);
  // The engine's context changes with every reloaded request: the pad must not be rebuilt (and wiped) for it.
  const attachRef = useRef(attachFile);
  useEffect(() => {
    attachRef.current = attachFile;
  }, [attachFile]);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  /** Hands the drawing to the engine for the multipart submit, or takes it back. */
  const attachDrawing = useCallback(() => {
    const pad = padRef.current;
    if (!pad || pad.isEmpty()) {
      attachRef.current('file', null);
      setDrawn(false);
      return;
    }
    attachRef.current('file', dataUrlToBlob(pad.toDataURL('image/png')), SIGNATURE_FILE_NAME);
    setDrawn(true);
  }, []);

  // The pad: created once per canvas; sized for the device's pixel ratio, redrawn after a resize.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const pad = new SignaturePad(canvas, { penColor: options.penColor, minWidth: options.minWidth, maxWidth: options.maxWidth });
    padRef.current = pad;
    let size = '';
    const resize = () => {
      // When zoomed out some browsers report a ratio under 1: never draw at less than the CSS size.
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const next = `${canvas.offsetWidth}x${canvas.offsetHeight}@${ratio}`;
      if (next === size) return;
      size = next;
      // Changing the canvas size wipes it: keep the strokes and draw them again at the new size.
      const strokes = pad.toData();
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      if (strokes.length) {
        pad.fromData(strokes);
        attachDrawing();
      } else pad.clear();
    };
    resize();
    const endStroke = () => attachDrawing();
    pad.addEventListener('endStroke', endStroke);
    window.addEventListener('resize', resize);
    window.addEventListener('orientationchange', resize);
    // The layout may also change without a window resize (the saved signature shown or removed).
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(() => resize()) : null;
    observer?.observe(canvas);
    return () => {
      pad.removeEventListener('endStroke', endStroke);
      window.removeEventListener('resize', resize);
      window.removeEventListener('orientationchange', resize);
      observer?.disconnect();
      pad.off();
      padRef.current = null;
      attachRef.current('file', null);
    };
  }, [options.penColor, options.minWidth, options.maxWidth, attachDrawing]);

  useEffect(() => {
    const pad = padRef.current;
    if (!pad) return;
    if (off) pad.off();
    else pad.on();
  }, [off]);

  // The form's value follows the pad and the saved signature; the engine's "next" follows the value.
  const wanted: SignatureData['signature'] = drawn ? 'new' : saved ? 'saved' : undefined;
  useEffect(() => {
    if (formData?.signature !== wanted) onChange(wanted ? { signature: wanted } : {}, fieldPathId.path);
  }, [formData?.signature, wanted, onChange, fieldPathId.path]);

  // The saved signature is an owner-only file: fetched with the token, shown as an object URL.
  const savedUrl = saved?.url ?? null;
  useEffect(() => {
    if (!savedUrl) return;
    let current = true;
    let objectUrl: string | null = null;
    services.identity.preview(savedUrl).then(
      (url) => {
        objectUrl = url;
        if (current) setPreview({ of: savedUrl, src: url });
        else if (url.startsWith('blob:')) URL.revokeObjectURL(url);
      },
      // No picture (the label and the delete action stay): not worth an error of its own.
      () => current && setPreview({ of: savedUrl, src: null }),
    );
    return () => {
      current = false;
      if (objectUrl?.startsWith('blob:')) URL.revokeObjectURL(objectUrl);
    };
  }, [savedUrl, services.identity]);
  const previewLoaded = preview !== null && preview.of === savedUrl;
  const previewSrc = previewLoaded ? preview.src : null;

  function clear() {
    padRef.current?.clear();
    attachDrawing();
  }

  async function deleteSaved() {
    if (deleting) return;
    setDeleting(true);
    setDeleteError(null);
    try {
      await services.dossier.deleteSignature();
      await reloadRequest();
    } catch {
      if (live.current) setDeleteError(t('steps:signature.deleteError'));
    } finally {
      if (live.current) setDeleting(false);
    }
  }

  return (
    <Stack gap="5" data-testid="signature-step" data-state={wanted ?? 'empty'}>
      {saved ? (
        <Stack gap="3" data-testid="signature-saved" borderWidth="1px" borderRadius="md" p="4">
          <Text fontWeight="semibold" role="status">
            {t('steps:signature.saved')}
          </Text>
          {previewSrc ? (
            <Image src={previewSrc} alt={t('steps:signature.savedAlt')} maxH="32" objectFit="contain" alignSelf="flex-start" bg="white" />
          ) : previewLoaded ? null : (
            <Spinner size="sm" aria-label={t('steps:common.loading')} />
          )}
          <Text fontSize="sm">{t('steps:signature.savedHint')}</Text>
          <Button
            variant="outline"
            colorPalette="red"
            onClick={() => void deleteSaved()}
            loading={deleting}
            loadingText={t('steps:signature.deleteSaved')}
            disabled={deleting || off}
            width={{ base: 'full', xl: 'auto' }}
            alignSelf={{ xl: 'flex-start' }}
          >
            {t('steps:signature.deleteSaved')}
          </Button>
          {deleteError ? (
            <Text role="alert" color="fg.error" fontSize="sm">
              {deleteError}
            </Text>
          ) : null}
        </Stack>
      ) : null}

      <Stack gap="2" role="group" aria-labelledby={labelId} width="full" maxW={{ base: 'full', xl: '2xl' }}>
        <Text id={labelId} fontWeight="semibold">
          {t('steps:signature.intro')}
        </Text>
        <Box borderWidth="2px" borderStyle="dashed" borderColor={drawn ? 'blue.500' : 'border.emphasized'} borderRadius="md" bg="white" overflow="hidden">
          <canvas
            ref={canvasRef}
            role="img"
            aria-label={t('steps:signature.padLabel')}
            aria-describedby={`${descriptionId} ${consentId}`}
            data-testid="signature-canvas"
            style={{ display: 'block', width: '100%', height: `${options.height}px`, touchAction: 'none', cursor: off ? 'not-allowed' : 'crosshair' }}
          />
        </Box>
        <Text id={descriptionId} srOnly>
          {t('steps:signature.padDescription')}
        </Text>
        <Button
          variant="outline"
          onClick={clear}
          disabled={!drawn || off}
          width={{ base: 'full', xl: 'auto' }}
          alignSelf={{ xl: 'flex-start' }}
        >
          {/* The name is the shown word and what it clears ("Șterge semnătura din chenar"): it contains what is seen. */}
          {t('steps:signature.clear')}{' '}
          <Text as="span" srOnly>
            {t('steps:signature.clearWhat')}
          </Text>
        </Button>
      </Stack>

      <Stack gap="2" fontSize="sm">
        <Text id={consentId}>{t('steps:signature.consent')}</Text>
        {/* The terms the consent cites, opened beside the wizard (brand settings: /termeni or TERMS_URL). */}
        {services.legal ? (
          <Link href={services.legal.termsUrl} target="_blank" rel="noopener" color="brand.fg" textDecoration="underline" alignSelf="flex-start">
            {t('steps:signature.readTerms')}
          </Link>
        ) : null}
        <Text>{t('steps:signature.ownLawyer')}</Text>
      </Stack>
    </Stack>
  );
}
