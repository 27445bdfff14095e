import { startGuestPage } from '../start';

startGuestPage({ route: '/password/forgot', guestOnly: true, load: () => import('@/pages/ForgotPasswordPage').then((m) => m.ForgotPasswordPage) });
