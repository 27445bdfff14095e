import { useEffect, useRef } from 'react';
import { Box, Button, Container, Flex, HStack, Text } from '@chakra-ui/react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { BrandMark } from '@/shared/components/Brand';
import { LanguageSwitch } from '@/shared/components/LanguageSwitch';
import { toaster } from '@/shared/toaster';
import { staffApi } from './api';
import { useStaffT } from './i18n';
import { STAFF_HOME, STAFF_LOGIN, staffSession, useStaffSession } from './session';

export { staffLoader } from './guards';

/**
 * Every staff page but the login (issue 18): a header with who is signed in, the links of their
 * role ("Dosare" for operators, "Previzualizare" for editors) and "Ieșire"; the page in `<main>`.
 * When the staff session ends (sign-out, a 401 from the server, another tab), the browser goes to
 * /staff/login.
 */
export function StaffLayout() {
  const t = useStaffT();
  const session = useStaffSession();
  const navigate = useNavigate();
  const location = useLocation();
  const staff = session?.staff ?? null;
  /** A sign-out from this page goes to the plain login, without the "session expired" notice. */
  const signingOut = useRef(false);

  useEffect(() => {
    if (staff || signingOut.current) return;
    toaster.create({ type: 'warning', title: t('layout.sessionExpired'), closable: true });
    navigate(`${STAFF_LOGIN}?next=${encodeURIComponent(location.pathname + location.search)}`, { replace: true });
    // Only when the session goes away, not on every navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [staff]);

  async function signOut() {
    signingOut.current = true;
    try {
      await staffApi.post('/staff/logout');
    } catch {
      // Signed out here whatever the server says (an expired session is already gone there).
    }
    staffSession.clear();
    navigate(STAFF_LOGIN, { replace: true });
  }

  if (!staff) return null;
  const links = [
    { to: STAFF_HOME.operator, label: t('layout.dossiers'), role: 'operator' as const },
    { to: STAFF_HOME.editor, label: t('layout.preview'), role: 'editor' as const },
  ].filter((link) => link.role === staff.role);

  return (
    <Flex direction="column" minH="100dvh">
      <Box as="header" borderBottomWidth="1px" bg="bg" px={{ base: '4', sm: '6' }} py="3">
        <Flex maxW="7xl" mx="auto" gap="4" align="center" wrap="wrap">
          <HStack gap="3">
            <BrandMark />
            <Text fontWeight="semibold" color="fg.muted">
              {t('productArea')}
            </Text>
          </HStack>
          <Box as="nav" aria-label={t('layout.nav')} flex="1">
            <HStack as="ul" listStyleType="none" gap="4" m="0" p="0">
              {links.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} style={({ isActive }) => ({ fontWeight: isActive ? 700 : 500, textDecoration: 'underline' })}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </HStack>
          </Box>
          <HStack gap="3" wrap="wrap">
            {/* The console in English too: the choice is the applicant pages' one (src/shared/language.ts), sent as Accept-Language. */}
            <LanguageSwitch />
            <Text data-testid="staff-signed-in">
              {t('layout.signedInAs', { email: staff.email })} ({t(`layout.roles.${staff.role}`)})
            </Text>
            <Button variant="outline" size="sm" onClick={() => void signOut()}>
              {t('layout.signOut')}
            </Button>
          </HStack>
        </Flex>
      </Box>
      <Box as="main" id="main" tabIndex={-1} flex="1" outline="none" px={{ base: '4', sm: '6' }} py="6">
        <Container maxW="7xl" px="0">
          <Outlet />
        </Container>
      </Box>
    </Flex>
  );
}
