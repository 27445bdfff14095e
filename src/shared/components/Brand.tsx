import { Box, Container, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { STATIC_ROUTES } from '@/core/routes';
import { useConfig } from '@/shared/api/hooks';
import { useT } from '@/shared/useT';
import { AppLink } from './AppLink';

/**
 * The brand's logo and name (issue 17), from the brand settings (`GET /api/config`, defaults of
 * content/brand.json until it answers, which is what prerendered pages show).
 */
export function BrandMark({ size = 32 }: { size?: number }) {
  const { config } = useConfig();
  return (
    <HStack gap="2" data-testid="brand">
      {/* Decorative: the name beside it is the text. A plain <img> with its size as attributes (no style for the CSP). */}
      <img src={config.logo_url} alt="" width={size} height={size} />
      <Text as="span" fontWeight="bold" fontSize={{ base: 'md', sm: 'lg' }} color="brand.fg">
        {config.product_name}
      </Text>
    </HStack>
  );
}

const linkProps = { color: 'brand.fg', textDecoration: 'underline', textUnderlineOffset: '3px' } as const;

/**
 * The terms and privacy links of the brand settings (`TERMS_URL`, `PRIVACY_URL`; by default this
 * server's /termeni and /confidentialitate). `newTab` for links inside a form being filled in.
 */
export function LegalLinks({ newTab = false }: { newTab?: boolean }) {
  const t = useT('common');
  const { config } = useConfig();
  const target = newTab ? { target: '_blank', rel: 'noopener' } : {};
  return (
    <>
      <Link href={config.terms_url} {...target} {...linkProps}>
        {t('footer.terms')}
      </Link>
      <Link href={config.privacy_url} {...target} {...linkProps}>
        {t('footer.privacy')}
      </Link>
    </>
  );
}

/**
 * The footer of every page (guest pages, flows, status, dashboard): contact, terms, privacy and the
 * applicant's "Datele tale" (issue 32; a guest who follows it signs in first and comes back).
 */
export function SiteFooter() {
  const t = useT('common');
  const { config } = useConfig();
  return (
    <Box as="footer" borderTopWidth="1px" bg="bg" py="5" fontSize="sm" color="fg.muted">
      <Container maxW="4xl" px={{ base: '4', sm: '6' }}>
        <Stack gap="2">
          <Text>
            {t('footer.contact')}{' '}
            <Link href={`mailto:${config.contact_email}`} {...linkProps}>
              {config.contact_email}
            </Link>
            {config.contact_phone ? (
              <>
                {' · '}
                <Link href={`tel:${config.contact_phone.replace(/[^+0-9]/g, '')}`} {...linkProps}>
                  {config.contact_phone}
                </Link>
              </>
            ) : null}
          </Text>
          <HStack as="nav" aria-label={t('footer.legal')} gap="4" flexWrap="wrap">
            <LegalLinks />
            <AppLink to={STATIC_ROUTES['my-data']} {...linkProps}>
              {t('footer.myData')}
            </AppLink>
          </HStack>
          <Text>{t('footer.copyright', { year: new Date().getFullYear() })}</Text>
        </Stack>
      </Container>
    </Box>
  );
}
