import { useEffect, useState } from 'react';
import { Alert, Box, Button, Center, Spinner, Stack, Text } from '@chakra-ui/react';
import { QRCodeSVG } from 'qrcode.react';
import type { IdentityService } from '../types';

/** The single-use sign-in link behind the QR code expires after 10 minutes (spec 000 §9). */
export const QR_EXPIRY_MS = 10 * 60 * 1000;
/** The QR code's side in CSS pixels (spec 001 §2 item 13: 200x200). */
export const QR_SIZE = 200;

export interface HandOverProps {
  identity: IdentityService;
  /** Named route the phone opens (`collect-user-profile-step`: the identity step of the user's flow). */
  route: string;
  t(key: string, vars?: Record<string, unknown>): string;
  /** "Continue on desktop": back to the file choosers (also the fallback when no code can be made). */
  onDesktop(): void;
}

/**
 * Desktop hand-over to a phone: a 200×200 QR code of a single-use auto-login link that opens the
 * identity step signed in on the phone. The parent polls the photos while this is shown.
 */
export function HandOver({ identity, route, t, onDesktop }: HandOverProps) {
  const [link, setLink] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [expired, setExpired] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    identity.autoLoginLink(route).then(
      (made) => live && setLink(made),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [identity, route, attempt]);

  const regenerate = () => {
    setFailed(false);
    setExpired(false);
    setLink(null);
    setAttempt((n) => n + 1);
  };

  useEffect(() => {
    if (!link) return;
    const timer = setTimeout(() => setExpired(true), QR_EXPIRY_MS);
    return () => clearTimeout(timer);
  }, [link]);

  return (
    <Stack gap="4" p="4" borderWidth="1px" borderRadius="md" data-testid="identity-handover">
      <Text fontWeight="semibold">{t('steps:identity.handOver.title')}</Text>
      <Text>{t('steps:identity.handOver.text')}</Text>
      {failed ? (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Description>{t('steps:identity.errors.qr')}</Alert.Description>
        </Alert.Root>
      ) : expired ? (
        <Stack gap="2" align="center">
          <Text>{t('steps:identity.handOver.expired')}</Text>
          <Button variant="outline" onClick={regenerate}>
            {t('steps:identity.handOver.regenerate')}
          </Button>
        </Stack>
      ) : link ? (
        <Center flexDirection="column" gap="2">
          {/* qrcode.react (the design card's choice): an SVG, dark modules on white, 200×200. */}
          <Box role="img" aria-label={t('steps:identity.handOver.qrLabel')} data-testid="identity-qr" data-link={link} bg="white" lineHeight="0">
            <QRCodeSVG value={link} size={QR_SIZE} level="M" bgColor="#ffffff" fgColor="#000000" aria-hidden="true" />
          </Box>
          <Text fontSize="sm" color="fg.muted">
            {t('steps:identity.handOver.validity')}
          </Text>
        </Center>
      ) : (
        <Center>
          <Spinner aria-label={t('steps:common.loading')} />
        </Center>
      )}
      <Button variant={failed ? 'solid' : 'outline'} colorPalette="blue" onClick={onDesktop}>
        {t('steps:identity.handOver.desktop')}
      </Button>
    </Stack>
  );
}
