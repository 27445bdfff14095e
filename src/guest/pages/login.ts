import { startGuestPage } from '../start';

startGuestPage({ route: '/login', guestOnly: true, load: () => import('@/pages/login/LoginPage').then((m) => m.LoginPage) });
