import { AccountPage } from '@/pages/register/AccountPage';
import { startGuestPage } from '../start';

startGuestPage({ route: '/register/account/:partner?', guestOnly: false, page: AccountPage });
