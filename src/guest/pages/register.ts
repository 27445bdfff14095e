import { TypeSelectionPage } from '@/pages/register/TypeSelectionPage';
import { startGuestPage } from '../start';

startGuestPage({ route: '/register/:partner?', guestOnly: false, page: TypeSelectionPage });
