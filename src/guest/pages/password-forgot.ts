import { ForgotPasswordPage } from '@/pages/ForgotPasswordPage';
import { startGuestPage } from '../start';

startGuestPage({ route: '/password/forgot', guestOnly: true, page: ForgotPasswordPage });
