import { LoginPage } from '@/pages/login/LoginPage';
import { startGuestPage } from '../start';

startGuestPage({ route: '/login', guestOnly: true, page: LoginPage });
