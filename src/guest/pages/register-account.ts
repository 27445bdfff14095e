import { startGuestPage } from '../start';

startGuestPage({ route: '/register/account/:partner?', guestOnly: false, load: () => import('@/pages/register/AccountPage').then((m) => m.AccountPage) });
